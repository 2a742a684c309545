import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffSessions, type SessionDigest } from '../../shared/sessions/session-diff';
import { emptyCounts } from '../../shared/sessions/session-records';
import type { LayerChain } from '../../shared/loader/chain';

// shared/sessions/session-diff.ts: what changed between two sessions.
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
