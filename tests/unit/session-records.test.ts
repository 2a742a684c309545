import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countRecord,
  emptyCounts,
  makeSessionId,
  SessionCountsSchema,
  SessionIdSchema,
  type LineRecord,
  type MessageRecord,
} from '../../shared/sessions/session-records';

// shared/sessions/session-records.ts.
test('session ids sort by start time and never hold a path separator', () => {
  const d = new Date(Date.UTC(2024, 5, 12, 15, 30, 12));
  assert.equal(makeSessionId(d, '/usr/bin/vkcube', '3f9a'), '20240612-153012-vkcube-3f9a');
  assert.equal(makeSessionId(d, '../../etc/pass wd', 'zz'), '20240612-153012-pass_wd-zz');
  assert.equal(makeSessionId(d, '...', ''), '20240612-153012-app-0000');
});

test('session ids the store accepts: no separator, no leading dot, at most 128 characters', () => {
  const d = new Date(Date.UTC(2024, 5, 12, 15, 30, 12));
  assert.ok(SessionIdSchema.safeParse(makeSessionId(d, '/usr/bin/vkcube', '3f9a')).success);
  for (const bad of ['../x', 'a/b', '.hidden', '', 'x'.repeat(129), 'a\\b']) assert.ok(!SessionIdSchema.safeParse(bad).success, bad);
  assert.ok(SessionIdSchema.safeParse('x'.repeat(128)).success);
});

test('countRecord: messages by severity; lines by stream; loader lines by level too', () => {
  const counts = emptyCounts();
  const line = (extra: Partial<LineRecord>): LineRecord => ({ kind: 'line', seq: 1, stream: 'stderr', t: 0, wall: 0, text: 'x', ...extra });
  countRecord(counts, line({}));
  countRecord(counts, line({ src: 'loader', level: 'warning' }));
  countRecord(counts, line({ src: 'loader' }));
  countRecord(counts, line({ stream: 'stdout' }));
  countRecord(counts, line({ stream: 'stdout', src: 'validation', level: 'error' }));
  countRecord(counts, { kind: 'message', severity: 'error' } as MessageRecord);
  assert.deepEqual(counts.lines, { stdout: 2, stderr: 3, validation: 0 });
  assert.equal(counts.loader.warning, 1);
  assert.equal(
    Object.values(counts.loader).reduce((a, b) => a + b, 0),
    1,
    'only loader lines with a level count as loader output',
  );
  assert.equal(counts.messages.error, 1);
  assert.deepEqual(counts.bytes, { stdout: 0, stderr: 0, validation: 0 }, 'bytes are counted where they are read');
  assert.ok(SessionCountsSchema.safeParse(counts).success);
});
