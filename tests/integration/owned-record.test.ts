import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFileOps } from '../../main/platform/atomic-file';
import type { OwnedLocation } from '../../main/platform/owned-files/owned-location';
import { emptyRecord, labelOf, readOwnedRecord, sha256, writeOwnedRecord } from '../../main/platform/owned-files/owned-record';
import { StrataRequestError } from '../../shared/errors/strata-error';

/**
 * main/platform/owned-files/owned-record.ts on real files: the one record format of every file Strata
 * owns, accepted only when it names Strata's own paths (a record naming another backup would make
 * surrender copy that file into the loader's folder). owned-file.test.ts runs the writer on top.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-owned-record-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const loc: OwnedLocation = {
  dir,
  file: join(dir, 'VkLayer_override.json'),
  stateDir: dir,
  recordFile: join(dir, 'override-record.json'),
  originalFile: join(dir, 'override-original.json'),
  previousFile: join(dir, 'override-previous.json'),
  lockFile: join(dir, 'lock'),
  label: 'layer settings file',
};

test('sha256 is the hex digest; labelOf defaults to "override"', () => {
  assert.equal(sha256('abc'), createHash('sha256').update('abc').digest('hex'));
  assert.equal(sha256(Buffer.from('abc')), sha256('abc'));
  assert.equal(labelOf({}), 'override');
  assert.equal(labelOf(loc), 'layer settings file');
});

test('written, then read back; none: null (or the legacy record the location provides)', () => {
  rmSync(loc.recordFile, { force: true });
  assert.equal(readOwnedRecord(loc, realFileOps), null);
  const legacy = { ...emptyRecord(loc), sha256: 'x' };
  assert.equal(readOwnedRecord({ ...loc, legacyRecord: () => legacy }, realFileOps), legacy);
  const record = {
    ...emptyRecord(loc),
    sha256: sha256('t'),
    text: 't',
    writtenAt: '2024-01-01T00:00:00.000Z',
    original: { sha256: sha256('u'), backup: loc.originalFile },
  };
  writeOwnedRecord(loc, record, realFileOps);
  assert.deepEqual(readOwnedRecord(loc, realFileOps), record);
});

test('a damaged record, or one naming another file or another backup, is refused, never ignored', () => {
  const refused = (text: string) =>
    assert.throws(
      () => {
        writeFileSync(loc.recordFile, text);
        readOwnedRecord(loc, realFileOps);
      },
      (e: unknown) =>
        e instanceof StrataRequestError &&
        e.error.code === 'override/record-unreadable' &&
        e.error.where === loc.recordFile &&
        /layer settings file/.test(e.error.message),
    );
  refused('{ not json');
  refused(JSON.stringify({ ...emptyRecord(loc), version: 2 }));
  refused(JSON.stringify({ ...emptyRecord(loc), path: '/etc/passwd' }));
  refused(JSON.stringify({ ...emptyRecord(loc), original: { sha256: 'x', backup: '/home/u/.ssh/id_rsa' } }));
});
