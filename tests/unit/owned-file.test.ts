import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { applyOwned, ownedStatus, removeOwned } from '../../main/platform/owned-files/owned-file';
import type { OwnedLocation } from '../../main/platform/owned-files/owned-location';
import { sha256 } from '../../main/platform/owned-files/owned-record';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * The one writer of files Strata owns (main/platform/owned-files/), on a real file system in a
 * throwaway HOME: a file Strata did not write is refused unless forced, a record Strata cannot trust
 * is refused (never taken as "no record"), and surrender gives back the pre-Strata bytes or link.
 */
function location(home: TempHome, extra: Partial<OwnedLocation> = {}): OwnedLocation {
  const dir = join(home.dir, 'owned');
  const stateDir = join(home.dir, 'state');
  return {
    dir,
    file: join(dir, 'thing.json'),
    stateDir,
    recordFile: join(stateDir, 'thing-record.json'),
    originalFile: join(stateDir, 'thing-original.json'),
    previousFile: join(stateDir, 'thing-previous.json'),
    lockFile: join(stateDir, 'thing.lock'),
    label: 'thing',
    ...extra,
  };
}

const refusedWith = (code: string) => (e: unknown) => e instanceof StrataRequestError && e.error.code === code;
const ACTION = 'write the thing';

test(
  'a file Strata did not write is refused with a diff, untouched; --force replaces it, keeps it, and surrender restores it byte for byte',
  withTempHome((home) => {
    const loc = location(home);
    mkdirSync(loc.dir, { recursive: true });
    const theirs = Buffer.from('{"theirs": true}\r\n\u00e9');
    writeFileSync(loc.file, theirs);
    assert.equal(ownedStatus(loc).ownership, 'foreign');
    assert.throws(
      () => applyOwned(loc, '{"ours": 1}\n', ACTION),
      (e: unknown) =>
        refusedWith('override/not-strata-file')(e) &&
        /was not written by Strata \(another tool's or a person's thing\)/.test((e as StrataRequestError).error.message) &&
        /\+\{"ours": 1\}/.test((e as StrataRequestError).error.fix ?? ''),
    );
    assert.deepEqual(readFileSync(loc.file), theirs, 'refused: the file is as it was');
    assert.ok(!existsSync(loc.recordFile), 'refused: no record written');

    const r = applyOwned(loc, '{"ours": 1}\n', ACTION, { force: true });
    assert.equal(r.action, 'replaced');
    assert.equal(r.before, 'foreign');
    assert.equal(r.originalBackup, loc.originalFile);
    assert.equal(readFileSync(loc.file, 'utf8'), '{"ours": 1}\n');
    assert.equal(ownedStatus(loc).ownership, 'strata');
    assert.equal(applyOwned(loc, '{"ours": 2}\n', ACTION).action, 'replaced', 'its own file needs no force');

    assert.equal(removeOwned(loc, 'remove the thing').action, 'restored');
    assert.deepEqual(readFileSync(loc.file), theirs);
    assert.ok(!existsSync(loc.recordFile) && !existsSync(loc.originalFile), 'no bookkeeping left after surrender');
    assert.equal(ownedStatus(loc).ownership, 'foreign', 'the restored file is theirs again');
  }),
);

test(
  "a caller's own refusal code and surrender command are what the refusal says",
  withTempHome((home) => {
    const loc = location(home, { refusalCode: 'profile/foreign-override', surrenderCommand: '`strata profile unbind`' });
    mkdirSync(loc.dir, { recursive: true });
    writeFileSync(loc.file, 'x');
    assert.throws(
      () => applyOwned(loc, 'y', ACTION),
      (e: unknown) => refusedWith('profile/foreign-override')(e) && /`strata profile unbind` puts it back/.test((e as StrataRequestError).error.fix ?? ''),
    );
  }),
);

test(
  'a file changed since Strata wrote it is refused for replace and surrender; --force surrenders with a copy kept',
  withTempHome((home) => {
    const loc = location(home);
    applyOwned(loc, 'mine\n', ACTION);
    writeFileSync(loc.file, 'edited by hand\n');
    assert.equal(ownedStatus(loc).ownership, 'modified');
    assert.match(ownedStatus(loc).diff ?? '', /\+edited by hand/);
    assert.throws(() => applyOwned(loc, 'mine again\n', ACTION), refusedWith('override/not-strata-file'));
    assert.throws(() => removeOwned(loc, 'remove the thing'), refusedWith('override/not-strata-file'));
    assert.equal(readFileSync(loc.file, 'utf8'), 'edited by hand\n');
    const r = removeOwned(loc, 'remove the thing', { force: true });
    assert.equal(r.action, 'deleted');
    assert.equal(r.backup, loc.previousFile);
    assert.equal(readFileSync(loc.previousFile, 'utf8'), 'edited by hand\n');
    assert.ok(!existsSync(loc.file));
  }),
);

test(
  'an unreadable record is refused, never taken as "nothing of Strata\'s": neither write nor surrender touches the file',
  withTempHome((home) => {
    const loc = location(home);
    applyOwned(loc, 'mine\n', ACTION);
    for (const garbage of ['{not json', '{"version": 2}', '[]', '']) {
      writeFileSync(loc.recordFile, garbage);
      assert.throws(() => ownedStatus(loc), refusedWith('override/record-unreadable'), `record ${JSON.stringify(garbage)}`);
      assert.throws(() => applyOwned(loc, 'other\n', ACTION), refusedWith('override/record-unreadable'));
      assert.throws(() => applyOwned(loc, 'other\n', ACTION, { force: true }), refusedWith('override/record-unreadable'));
      assert.throws(() => removeOwned(loc, 'remove the thing'), refusedWith('override/record-unreadable'));
      assert.equal(readFileSync(loc.file, 'utf8'), 'mine\n');
    }
  }),
);

test(
  "a tampered record (naming another file, or another backup with that file's hash) is refused: the named file is neither copied nor deleted",
  withTempHome((home) => {
    const loc = location(home);
    mkdirSync(loc.dir, { recursive: true });
    writeFileSync(loc.file, 'before Strata\n');
    applyOwned(loc, 'mine\n', ACTION, { force: true });
    const secret = join(home.dir, 'secret.txt');
    writeFileSync(secret, 'private\n');
    const record = JSON.parse(readFileSync(loc.recordFile, 'utf8')) as Record<string, unknown>;
    const tampered = [
      { ...record, original: { sha256: sha256(readFileSync(secret)), backup: secret } },
      { ...record, path: secret, sha256: sha256(readFileSync(secret)) },
    ];
    for (const t of tampered) {
      writeFileSync(loc.recordFile, JSON.stringify(t));
      assert.throws(() => removeOwned(loc, 'remove the thing'), refusedWith('override/record-unreadable'));
      assert.throws(() => applyOwned(loc, 'other\n', ACTION, { force: true }), refusedWith('override/record-unreadable'));
      assert.equal(readFileSync(secret, 'utf8'), 'private\n');
      assert.equal(readFileSync(loc.file, 'utf8'), 'mine\n');
    }
  }),
);

test(
  'a symbolic link in the way: its target is never written, and surrender puts the link back (a dangling one too)',
  withTempHome((home) => {
    const loc = location(home);
    mkdirSync(loc.dir, { recursive: true });
    const target = join(home.dir, 'elsewhere.json');
    writeFileSync(target, 'their target\n');
    symlinkSync(target, loc.file);
    assert.equal(ownedStatus(loc).ownership, 'foreign');
    assert.throws(() => applyOwned(loc, 'mine\n', ACTION), refusedWith('override/not-strata-file'));
    applyOwned(loc, 'mine\n', ACTION, { force: true });
    assert.ok(!lstatSync(loc.file).isSymbolicLink(), 'the link is replaced by a file');
    assert.equal(readFileSync(target, 'utf8'), 'their target\n', 'the target is untouched');
    assert.equal(removeOwned(loc, 'remove the thing').action, 'restored');
    assert.ok(lstatSync(loc.file).isSymbolicLink());
    assert.equal(readlinkSync(loc.file), target);

    const dangling = location(home, {
      file: join(loc.dir, 'dangling.json'),
      recordFile: join(loc.stateDir, 'd-record.json'),
      originalFile: join(loc.stateDir, 'd-original'),
    });
    symlinkSync(join(home.dir, 'not-there.json'), dangling.file);
    assert.equal(ownedStatus(dangling).ownership, 'foreign', "a dangling link is someone's, not an empty place");
    assert.throws(
      () => applyOwned(dangling, 'mine\n', ACTION),
      (e: unknown) => refusedWith('override/not-strata-file')(e) && /does not exist/.test((e as StrataRequestError).error.message),
    );
    applyOwned(dangling, 'mine\n', ACTION, { force: true });
    removeOwned(dangling, 'remove the thing');
    assert.equal(readlinkSync(dangling.file), join(home.dir, 'not-there.json'));
    assert.ok(!existsSync(join(home.dir, 'not-there.json')), 'the dangling target is not created');
  }),
);

test(
  "no file and no record: surrender says so and creates nothing of Strata's",
  withTempHome((home) => {
    const loc = location(home);
    const r = removeOwned(loc, 'remove the thing');
    assert.equal(r.action, 'nothing');
    assert.match(r.reason ?? '', /there is no thing at/);
    assert.ok(!existsSync(loc.stateDir));
  }),
);
