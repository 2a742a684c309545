import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSessions } from '../../main/sessions/session-store';
import { exportSession, HTML_LINE_LIMIT, MAX_EXPORT_BYTES } from '../../main/sessions/session-export';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { lineRecord, messageRecord, sessionFooter, sessionHeader, writeSession } from '../helpers/session-files';

/**
 * main/sessions/session-export.ts: a session as one JSON document or one HTML report. Issue #15:
 * session files are validated against their schema on read. The two fields the export once
 * interpolated unescaped (a line's `stream`, a chain entry's `type`) carry markup here: the header is
 * refused as not a session header, a tampered record counts as damaged and never reaches the export,
 * and what does reach it is escaped. The limits: a file too big to build in memory is refused before
 * it is read; the HTML report keeps every message but caps the output lines and says how many it left out.
 */
function withDir(fn: (dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-session-export-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const XSS = '<script>alert(1)</script>';

test(
  'a tampered header is refused on read; a tampered record is damaged, not exported; the rest is escaped',
  withDir(async (dir) => {
    const chain = {
      loaderVersion: '1.3.239',
      rulesVersion: '1.3.239',
      rules: [],
      result: 'VK_SUCCESS',
      chain: [{ name: 'L', type: XSS, manifest: '/m', libraryPath: null, reasons: [] }],
      metaLayers: [],
      excluded: [],
      notes: [],
    };
    writeSession(dir, 'bad-header', [{ ...sessionHeader('bad-header'), chain }]);
    writeSession(dir, 'good', [
      sessionHeader('good', { notes: [XSS] }),
      { ...lineRecord('tampered stream'), stream: XSS },
      lineRecord(`fine ${XSS}`, 'stdout', 2),
    ]);

    const list = listSessions({ dir });
    assert.deepEqual(
      list.sessions.map((s) => s.id),
      ['good'],
    );
    assert.equal(list.unreadable.length, 1);
    assert.match(list.unreadable[0]!.reason, /not a valid session header \(chain(\.chain\.0\.type)?: /);
    await assert.rejects(exportSession({ dir }, 'bad-header', 'html'), (e) => e instanceof StrataRequestError && e.error.code === 'sessions/unreadable');

    const exported = await exportSession({ dir }, 'good', 'html');
    assert.equal(exported.fileName, 'good.html');
    assert.equal(exported.mediaType, 'text/html');
    assert.doesNotMatch(exported.text, /<script/);
    assert.doesNotMatch(exported.text, /tampered stream/, 'the record with a bad stream is not in the export');
    assert.match(exported.text, /fine &lt;script&gt;/);
    const json = JSON.parse((await exportSession({ dir }, 'good', 'json')).text) as { records: unknown[] };
    assert.equal(json.records.length, 1);
  }),
);

test(
  'JSON: the whole session as one document, records numbered, counts from the records and bytes from the footer, a torn end said',
  withDir(async (dir) => {
    writeSession(dir, 'j', [sessionHeader('j'), lineRecord('a'), messageRecord('VUID-a-b-01'), lineRecord('b', 'stderr'), sessionFooter()]);
    const out = await exportSession({ dir }, 'j', 'json');
    assert.deepEqual([out.fileName, out.mediaType], ['j.json', 'application/json']);
    const doc = JSON.parse(out.text) as {
      format: string;
      header: { id: string };
      footer: unknown;
      torn: boolean;
      counts: { lines: Record<string, number>; bytes: Record<string, number>; messages: Record<string, number> };
      records: { kind: string; seq: number }[];
    };
    assert.equal(doc.format, 'strata-session-export/1');
    assert.equal(doc.header.id, 'j');
    assert.notEqual(doc.footer, null);
    assert.equal(doc.torn, false);
    assert.deepEqual(
      doc.records.map((r) => [r.kind, r.seq]),
      [
        ['line', 1],
        ['message', 2],
        ['line', 3],
      ],
    );
    assert.deepEqual(doc.counts.lines, { stdout: 1, stderr: 1, validation: 0 });
    assert.equal(doc.counts.messages.error, 1);
    assert.equal(doc.counts.bytes.stdout, 123);

    writeSession(dir, 't', [sessionHeader('t'), lineRecord('a'), '{"kind":"line","str'], false);
    const torn = JSON.parse((await exportSession({ dir }, 't', 'json')).text) as { torn: boolean; footer: unknown; records: unknown[] };
    assert.deepEqual([torn.torn, torn.footer, torn.records.length], [true, null, 1]);
  }),
);

test(
  `HTML: every validation message, the first ${HTML_LINE_LIMIT} output lines, and how many more are in the file`,
  withDir(async (dir) => {
    const lines = Array.from({ length: HTML_LINE_LIMIT + 7 }, (_, i) => lineRecord(`output-${i}`));
    writeSession(dir, 'h', [sessionHeader('h'), ...lines, messageRecord('VUID-late-message-01'), sessionFooter()]);
    const html = (await exportSession({ dir }, 'h', 'html')).text;
    assert.match(html, /VUID-late-message-01/);
    assert.match(html, new RegExp(`output-${HTML_LINE_LIMIT - 1}<`));
    assert.doesNotMatch(html, new RegExp(`output-${HTML_LINE_LIMIT}<`));
    assert.match(html, /7 more lines are in the session file/);
  }),
);

test(
  'a session file over the export limit is refused with its size and the fix, before it is read',
  withDir(async (dir) => {
    const file = writeSession(dir, 'big', [sessionHeader('big')]);
    // Sparse: the size is what counts, no disk is used.
    const fd = openSync(file, 'r+');
    try {
      ftruncateSync(fd, MAX_EXPORT_BYTES + 1);
      writeSync(fd, '\n', MAX_EXPORT_BYTES);
    } finally {
      closeSync(fd);
    }
    await assert.rejects(exportSession({ dir }, 'big', 'json'), (e) => {
      assert.ok(e instanceof StrataRequestError);
      assert.equal(e.error.code, 'sessions/too-large');
      assert.match(e.error.message, /Session big is 268 MB/);
      assert.equal(e.error.where, file);
      assert.match(e.error.fix ?? '', /share the session file itself/);
      return true;
    });
    await assert.rejects(exportSession({ dir }, 'nope', 'json'), (e) => e instanceof StrataRequestError && e.error.code === 'sessions/not-found');
  }),
);
