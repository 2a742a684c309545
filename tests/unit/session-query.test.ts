import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileQuery } from '../../shared/sessions/session-query';
import { type CaptureRecord, type LineRecord, type MessageRecord } from '../../shared/sessions/session-records';

// shared/sessions/session-query.ts: the sessions search query language.
const line = (text: string, extra: Partial<LineRecord> = {}): LineRecord => ({ kind: 'line', seq: 1, stream: 'stdout', t: 1, wall: 1, text, ...extra });
const message = (vuid: string, extra: Partial<MessageRecord> = {}): MessageRecord => ({
  kind: 'message',
  seq: 2,
  stream: 'validation',
  t: 1,
  wall: 1,
  lines: [1, 1],
  severity: 'error',
  types: ['SPEC'],
  vuid,
  messageId: 1,
  objects: [{ index: 0, handle: '0x1', type: 9, typeName: 'VK_OBJECT_TYPE_BUFFER', name: 'Leaked Buffer' }],
  text: `text of ${vuid}`,
  specUrl: null,
  specText: null,
  complete: true,
  ...extra,
});

test('queries: text (any case), VUID (exact or prefix*), severity, source, stream, kind — all must hold', () => {
  const records: CaptureRecord[] = [
    line('App: Hello'),
    line('INFO:             Vulkan Loader Version 1.3.239', { stream: 'stderr', src: 'loader', level: 'info' }),
    message('VUID-VkBufferCreateInfo-size-00912'),
    message('UNASSIGNED-BestPractices-x', { severity: 'warning' }),
  ];
  const pick = (q: Parameters<typeof compileQuery>[0]) => records.filter(compileQuery(q)).map((r) => (r.kind === 'line' ? r.text.slice(0, 9) : r.vuid));
  assert.deepEqual(pick({ text: 'hello' }), ['App: Hell']);
  assert.deepEqual(pick({ vuid: 'VUID-VkBufferCreateInfo-size-00912' }), ['VUID-VkBufferCreateInfo-size-00912']);
  assert.deepEqual(pick({ vuid: 'VUID-VkBuffer*' }), ['VUID-VkBufferCreateInfo-size-00912']);
  assert.deepEqual(pick({ severity: ['warning', 'info'] }), ['INFO:    ', 'UNASSIGNED-BestPractices-x']);
  assert.deepEqual(pick({ source: ['app'] }), ['App: Hell']);
  assert.deepEqual(pick({ source: ['validation'], severity: ['error'] }), ['VUID-VkBufferCreateInfo-size-00912']);
  assert.deepEqual(pick({ text: 'leaked buffer', kind: ['message'], stream: ['validation'] }), [
    'VUID-VkBufferCreateInfo-size-00912',
    'UNASSIGNED-BestPractices-x',
  ]);
});
