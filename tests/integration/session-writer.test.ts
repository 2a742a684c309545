import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionWriter } from '../../main/sessions/session-writer';
import { readEnds, scanSession } from '../../main/sessions/session-store';
import { sessionFooter, sessionHeader } from '../helpers/session-files';

/**
 * main/sessions/session-writer.ts: a session file is created, never replaced, private to the user
 * (0600 in a 0700 folder), starts with its header, takes whole records in one write each, and ends
 * with the footer; after that it takes nothing more. What it wrote reads back through the store.
 */
function withDir(fn: (dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-session-writer-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'create → append → finish: header, records and footer read back; modes 0600 and 0700; bytes counted',
  withDir(async (dir) => {
    const file = join(dir, 'sessions', 'w.jsonl');
    const header = sessionHeader('w');
    const writer = SessionWriter.create(file, header, 0);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'sessions')).mode & 0o777, 0o700);
    const headerBytes = Buffer.byteLength(`${JSON.stringify(header)}\n`);
    assert.equal(writer.bytesWritten, headerBytes);
    // The header is on disk at once: a session whose application never writes is still listed.
    assert.equal(readEnds(file).header.id, 'w');

    const records = Buffer.from(`${JSON.stringify({ kind: 'line', stream: 'stdout', t: 1, wall: 1, text: 'é' })}\nNOT PART OF IT`);
    const wholeLines = records.indexOf('\n') + 1;
    writer.appendBytes(records, wholeLines);
    assert.equal(writer.bytesWritten, headerBytes + wholeLines);
    await writer.finish(sessionFooter());

    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /NOT PART OF IT/, 'only `length` bytes of the buffer are written');
    const seen: string[] = [];
    const scan = await scanSession(file, (r) => seen.push(r.kind === 'line' ? r.text : r.vuid));
    assert.deepEqual(seen, ['é']);
    assert.equal(scan.footer?.durationMs, 1000);
    assert.deepEqual([scan.torn, scan.damaged], [false, 0]);

    assert.throws(() => writer.appendBytes(Buffer.from('x\n'), 2), /session file .* is closed/);
    await writer.finish(sessionFooter({ durationMs: 5 }));
    assert.equal(readFileSync(file, 'utf8'), text, 'a second finish writes nothing');
  }),
);

test(
  'create never replaces an existing file (the service retries with another id on EEXIST)',
  withDir(async (dir) => {
    const file = join(dir, 'taken.jsonl');
    writeFileSync(file, 'someone else\n');
    assert.throws(
      () => SessionWriter.create(file, sessionHeader('taken')),
      (e) => (e as NodeJS.ErrnoException).code === 'EEXIST',
    );
    assert.equal(readFileSync(file, 'utf8'), 'someone else\n');
  }),
);

test(
  'the periodic sync runs while records arrive and finish waits for it (no write to a closed descriptor)',
  withDir(async (dir) => {
    const file = join(dir, 's.jsonl');
    const writer = SessionWriter.create(file, sessionHeader('s'), 5);
    const line = Buffer.from(`${JSON.stringify({ kind: 'line', stream: 'stderr', t: 1, wall: 1, text: 'x' })}\n`);
    for (let i = 0; i < 20; i++) {
      writer.appendBytes(line, line.length);
      await new Promise((r) => setTimeout(r, 2));
    }
    await writer.finish(sessionFooter());
    let n = 0;
    const scan = await scanSession(file, () => n++);
    assert.equal(n, 20);
    assert.notEqual(scan.footer, null);
  }),
);
