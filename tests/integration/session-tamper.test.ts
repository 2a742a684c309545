import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSessions } from '../../main/sessions/session-store';
import { exportSession } from '../../main/sessions/session-export';
import { SESSION_FORMAT } from '../../shared/sessions/session-records';

/**
 * Issue #15: session files are validated against their schema on read. The two fields the export
 * once interpolated unescaped (a line's `stream`, a chain entry's `type`) carry markup here: the
 * header is refused as not a session header, a tampered record counts as damaged and never reaches
 * the export, and what does reach it is escaped.
 */
const header = (overrides: Record<string, unknown> = {}) => ({
  kind: 'header',
  format: SESSION_FORMAT,
  id: 'x',
  application: { command: '/bin/app', args: [], cwd: '/tmp', resolvedPath: '/bin/app' },
  profile: null,
  chain: null,
  chainError: null,
  environment: { set: {}, unset: [], inherited: {} },
  loaderDebug: null,
  validationRouting: { mode: 'off', note: null },
  timeoutMs: null,
  startedAt: '2024-01-01T00:00:00.000Z',
  startWall: 1,
  strataVersion: '0.1.0',
  strataPid: 999999,
  notes: [],
  ...overrides,
});
const XSS = '<script>alert(1)</script>';

test('a tampered header is refused on read; a tampered record is damaged, not exported; the rest is escaped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-sessions-'));
  try {
    mkdirSync(dir, { recursive: true });
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
    writeFileSync(join(dir, 'bad-header.jsonl'), `${JSON.stringify(header({ id: 'bad-header', chain }))}\n`);
    const lines = [
      header({ id: 'good', notes: [XSS] }),
      { kind: 'line', stream: XSS, t: 1, wall: 1, text: 'tampered stream' },
      { kind: 'line', stream: 'stdout', t: 2, wall: 2, text: `fine ${XSS}` },
    ];
    writeFileSync(join(dir, 'good.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

    const list = listSessions({ dir });
    assert.deepEqual(
      list.sessions.map((s) => s.id),
      ['good'],
    );
    assert.equal(list.unreadable.length, 1);
    assert.match(list.unreadable[0]!.reason, /not a valid session header \(chain(\.chain\.0\.type)?: /);

    const exported = await exportSession({ dir }, 'good', 'html');
    assert.doesNotMatch(exported.text, /<script/);
    assert.doesNotMatch(exported.text, /tampered stream/, 'the record with a bad stream is not in the export');
    assert.match(exported.text, /fine &lt;script&gt;/);
    const json = JSON.parse((await exportSession({ dir }, 'good', 'json')).text) as { records: unknown[] };
    assert.equal(json.records.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
