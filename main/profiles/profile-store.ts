import { join } from 'node:path';
import { serviceError, strataError, type StrataError } from '../../shared/errors/strata-error';
import type { Environment } from '../../shared/loader/xdg-directories';
import { parseProfileText } from '../../shared/profiles/profile-document';
import { profileFileName, profileNameKey, sameProfileName, PROFILE_FILE_EXTENSION } from '../../shared/profiles/profile-file-name';
import { invalidProfileError, issuesOf, ProfileNameSchema, ProfileSchema, type Profile } from '../../shared/profiles/profile-schema';
import { serializeProfile } from '../../shared/profiles/profile-text';
import { asStrataFailure, realFileOps, sweepDeadTemps, unlinkDurable, writeFileAtomic, type FileOps } from '../platform/atomic-file';
import { GuardedReadError, readTextGuardedSync } from '../platform/guarded-read';
import { withLock } from '../platform/file-lock';
import { strataUserDirs } from '../platform/user-dirs';

/**
 * Profiles on disk: one JSON file per profile in $XDG_CONFIG_HOME/strata/profiles (default
 * ~/.config/strata/profiles; on Windows %APPDATA%\Strata\profiles: main/platform/user-dirs.ts), named after the profile (shared/profiles/profile-file-name.ts) and
 * written atomically (main/platform/atomic-file.ts). A file that does not read as a profile is
 * reported with its file and field and left exactly as it is: Strata never deletes or rewrites a
 * file it cannot read. Changes take a lock, so two Strata processes cannot both create one name.
 */
export function profilesDir(env: Environment, home: string): string {
  return join(strataUserDirs(env, home).config, 'profiles');
}

export interface StoredProfile {
  name: string;
  /** Full path of its file. */
  file: string;
  profile: Profile;
  /** The schema version the file was written in, when older than the current one. */
  migratedFrom: number | null;
}

export interface ProfileListing {
  dir: string;
  profiles: StoredProfile[];
  /** Files that are not readable profiles (or repeat a name), as error values naming file and field. */
  problems: StrataError[];
}

export interface ProfileStoreOptions {
  dir: string;
  /** Names users cannot take (the built-in presets'). */
  reservedNames?: readonly string[];
  ops?: FileOps;
}

const fail = (error: StrataError): never => {
  throw serviceError(error);
};

export class ProfileStore {
  readonly dir: string;
  private readonly ops: FileOps;
  private readonly reserved: readonly string[];

  constructor(options: ProfileStoreOptions) {
    this.dir = options.dir;
    this.ops = options.ops ?? realFileOps;
    this.reserved = options.reservedNames ?? [];
  }

  private get lockFile() {
    return join(this.dir, '.profiles.lock');
  }

  list(): ProfileListing {
    let entries: string[];
    try {
      entries = this.ops.readdirSync(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { dir: this.dir, profiles: [], problems: [] };
      throw serviceError('profile/unreadable-folder', `Cannot read the profiles folder: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, {
        where: this.dir,
        fix: `check the permissions of ${this.dir}`,
      });
    }
    const profiles: StoredProfile[] = [];
    const byKey = new Map<string, StoredProfile>();
    const problems: StrataError[] = [];
    for (const entry of entries.filter((e) => e.endsWith(PROFILE_FILE_EXTENSION) && !e.startsWith('.')).sort()) {
      const file = join(this.dir, entry);
      let text: string;
      try {
        // Guarded (O_NONBLOCK, fstat after open, capped): a FIFO or device named *.strata-profile.json cannot hang or flood the listing.
        text = readTextGuardedSync(file, 'profile');
      } catch (e) {
        if (e instanceof GuardedReadError && e.folder) continue;
        if (e instanceof GuardedReadError) {
          problems.push(
            strataError(e.reason === 'too-large' ? 'profile/too-large' : 'profile/unreadable', `${e.message}, so it was not read`, {
              where: file,
              fix: `move ${entry} out of ${this.dir}; Strata leaves it alone`,
            }),
          );
          continue;
        }
        problems.push(
          strataError('profile/unreadable', `Cannot read the profile file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, {
            where: file,
            fix: `check the permissions of ${file}`,
          }),
        );
        continue;
      }
      const parsed = parseProfileText(text, file);
      if (!parsed.ok) {
        problems.push({ ...parsed.error, fix: `${parsed.error.fix ?? 'correct the file'}; Strata leaves the file as it is until then` });
        continue;
      }
      const twin = byKey.get(profileNameKey(parsed.profile.name));
      if (twin) {
        problems.push(
          strataError('profile/duplicate-name', `Two profile files are named "${parsed.profile.name}"; Strata uses ${twin.file} and ignores this one`, {
            where: `${file}, field name`,
            fix: `rename one of them (edit its "name"), or delete the one you do not need`,
            data: { issues: [{ path: 'name', message: 'repeats another profile' }], field: 'name', other: twin.file },
          }),
        );
        continue;
      }
      const stored = { name: parsed.profile.name, file, profile: parsed.profile, migratedFrom: parsed.migratedFrom };
      profiles.push(stored);
      byKey.set(profileNameKey(stored.name), stored);
    }
    return { dir: this.dir, profiles, problems };
  }

  find(name: string): StoredProfile | undefined {
    return this.list().profiles.find((p) => sameProfileName(p.name, name));
  }

  get(name: string): StoredProfile {
    return this.find(name) ?? fail(this.notFound(name));
  }

  notFound(name: string): StrataError {
    const names = this.list().profiles.map((p) => `"${p.name}"`);
    return strataError('profile/not-found', `There is no profile named "${name}"`, {
      where: this.dir,
      fix: names.length ? `use one of ${names.join(', ')} (\`strata profile list\`)` : 'create one first (`strata profile create NAME --from PRESET`)',
    });
  }

  private checkName(name: string, where: string) {
    const parsed = ProfileNameSchema.safeParse(name);
    if (!parsed.success)
      fail(
        invalidProfileError(
          issuesOf(parsed.error).map((i) => ({ ...i, path: 'name' })),
          where,
          'choose another name',
        ),
      );
    const preset = this.reserved.find((r) => sameProfileName(r, name));
    if (preset)
      fail(
        strataError('profile/name-taken', `"${name}" is the name of a built-in preset`, {
          where,
          fix: 'choose another name (presets are read-only; copy one under a name of your own)',
        }),
      );
  }

  private mutate<T>(action: string, fn: () => T): T {
    return asStrataFailure(action, this.dir, () => {
      this.ops.mkdirSync(this.dir, { recursive: true });
      return withLock(
        this.lockFile,
        () => {
          // A write killed mid-way (SIGKILL, power) leaves its .NAME.PID.RANDOM.tmp; the next change clears those of dead writers.
          sweepDeadTemps(this.dir, this.ops);
          return fn();
        },
        { ops: this.ops },
      );
    });
  }

  private writeNew(profile: Profile, listing: ProfileListing, exceptFile?: string): StoredProfile {
    const taken = this.ops.readdirSync(this.dir).filter((e) => join(this.dir, e) !== exceptFile);
    const file = join(
      this.dir,
      profileFileName(profile.name, [...taken, ...listing.profiles.filter((p) => p.file !== exceptFile).map((p) => p.file.slice(this.dir.length + 1))]),
    );
    writeFileAtomic(file, serializeProfile(profile), this.ops);
    return { name: profile.name, file, profile, migratedFrom: null };
  }

  private validated(profile: unknown, where: string): Profile {
    const checked = ProfileSchema.safeParse(profile);
    return checked.success ? checked.data : fail(invalidProfileError(issuesOf(checked.error), where));
  }

  /** A new profile; refuses a name that is taken (without regard to case) unless `replace`. */
  create(input: Profile, options: { replace?: boolean } = {}): StoredProfile {
    const profile = this.validated(input, `profile "${String((input as { name?: unknown }).name)}"`);
    this.checkName(profile.name, this.dir);
    return this.mutate('save the profile', () => {
      const listing = this.list();
      const existing = listing.profiles.find((p) => sameProfileName(p.name, profile.name));
      if (existing && !options.replace)
        fail(
          strataError('profile/name-taken', `A profile named "${existing.name}" exists already`, {
            where: existing.file,
            fix: 'choose another name, or delete or rename the existing one first',
          }),
        );
      if (existing) {
        writeFileAtomic(existing.file, serializeProfile(profile), this.ops);
        return { name: profile.name, file: existing.file, profile, migratedFrom: null };
      }
      return this.writeNew(profile, listing);
    });
  }

  /** Replace the stored profile of the same name (its file stays where it is). */
  save(input: Profile): StoredProfile {
    const profile = this.validated(input, `profile "${String((input as { name?: unknown }).name)}"`);
    return this.mutate('save the profile', () => {
      const existing = this.list().profiles.find((p) => sameProfileName(p.name, profile.name)) ?? fail(this.notFound(profile.name));
      writeFileAtomic(existing.file, serializeProfile(profile), this.ops);
      return { name: profile.name, file: existing.file, profile, migratedFrom: null };
    });
  }

  /** A copy of `source` (a stored profile or a preset) named `to`. */
  copy(source: Profile, to: string): StoredProfile {
    this.checkName(to, this.dir);
    const { applications: _bound, ...rest } = source;
    return this.create({ ...rest, name: to });
  }

  /**
   * New name, new file; the old file goes only after the new one is durable, so a crash in between
   * leaves both (a duplicate to delete), never neither.
   */
  rename(from: string, to: string): StoredProfile {
    this.checkName(to, this.dir);
    return this.mutate('rename the profile', () => {
      const listing = this.list();
      const existing = listing.profiles.find((p) => sameProfileName(p.name, from)) ?? fail(this.notFound(from));
      const clash = listing.profiles.find((p) => p !== existing && sameProfileName(p.name, to));
      if (clash) fail(strataError('profile/name-taken', `A profile named "${clash.name}" exists already`, { where: clash.file, fix: 'choose another name' }));
      const profile = { ...existing.profile, name: to };
      const renamed = this.writeNew(profile, listing, existing.file);
      if (renamed.file !== existing.file) unlinkDurable(existing.file, this.ops);
      return renamed;
    });
  }

  delete(name: string): StoredProfile {
    return this.mutate('delete the profile', () => {
      const existing = this.list().profiles.find((p) => sameProfileName(p.name, name)) ?? fail(this.notFound(name));
      unlinkDurable(existing.file, this.ops);
      return existing;
    });
  }
}
