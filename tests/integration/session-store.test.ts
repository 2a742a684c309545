import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deleteSession,
  digestSession,
  listSessions,
  openSession,
  readEnds,
  readSummary,
  scanSession,
  searchSessions,
  sessionFile,
  sessionsDir,
} from '../../main/sessions/session-store';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { READ_LIMITS } from '../../shared/files/read-limits';
import type { CaptureRecord } from '../../shared/sessions/session-records';
import { lineRecord, messageRecord, sessionFooter, sessionHeader, writeSession } from '../helpers/session-files';

/**
 * main/sessions/session-store.ts: the sessions folder read back — listing (newest first, unreadable
 * files named, not fatal), streaming scans that number records by position and count damage, a torn
 * last line told apart from damage, the limits on hostile lines, and what the store refuses (a bad
 * id, a running session's deletion, a FIFO).
 */
function withDir(fn: (dir: string) => Promise<void> | void) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-session-store-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

function code(e: unknown): string {
  assert.ok(e instanceof StrataRequestError, `expected a StrataRequestError, got ${String(e)}`);
  return e.error.code;
}

test('sessionsDir follows XDG_STATE_HOME, else HOME/.local/state; sessionFile refuses ids that could leave the folder', () => {
  assert.equal(sessionsDir({ HOME: '/h', XDG_STATE_HOME: '/state' }), '/state/strata/sessions');
  assert.equal(sessionsDir({ HOME: '/h' }), '/h/.local/state/strata/sessions');
  assert.equal(sessionsDir({ HOME: '/h', XDG_STATE_HOME: '' }), '/h/.local/state/strata/sessions');
  assert.equal(sessionFile('/d', '20240101-000000-app-ab12'), '/d/20240101-000000-app-ab12.jsonl');
  for (const bad of ['../x', 'a/b', '', '.hidden', 'x'.repeat(129)]) {
    assert.throws(
      () => sessionFile('/d', bad),
      (e) => code(e) === 'sessions/not-found',
      bad,
    );
  }
});

test(
  'list: newest first by start time, unreadable files named with the reason, other files ignored, a missing folder is empty',
  withDir((dir) => {
    assert.deepEqual(listSessions({ dir: join(dir, 'none') }), { dir: join(dir, 'none'), sessions: [], unreadable: [] });
    writeSession(dir, 'old', [sessionHeader('old', { startWall: 10 }), lineRecord('a'), sessionFooter()]);
    writeSession(dir, 'new', [sessionHeader('new', { startWall: 20 }), lineRecord('b')]);
    writeSession(dir, 'mine', [sessionHeader('mine', { startWall: 15, strataPid: process.pid })]);
    writeFileSync(join(dir, 'junk.jsonl'), 'not json\n');
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const list = listSessions({ dir, running: (id) => id === 'mine' });
    assert.deepEqual(
      list.sessions.map((s) => [s.id, s.status]),
      [
        ['new', 'incomplete'],
        ['mine', 'running'],
        ['old', 'ended'],
      ],
    );
    const old = list.sessions.find((s) => s.id === 'old')!;
    assert.equal(old.exit?.code, 0);
    assert.equal(old.counts?.bytes.stdout, 123);
    assert.equal(old.durationMs, 1000);
    assert.deepEqual(
      list.unreadable.map((u) => u.file),
      [join(dir, 'junk.jsonl')],
    );
    assert.match(list.unreadable[0]!.reason, /JSON/);
  }),
);

test(
  'readEnds: the footer only when the file ends with a valid one; a header over the line cap is refused without reading on',
  withDir((dir) => {
    const ended = writeSession(dir, 'e', [sessionHeader('e'), lineRecord('x'), sessionFooter()]);
    assert.equal(readEnds(ended).footer?.durationMs, 1000);
    const badFooter = writeSession(dir, 'f', [sessionHeader('f'), { ...sessionFooter(), durationMs: 'long' }]);
    assert.equal(readEnds(badFooter).footer, null);
    const footerThenLine = writeSession(dir, 'g', [sessionHeader('g'), sessionFooter(), lineRecord('after')]);
    assert.equal(readEnds(footerThenLine).footer, null);
    // A header nested past the JSON nesting limit would overflow the stack of whatever stringifies it next.
    const deepLine = JSON.stringify(sessionHeader('deep', { profile: { name: 'p', copy: 'COPY' } })).replace('"COPY"', '['.repeat(5000) + ']'.repeat(5000));
    const deep = writeSession(dir, 'deep', [deepLine]);
    assert.throws(() => readEnds(deep), /nests JSON deeper/);
    const huge = join(dir, 'huge.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, READ_LIMITS.sessionLine + 100_000);
    assert.throws(() => readEnds(huge), /first line is over \d+ bytes/);
  }),
);

test(
  'scan: records numbered by position (a damaged line keeps its number), schema-invalid records are damage, a torn last line is torn',
  withDir(async (dir) => {
    const file = writeSession(
      dir,
      's',
      [
        sessionHeader('s'),
        lineRecord('one'),
        '{not json',
        { ...lineRecord('bad stream'), stream: 'stdin' },
        messageRecord('VUID-x-y-01'),
        '{"kind":"line","stream":"stdout","t":9,"wa',
      ],
      false,
    );
    const seen: CaptureRecord[] = [];
    const scan = await scanSession(file, (r) => seen.push(r));
    assert.deepEqual(
      seen.map((r) => [r.kind, r.seq]),
      [
        ['line', 1],
        ['message', 4],
      ],
    );
    assert.equal(scan.damaged, 2);
    assert.equal(scan.torn, true);
    assert.equal(scan.footer, null);
    // The same cut-off line with a line break after it is damage, not a torn write.
    writeFileSync(file, `${JSON.stringify(sessionHeader('s'))}\n{"kind":"line","st\n`);
    const again = await scanSession(file, () => undefined);
    assert.deepEqual([again.torn, again.damaged], [false, 1]);
    writeFileSync(file, `${JSON.stringify(lineRecord('no header'))}\n`);
    await assert.rejects(
      scanSession(file, () => undefined),
      (e) => code(e) === 'sessions/unreadable',
    );
  }),
);

test(
  'scan: a line over the cap is skipped to its end and counted as damaged; memory stays bounded and the records after it keep coming',
  withDir(async (dir) => {
    const file = join(dir, 'long.jsonl');
    const long = `{"kind":"line","stream":"stdout","t":1,"wall":1,"text":"${'x'.repeat(READ_LIMITS.sessionLine + 10)}"}`;
    writeFileSync(file, [JSON.stringify(sessionHeader('long')), long, JSON.stringify(lineRecord('after'))].join('\n') + '\n');
    const seen: CaptureRecord[] = [];
    const scan = await scanSession(file, (r) => seen.push(r));
    assert.equal(scan.damaged, 1);
    assert.deepEqual(
      seen.map((r) => [r.kind === 'line' ? r.text : r.vuid, r.seq]),
      [['after', 2]],
    );
  }),
);

test(
  'a FIFO in the sessions folder is refused at once, not waited on',
  withDir(async (dir) => {
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    const list = listSessions({ dir });
    assert.equal(list.sessions.length, 0);
    assert.equal(list.unreadable.length, 1);
    assert.throws(
      () => readSummary({ dir }, 'fifo'),
      (e) => code(e) === 'sessions/unreadable',
    );
    await assert.rejects(
      scanSession(join(dir, 'fifo.jsonl'), () => undefined),
      (e) => code(e) === 'sessions/unreadable',
    );
  }),
);

test(
  'open: a query filters, offset and limit page through the matches, counts cover every record; bytes come from the footer',
  withDir(async (dir) => {
    const records = [sessionHeader('o'), ...Array.from({ length: 10 }, (_, i) => lineRecord(`line ${i}`, i % 2 ? 'stderr' : 'stdout')), sessionFooter()];
    writeSession(dir, 'o', records);
    const page = await openSession({ dir }, 'o', { query: { stream: ['stderr'] }, offset: 1, limit: 2 });
    assert.deepEqual(
      page.records.map((r) => (r.kind === 'line' ? r.text : '')),
      ['line 3', 'line 5'],
    );
    assert.equal(page.total, 5);
    assert.deepEqual(page.counts.lines, { stdout: 5, stderr: 5, validation: 0 });
    assert.equal(page.counts.bytes.stdout, 123);
    assert.equal(page.summary.status, 'ended');
    await assert.rejects(openSession({ dir }, 'missing', {}), (e) => code(e) === 'sessions/not-found');
    await assert.rejects(openSession({ dir }, '../o', {}), (e) => code(e) === 'sessions/not-found');
  }),
);

test(
  'search: across every session or the named ones, only sessions with matches, records capped per session',
  withDir(async (dir) => {
    writeSession(dir, 'a', [sessionHeader('a', { startWall: 1 }), lineRecord('needle 1'), lineRecord('needle 2'), lineRecord('hay')]);
    writeSession(dir, 'b', [sessionHeader('b', { startWall: 2 }), lineRecord('hay'), messageRecord('VUID-needle-x-01')]);
    writeSession(dir, 'c', [sessionHeader('c', { startWall: 3 }), lineRecord('hay')]);
    const all = await searchSessions({ dir }, { text: 'NEEDLE' }, undefined, 1);
    assert.deepEqual(
      all.results.map((r) => [r.summary.id, r.matches, r.records.length]),
      [
        ['b', 1, 1],
        ['a', 2, 1],
      ],
    );
    const named = await searchSessions({ dir }, { vuid: 'VUID-needle*' }, ['a', 'b']);
    assert.deepEqual(
      named.results.map((r) => r.summary.id),
      ['b'],
    );
    await assert.rejects(searchSessions({ dir }, { text: 'x' }, ['nope']), (e) => code(e) === 'sessions/not-found');
  }),
);

test(
  'delete: removes an ended or incomplete session, refuses a running one and an unknown id',
  withDir(async (dir) => {
    const ended = writeSession(dir, 'ended', [sessionHeader('ended'), sessionFooter()]);
    const running = writeSession(dir, 'running', [sessionHeader('running', { strataPid: process.ppid })]);
    assert.deepEqual(deleteSession({ dir }, 'ended'), { id: 'ended', deleted: true });
    assert.equal(existsSync(ended), false);
    // The writer (the parent process here) is alive: still running, even though this process does not know it.
    assert.throws(
      () => deleteSession({ dir }, 'running'),
      (e) => code(e) === 'sessions/running',
    );
    assert.ok(existsSync(running));
    assert.throws(
      () => deleteSession({ dir }, 'ended'),
      (e) => code(e) === 'sessions/not-found',
    );
  }),
);

test(
  'digest: counts and each VUID once with its number of messages, for a diff',
  withDir(async (dir) => {
    writeSession(dir, 'd', [
      sessionHeader('d', { application: { command: 'vkcube', args: [], cwd: '/', resolvedPath: null } }),
      lineRecord('x'),
      messageRecord('VUID-a-b-01', 'error'),
      messageRecord('VUID-a-b-01', 'error'),
      messageRecord('VUID-c-d-02', 'warning'),
    ]);
    const digest = await digestSession({ dir }, 'd');
    assert.equal(digest.command, 'vkcube');
    assert.equal(digest.exit, null);
    assert.deepEqual(Object.fromEntries([...digest.messages].map(([k, v]) => [k, [v.severity, v.count]])), {
      'VUID-a-b-01': ['error', 2],
      'VUID-c-d-02': ['warning', 1],
    });
    assert.equal(digest.counts.messages.error, 2);
    assert.equal(digest.counts.lines.stdout, 1);
  }),
);
