import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveBatcher } from '../../main/sessions/live-batcher';
import type { CaptureRecord } from '../../shared/sessions/session-records';

/**
 * main/sessions/live-batcher.ts: a running session's records reach the UI as one event per
 * interval; past the cap in one interval, output lines are counted as dropped (they are in the
 * file) while validation messages always go through. Node's mock timers drive the interval.
 */
const line = (seq: number): CaptureRecord => ({ kind: 'line', seq, stream: 'stdout', t: seq, wall: seq, text: `l${seq}` });
const message = (seq: number): CaptureRecord => ({
  kind: 'message',
  seq,
  stream: 'validation',
  t: seq,
  wall: seq,
  lines: [seq, seq],
  severity: 'error',
  types: [],
  vuid: `VUID-x-y-${seq}`,
  messageId: 0,
  objects: [],
  text: '',
  specUrl: null,
  specText: null,
  complete: true,
});

function batcher(t: { mock: { timers: { enable(o: { apis: 'setTimeout'[] }): void } } }, interval = 50, max = 3) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const sent: { seqs: number[]; dropped: number }[] = [];
  const b = new LiveBatcher((records, dropped) => sent.push({ seqs: records.map((r) => r.seq), dropped }), interval, max);
  return { b, sent };
}

test('one event per interval, not one per add; nothing is sent for an empty interval', (t) => {
  const { b, sent } = batcher(t);
  b.add([line(1)]);
  b.add([line(2)]);
  assert.deepEqual(sent, []);
  t.mock.timers.tick(49);
  assert.deepEqual(sent, []);
  t.mock.timers.tick(1);
  assert.deepEqual(sent, [{ seqs: [1, 2], dropped: 0 }]);
  t.mock.timers.tick(500);
  b.add([]);
  t.mock.timers.tick(500);
  assert.equal(sent.length, 1);
});

test('past the cap lines are counted as dropped, messages still go; room() says what is left; dropped from the caller adds up', (t) => {
  const { b, sent } = batcher(t);
  assert.equal(b.room(), 3);
  b.add([line(1), line(2)]);
  assert.equal(b.room(), 1);
  b.add([line(3), line(4), message(5), line(6)], 10);
  assert.equal(b.room(), 0);
  t.mock.timers.tick(50);
  assert.deepEqual(sent, [{ seqs: [1, 2, 3, 5], dropped: 12 }]);
  assert.equal(b.room(), 3, 'a new interval starts empty');
});

test('only a dropped count still makes an event; flush sends at once and cancels the timer', (t) => {
  const { b, sent } = batcher(t);
  b.add([], 4);
  t.mock.timers.tick(50);
  assert.deepEqual(sent, [{ seqs: [], dropped: 4 }]);
  b.add([line(7)]);
  b.flush();
  assert.deepEqual(sent.at(-1), { seqs: [7], dropped: 0 });
  t.mock.timers.tick(100);
  assert.equal(sent.length, 2, 'the cancelled timer sends nothing more');
  b.flush();
  assert.equal(sent.length, 2, 'flushing an empty batcher sends nothing');
});
