import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { PRESET_NAMES } from '../../shared/profiles/presets';
import type { Profile } from '../../shared/profiles/profile-schema';
import { profilesImport } from '../../main/profiles/profile-service';
import { ProfileStore, profilesDir } from '../../main/profiles/profile-store';
import { APP_ROOT } from '../helpers/strata-cli';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * The profile store on real files (main/profiles/profile-store.ts): one file per profile in
 * $XDG_CONFIG_HOME/strata/profiles, names unique without regard to case, rename / copy / delete,
 * and broken files reported with file and field, never changed or removed.
 */
const BAD = join(APP_ROOT, 'tests', 'fixtures', 'profiles', 'bad');
const expected = JSON.parse(readFileSync(join(BAD, 'expected.json'), 'utf8')) as Record<string, { code: string; field: string }>;
const profile = (name: string, layer = 'VK_LAYER_KHRONOS_validation'): Profile => ({ schemaVersion: 2, name, layers: [{ name: layer, state: 'on' }] });

function withStore(fn: (store: ProfileStore, home: TempHome) => Promise<void> | void) {
  return async () => {
    const home = makeTempHome();
    try {
      await fn(new ProfileStore({ dir: profilesDir(home.env, home.dir), reservedNames: Object.values(PRESET_NAMES) }), home);
    } finally {
      home.cleanup();
    }
  };
}

/** name → sha256 of every file in the folder (the lock file included, if one were left). */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

function rejects(fn: () => unknown, code: string): StrataRequestError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StrataRequestError, String(e));
    assert.equal(e.error.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

test(
  'the profiles folder is $XDG_CONFIG_HOME/strata/profiles; one file per profile, named after it',
  withStore((store, home) => {
    assert.equal(store.dir, join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles'));
    assert.deepEqual(store.list(), { dir: store.dir, profiles: [], problems: [] }, 'no folder yet is an empty list');
    const a = store.create(profile('Sync checks'));
    assert.equal(a.file, join(store.dir, 'Sync-checks.json'));
    const b = store.create(profile('Sync/checks!'));
    assert.equal(b.file, join(store.dir, 'Sync-checks-2.json'), 'a second name with the same file stem gets its own file');
    assert.deepEqual(readdirSync(store.dir).sort(), ['Sync-checks-2.json', 'Sync-checks.json'], 'no lock or temp file is left behind');
    assert.deepEqual(
      store
        .list()
        .profiles.map((p) => p.name)
        .sort(),
      ['Sync checks', 'Sync/checks!'],
    );
  }),
);

test(
  'names are unique without regard to case; preset names are reserved; an invalid name says which field',
  withStore((store) => {
    store.create(profile('Mine'));
    const dup = rejects(() => store.create(profile('MINE')), 'profile/name-taken');
    assert.match(dup.message, /exists already/);
    rejects(() => store.create(profile('Validation — standard')), 'profile/name-taken');
    const bad = rejects(() => store.create({ ...profile('x'), name: ' padded ' }), 'profile/invalid');
    assert.match(bad.message, /^name: /);
    assert.equal(store.create(profile('MINE', 'VK_LAYER_OTHER'), { replace: true }).profile.layers[0]!.name, 'VK_LAYER_OTHER');
    assert.equal(store.list().profiles.length, 1);
  }),
);

test(
  'rename moves the profile to a file named after it; copy and delete; a missing profile is named in the error',
  withStore((store) => {
    const a = store.create(profile('Alpha'));
    store.create(profile('Beta'));
    const renamed = store.rename('alpha', 'Gamma');
    assert.equal(renamed.file, join(store.dir, 'Gamma.json'));
    assert.ok(!existsSync(a.file));
    assert.equal(JSON.parse(readFileSync(renamed.file, 'utf8')).name, 'Gamma');
    rejects(() => store.rename('Gamma', 'beta'), 'profile/name-taken');
    const copy = store.copy({ ...store.get('Beta').profile, applications: ['/usr/bin/vkcube'] }, 'Beta copy');
    assert.equal(copy.profile.applications, undefined, "a copy is not bound to the original's applications");
    store.delete('beta');
    assert.deepEqual(
      store
        .list()
        .profiles.map((p) => p.name)
        .sort(),
      ['Beta copy', 'Gamma'],
    );
    const missing = rejects(() => store.get('Delta'), 'profile/not-found');
    assert.match(missing.error.fix ?? '', /"Beta copy", "Gamma"/);
    // Renaming to a name with the same file stem keeps the file.
    assert.equal(store.rename('Gamma', 'gamma').file, renamed.file.replace('Gamma.json', 'gamma.json'));
  }),
);

test(
  `every file of the bad corpus in the profiles folder: reported with file and field, left byte for byte as it was; the good profile beside them still loads`,
  withStore((store) => {
    store.create(profile('Good one'));
    for (const f of Object.keys(expected)) copyFileSync(join(BAD, f), join(store.dir, f));
    // A huge file (over 1 MiB) and a second file claiming an existing name.
    writeFileSync(join(store.dir, 'huge.json'), `{"schemaVersion":2,"name":"Huge","layers":[],"description":"${'x'.repeat(2 << 20)}"}`);
    writeFileSync(join(store.dir, 'zz-duplicate.json'), JSON.stringify(profile('GOOD ONE')));
    const before = snapshot(store.dir);
    const listing = store.list();
    assert.deepEqual(
      listing.profiles.map((p) => p.name),
      ['Good one'],
    );
    for (const [f, want] of Object.entries(expected)) {
      const problem = listing.problems.find((p) => p.where?.startsWith(join(store.dir, f)));
      assert.ok(problem, `${f} is reported`);
      assert.equal(problem.code, want.code, f);
      if (want.field) assert.ok(problem.where!.endsWith(`field ${want.field}`), `${f}: ${problem.where}`);
      assert.match(problem.fix ?? '', /Strata leaves the file as it is/);
    }
    assert.equal(listing.problems.find((p) => p.where === join(store.dir, 'huge.json'))?.code, 'profile/too-large');
    assert.equal(listing.problems.find((p) => p.where?.startsWith(join(store.dir, 'zz-duplicate.json')))?.code, 'profile/duplicate-name');
    // Changes still work, and touch nothing but their own file.
    store.create(profile('Another'));
    store.delete('Another');
    assert.deepEqual(snapshot(store.dir), before);
  }),
);

test(
  'importing each broken file: a clear error, and nothing is written',
  withStore(async (store, home) => {
    store.create(profile('Existing'));
    const before = snapshot(store.dir);
    const o = { env: home.env, loaderVersion: async () => '1.3.239' };
    for (const [f, want] of Object.entries(expected)) {
      if (want.code === 'profile/is-override-layer') continue; // import converts those (profile-command.test.ts)
      await assert.rejects(
        profilesImport(o, { text: readFileSync(join(BAD, f), 'utf8'), source: f }),
        (e: unknown) => e instanceof StrataRequestError && e.error.code === want.code && (!want.field || e.error.where === `${f}, field ${want.field}`),
        f,
      );
    }
    assert.deepEqual(snapshot(store.dir), before);
  }),
);
