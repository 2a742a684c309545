import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFileOps } from '../../main/platform/atomic-file';
import { rollBack, snapshot, truthAfterFault, type OwnedFile } from '../../main/platform/owned-files/fault-truth';
import { StrataRequestError } from '../../shared/errors/strata-error';

/**
 * main/platform/owned-files/fault-truth.ts on real files: after a fault half-way through a change of
 * two files, the first (written) is put back when the second (failed) is unchanged, and the message
 * names exactly what is on disk. override-faults.test.ts injects the faults into the real writers.
 */
const root = mkdtempSync(join(tmpdir(), 'strata-fault-truth-'));
after(() => rmSync(root, { recursive: true, force: true }));

function location(name: string, label: string): OwnedFile {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return {
    file: join(dir, 'file'),
    recordFile: join(dir, 'record.json'),
    originalFile: join(dir, 'original'),
    label,
    surrenderCommand: '`strata override remove`',
  };
}
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });

test('rollBack puts file, record and backup back as the snapshot found them (absent ones removed)', () => {
  const loc = location('rb', 'override');
  writeFileSync(loc.file, 'user text');
  const before = snapshot(loc, realFileOps);
  writeFileSync(loc.file, 'strata text');
  writeFileSync(loc.recordFile, '{"sha256":"x"}');
  writeFileSync(loc.originalFile, 'user text');
  rollBack(before, realFileOps);
  assert.equal(readFileSync(loc.file, 'utf8'), 'user text');
  assert.equal(existsSync(loc.recordFile), false);
  assert.equal(existsSync(loc.originalFile), false);
});

test('a fault at the second file: the first is put back, and the message says so; nothing changed: says that', () => {
  const settings = location('settings', 'layer settings file');
  const override = location('override', 'override');
  writeFileSync(settings.file, 'old settings');
  const snaps = [snapshot(settings, realFileOps), snapshot(override, realFileOps)];
  writeFileSync(settings.file, 'new settings');
  const told = truthAfterFault(enospc(), 'apply the configuration', root, snaps, realFileOps);
  assert.ok(told instanceof StrataRequestError);
  assert.equal(told.error.code, 'override/no-space');
  assert.equal(
    told.error.message,
    'Cannot apply the configuration: no space left on the device (or quota exceeded); the layer settings file was already written and has been put back as it was; the override file is as it was',
  );
  assert.equal(readFileSync(settings.file, 'utf8'), 'old settings');
  assert.equal(truthAfterFault(told, 'again', root, snaps, realFileOps), told, 'told once');
});

test('a single file whose write got through stays, and is named as changed; a crash (not a fault) is passed on', () => {
  const only = location('only', 'override');
  const snaps = [snapshot(only, realFileOps)];
  writeFileSync(only.file, 'written');
  const told = truthAfterFault(enospc(), 'write the override', root, snaps, realFileOps) as StrataRequestError;
  assert.match(told.error.message, /the override file .*\/only\/file WAS changed; Strata's record vouches for it, so `strata override remove` still restores/);
  assert.equal(readFileSync(only.file, 'utf8'), 'written');
  const crash = Object.assign(new Error('simulated crash'), { code: 'EIO', crash: true });
  assert.equal(truthAfterFault(crash, 'x', root, snaps, realFileOps), crash);
  assert.equal(truthAfterFault(enospc(), 'x', root, [], realFileOps) instanceof StrataRequestError, false, 'nothing read yet: passed on');
});
