import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { loaderSettingsPath } from '../../shared/profiles/loader-settings';
import { appFileOwnership, appOverrideLocation, ownedFileLocation, syncBindings } from '../../main/profiles/app-override-writer';
import { sha256 } from '../../main/platform/owned-files/owned-record';
import { withTempHome } from '../helpers/temp-home';

/**
 * The per-application files' record (main/profiles/app-override-writer.ts): one record per file in the
 * owned-file format, and the shared record Strata 0.1.0 wrote ($XDG_STATE_HOME/strata/app-overrides.json)
 * still read, migrated by the next write, and refused when it does not read (it used to count as
 * "no file is Strata's").
 */
const LOADER = '1.4.341';

test(
  "the 0.1.0 record is still read: a file whose hash it names is Strata's, a changed one is modified, an unnamed one another tool's",
  withTempHome((home) => {
    const loc = appOverrideLocation(home.env, home.dir);
    mkdirSync(loc.dir, { recursive: true });
    mkdirSync(loc.stateDir, { recursive: true });
    const ours = join(loc.dir, 'strata-app-override-one.json');
    const changed = join(loc.dir, 'strata-app-override-two.json');
    const other = join(loc.dir, 'strata-app-override-three.json');
    const settings = loaderSettingsPath(home.dir, LOADER, home.env);
    for (const f of [ours, changed, other]) writeFileSync(f, `{"file": "${f}"}`);
    mkdirSync(join(settings, '..'), { recursive: true });
    writeFileSync(settings, '{"settings": 1}');
    writeFileSync(
      loc.legacyRecordFile,
      JSON.stringify({
        files: {
          'strata-app-override-one.json': sha256(readFileSync(ours)),
          'strata-app-override-two.json': sha256('before'),
          [settings]: sha256('{"settings": 1}'),
        },
      }),
    );
    assert.equal(appFileOwnership(home.env, home.dir, ours), 'strata');
    assert.equal(appFileOwnership(home.env, home.dir, changed), 'modified');
    assert.equal(appFileOwnership(home.env, home.dir, other), 'foreign');
    assert.equal(appFileOwnership(home.env, home.dir, settings), 'strata');
  }),
);

test(
  'an unreadable 0.1.0 record, or a damaged per-file record, is refused (override/record-unreadable), not read as "nothing is Strata\'s"',
  withTempHome(async (home) => {
    const loc = appOverrideLocation(home.env, home.dir);
    mkdirSync(loc.stateDir, { recursive: true });
    const settings = loaderSettingsPath(home.dir, LOADER, home.env);
    mkdirSync(join(settings, '..'), { recursive: true });
    writeFileSync(settings, '{"settings": 1}');
    const unreadable = (e: unknown) => e instanceof StrataRequestError && e.error.code === 'override/record-unreadable';
    for (const garbage of ['{"files": ', '{"files": {"a": 1}}', '"files"']) {
      writeFileSync(loc.legacyRecordFile, garbage);
      assert.throws(() => appFileOwnership(home.env, home.dir, settings), unreadable, garbage);
      await assert.rejects(syncBindings({ env: home.env, home: home.dir, loaderVersion: LOADER, groups: [] }), unreadable, garbage);
      assert.ok(existsSync(settings), 'the file is left alone');
    }
    writeFileSync(loc.legacyRecordFile, '{"files": {}}');
    const file = ownedFileLocation(loc, settings);
    mkdirSync(join(file.recordFile, '..'), { recursive: true });
    writeFileSync(file.recordFile, '{"version": 1, "path": "/etc/passwd"');
    assert.throws(() => appFileOwnership(home.env, home.dir, settings), unreadable);
  }),
);

test(
  'the next write migrates the 0.1.0 record into per-file records and deletes it; surrender then removes only what Strata wrote',
  withTempHome(async (home) => {
    const loc = appOverrideLocation(home.env, home.dir);
    mkdirSync(loc.stateDir, { recursive: true });
    const settings = loaderSettingsPath(home.dir, LOADER, home.env);
    mkdirSync(join(settings, '..'), { recursive: true });
    writeFileSync(settings, '{"settings": "by Strata 0.1.0"}');
    writeFileSync(loc.legacyRecordFile, JSON.stringify({ files: { [settings]: sha256('{"settings": "by Strata 0.1.0"}'), '../../escape.json': sha256('x') } }));
    const r = await syncBindings({ env: home.env, home: home.dir, loaderVersion: LOADER, groups: [] });
    assert.deepEqual(r.removed, [settings]);
    assert.ok(!existsSync(settings));
    assert.ok(!existsSync(loc.legacyRecordFile), 'the old record is gone');
    assert.ok(!existsSync(ownedFileLocation(loc, settings).recordFile), "surrender removed the file's own record too");

    // A file of another tool at that place stays.
    writeFileSync(settings, '{"settings": "vkconfig"}');
    const again = await syncBindings({ env: home.env, home: home.dir, loaderVersion: LOADER, groups: [] });
    assert.deepEqual(again.removed, []);
    assert.equal(readFileSync(settings, 'utf8'), '{"settings": "vkconfig"}');
  }),
);
