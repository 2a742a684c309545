import { join } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import type { Environment } from '../../shared/loader/xdg-directories';
import { ApplicationsFileSchema, EMPTY_APPLICATIONS, type Application, type ApplicationsFile } from '../../shared/profiles/application-list';
import { parseProfileJson } from '../../shared/profiles/profile-document';
import { invalidProfileError, issuesOf } from '../../shared/profiles/profile-schema';
import { asStrataFailure, readIfExists, realFileOps, writeFileAtomic, type FileOps } from '../platform/atomic-file';
import { withLock } from '../platform/file-lock';
import { strataUserDirs } from '../platform/user-dirs';

/**
 * $XDG_CONFIG_HOME/strata/applications.json (on Windows %APPDATA%\Strata\applications.json:
 * main/platform/user-dirs.ts): the applications and their bound profiles, written
 * atomically under a lock. A file that does not read is reported (file and field) and never
 * overwritten: every change is refused until it is fixed or moved away.
 */
export function applicationsFile(env: Environment, home: string): string {
  return join(strataUserDirs(env, home).config, 'applications.json');
}

export class ApplicationStore {
  constructor(
    readonly file: string,
    private readonly ops: FileOps = realFileOps,
  ) {}

  read(): ApplicationsFile {
    const bytes = asStrataFailure('read the applications list', this.file, () => readIfExists(this.file, this.ops));
    if (!bytes) return EMPTY_APPLICATIONS;
    const json = parseProfileJson(bytes.toString('utf8'), this.file);
    if (!json.ok)
      throw serviceError({
        ...json.error,
        code: 'applications/invalid',
        fix: `${json.error.fix ?? 'correct it'}; Strata changes nothing in it until then`,
      });
    const parsed = ApplicationsFileSchema.safeParse(json.value);
    if (!parsed.success)
      throw serviceError({
        ...invalidProfileError(issuesOf(parsed.error), this.file, 'correct the field; Strata changes nothing in the file until then'),
        code: 'applications/invalid',
      });
    return parsed.data;
  }

  /** Read, change, write, under the lock; `change` returns the new list (or throws to change nothing). */
  update(change: (current: ApplicationsFile) => ApplicationsFile): ApplicationsFile {
    const dir = join(this.file, '..');
    return asStrataFailure('save the applications list', dir, () => {
      this.ops.mkdirSync(dir, { recursive: true });
      return withLock(
        `${this.file}.lock`,
        () => {
          const next = ApplicationsFileSchema.parse(change(this.read()));
          writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`, this.ops);
          return next;
        },
        { ops: this.ops },
      );
    });
  }

  find(path: string): Application | undefined {
    return this.read().applications.find((a) => a.path === path);
  }

  /** Add or change one application (by path); fields given replace those stored. */
  upsert(app: Application): ApplicationsFile {
    return this.update((f) => {
      const i = f.applications.findIndex((a) => a.path === app.path);
      const applications = [...f.applications];
      if (i < 0) applications.push(app);
      else applications[i] = { ...applications[i]!, ...app };
      return { ...f, applications };
    });
  }

  remove(path: string): ApplicationsFile {
    return this.update((f) => {
      if (!f.applications.some((a) => a.path === path))
        throw serviceError('applications/not-found', `${path} is not in Strata's applications list`, {
          where: this.file,
          fix: '`strata profile list --json` shows the bound applications',
        });
      return { ...f, applications: f.applications.filter((a) => a.path !== path) };
    });
  }
}
