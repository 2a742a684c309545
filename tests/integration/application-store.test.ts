import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { applicationsFile, ApplicationStore } from '../../main/profiles/application-store';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { withTempHome } from '../helpers/temp-home';

/** main/profiles/application-store.ts on a temporary $XDG_CONFIG_HOME: the applications list and its bindings. */
const code = (e: unknown) => (e instanceof StrataRequestError ? e.error.code : String(e));

test(
  'applicationsFile is under $XDG_CONFIG_HOME/strata (else ~/.config); upsert adds or merges by path; remove needs a listed path',
  withTempHome((home) => {
    assert.equal(applicationsFile({}, '/home/u'), '/home/u/.config/strata/applications.json');
    const store = new ApplicationStore(applicationsFile(home.env, home.dir));
    assert.equal(store.file, join(home.dir, '.config', 'strata', 'applications.json'));
    assert.deepEqual(store.read().applications, []);
    store.upsert({ path: '/usr/bin/vkcube', label: 'cube' });
    store.upsert({ path: '/usr/bin/vkcube', profile: 'Sync' });
    store.upsert({ path: '/opt/game' });
    assert.deepEqual(store.find('/usr/bin/vkcube'), { path: '/usr/bin/vkcube', label: 'cube', profile: 'Sync' });
    assert.deepEqual(JSON.parse(readFileSync(store.file, 'utf8')).applications.length, 2);
    store.remove('/opt/game');
    assert.equal(store.find('/opt/game'), undefined);
    assert.throws(
      () => store.remove('/opt/game'),
      (e) => code(e) === 'applications/not-found',
    );
    assert.throws(() => store.upsert({ path: 'relative/app' }), 'only full paths');
    assert.equal(store.read().applications.length, 1, 'a refused change changes nothing');
  }),
);

test(
  'a file that does not read is reported with its field and never overwritten',
  withTempHome((home) => {
    const file = applicationsFile(home.env, home.dir);
    mkdirSync(join(file, '..'), { recursive: true });
    const broken = JSON.stringify({ schemaVersion: 1, applications: [{ path: '/a' }, { path: '/a' }] });
    writeFileSync(file, broken);
    const store = new ApplicationStore(file);
    assert.throws(
      () => store.read(),
      (e: unknown) =>
        e instanceof StrataRequestError && e.error.code === 'applications/invalid' && /applications\[1\]\.path/.test(`${e.error.message} ${e.error.where}`),
    );
    assert.throws(
      () => store.upsert({ path: '/b' }),
      (e) => code(e) === 'applications/invalid',
    );
    assert.equal(readFileSync(file, 'utf8'), broken, 'untouched');
    writeFileSync(file, '{ nope');
    assert.throws(
      () => store.read(),
      (e) => code(e) === 'applications/invalid',
    );
  }),
);
