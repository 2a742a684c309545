import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { promises as fsPromises } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessAsync, opendirAsync, readdirEntriesAsync, realpathAsync, statAsync } from '../../main/platform/fs-async';

/**
 * main/platform/fs-async.ts: node:fs's callback forms promised, answering as node:fs/promises does
 * (that the CLI then loads no node:fs/promises: tests/integration/cli-startup.test.ts).
 */

test('the promised callback forms answer as node:fs/promises does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-fs-async-'));
  try {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'a.json'), '{}');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const names: string[] = [];
    for await (const d of await opendirAsync(join(dir, 'real'), { bufferSize: 1024 })) names.push(d.name);
    assert.deepEqual(names, ['a.json']);
    assert.equal(await realpathAsync(join(dir, 'link', 'a.json')), await fsPromises.realpath(join(dir, 'link', 'a.json')));
    await accessAsync(join(dir, 'real', 'a.json'));
    await assert.rejects(accessAsync(join(dir, 'missing')), { code: 'ENOENT' });
    await assert.rejects(realpathAsync(join(dir, 'missing')), { code: 'ENOENT' });
    const entries = await readdirEntriesAsync(dir, { withFileTypes: true });
    assert.deepEqual(entries.map((e) => [e.name, e.isDirectory(), e.isSymbolicLink()]).sort(), [
      ['link', false, true],
      ['real', true, false],
    ]);
    assert.equal((await statAsync(join(dir, 'link'))).isDirectory(), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
