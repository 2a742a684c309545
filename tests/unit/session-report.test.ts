import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileQuery } from '../../shared/sessions/session-query';
import { diffSessions, type SessionDigest } from '../../shared/sessions/session-diff';
import { escapeHtml, renderSessionHtml } from '../../shared/sessions/session-html';
import {
  emptyCounts,
  SESSION_FORMAT,
  type CaptureRecord,
  type LineRecord,
  type MessageRecord,
  type SessionHeader,
} from '../../shared/sessions/session-records';
import type { LayerChain } from '../../shared/loader/chain';

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

const chain = (...names: string[]): LayerChain => ({
  loaderVersion: '1.3.239',
  rulesVersion: '1.3.239',
  rules: [],
  result: 'VK_SUCCESS',
  chain: names.map((name) => ({ name, type: 'explicit', manifest: `/m/${name}.json`, libraryPath: null, reasons: [] })),
  metaLayers: [],
  excluded: [],
  notes: [],
});

function digest(id: string, names: string[] | null, messages: [string, number][]): SessionDigest {
  const counts = emptyCounts();
  counts.messages.error = messages.reduce((n, [, c]) => n + c, 0);
  return {
    id,
    command: '/bin/app',
    startedAt: '2024-01-01T00:00:00.000Z',
    chain: names ? chain(...names) : null,
    exit: { reason: 'exited', code: 0, signal: null, error: null },
    counts,
    messages: new Map(messages.map(([vuid, count]) => [vuid, { severity: 'error' as const, count, text: vuid }])),
  };
}

test('diff: chain layers added, removed and moved; messages appeared, disappeared and changed by VUID', () => {
  const d = diffSessions(
    digest(
      'a',
      ['A', 'B', 'C'],
      [
        ['V-1', 1],
        ['V-2', 2],
        ['V-3', 1],
      ],
    ),
    digest(
      'b',
      ['C', 'B', 'D'],
      [
        ['V-2', 5],
        ['V-3', 1],
        ['V-4', 1],
      ],
    ),
  );
  assert.equal(d.chain.same, false);
  assert.deepEqual(d.chain.added, ['D']);
  assert.deepEqual(d.chain.removed, ['A']);
  assert.deepEqual(d.chain.moved, ['B', 'C']);
  assert.deepEqual(
    d.messages.appeared.map((m) => [m.vuid, m.a, m.b]),
    [['V-4', 0, 1]],
  );
  assert.deepEqual(
    d.messages.disappeared.map((m) => [m.vuid, m.a, m.b]),
    [['V-1', 1, 0]],
  );
  assert.deepEqual(
    d.messages.changed.map((m) => [m.vuid, m.a, m.b]),
    [['V-2', 2, 5]],
  );
  assert.deepEqual(
    d.messages.unchanged.map((m) => m.vuid),
    ['V-3'],
  );
  assert.equal(d.counts.a.messages.error, 4);
  const same = diffSessions(digest('a', ['A'], []), digest('b', ['A'], []));
  assert.equal(same.chain.same, true);
  assert.equal(diffSessions(digest('a', null, []), digest('b', ['A'], [])).chain.same, false);
});

test('HTML report: self-contained, everything captured is escaped, only http(s) links', () => {
  const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
  const header: SessionHeader = {
    kind: 'header',
    format: SESSION_FORMAT,
    id: 's1',
    application: { command: '/bin/app', args: [hostile], cwd: '/tmp', resolvedPath: '/bin/app' },
    profile: { name: `p${hostile}`, copy: {} },
    chain: chain('VK_LAYER_KHRONOS_validation'),
    chainError: null,
    environment: { set: { VK_LOADER_DEBUG: 'all' }, unset: ['VK_X'], inherited: { HOME: '/home/me"' } },
    loaderDebug: 'all',
    validationRouting: { mode: 'fifo', note: null },
    timeoutMs: null,
    startedAt: '2024-01-01T00:00:00.000Z',
    startWall: 0,
    strataVersion: '0.1.0',
    strataPid: 1,
    notes: [hostile],
  };
  const html = renderSessionHtml({
    header,
    footer: null,
    counts: emptyCounts(),
    messages: [message('VUID-a', { text: hostile, specUrl: 'javascript:alert(3)' }), message('VUID-b', { specUrl: 'https://registry.khronos.org/x#VUID-b' })],
    lines: [line(hostile)],
    linesOmitted: 5,
    generatedAt: 'now',
  });
  assert.doesNotMatch(html, /<script|<img|javascript:/i);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
  assert.match(html, /<a href="https:\/\/registry\.khronos\.org\/x#VUID-b">VUID-b<\/a>/);
  // No resource is loaded from anywhere: no src=, no stylesheet links, no url() in the style.
  assert.doesNotMatch(html, /<[^>]*\ssrc=|<link|url\(/i);
  assert.match(html, /5 more lines/);
  assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
});
