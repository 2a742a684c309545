import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BridgeClient, type BridgeClientOptions } from '../../main/bridge/bridge-client';
import { BridgePool, environmentWith } from '../../main/bridge/bridge-pool';
import { findAppRoot } from '../../main/platform/app-paths';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/bridge/bridge-pool.ts: one probe process per environment. Probes here are real processes
 * (tests/fixtures/probes/fake-probe.mjs, which answers with its pid and FAKE_PROBE_TAG, and crashes
 * or hangs on request); the real probe's answers are tests/integration/bridge-client.test.ts.
 */
const root = findAppRoot();
const fakeProbe = { file: join(root, 'tests', 'fixtures', 'probes', 'fake-probe.mjs'), execArgv: [] };
type Answer = { pid: number; tag: string | null };

async function ask(client: BridgeClient): Promise<Answer> {
  const r = await client.request<Answer>('ping');
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

function pool(home: TempHome, max?: number) {
  const base: BridgeClientOptions = { probe: fakeProbe, cwd: root, env: { ...home.env, FAKE_PROBE_TAG: 'base' }, timeoutMs: 10_000 };
  return new BridgePool(base, new BridgeClient(base), max);
}

test('environmentWith: a string sets, null removes, the base is not changed', () => {
  const base = { A: '1', B: '2' };
  assert.deepEqual(environmentWith(base, { B: null, C: '3', A: '' }), { A: '', C: '3' });
  assert.deepEqual(base, { A: '1', B: '2' });
  assert.deepEqual(environmentWith(base, undefined), base);
});

test('forEnv: no overrides is the default probe; the same overrides in any order share one probe; each probe has its environment', async () => {
  const home = makeTempHome();
  const p = pool(home);
  try {
    assert.equal(p.forEnv(), p.defaultClient);
    assert.equal(p.forEnv({}), p.defaultClient);
    assert.equal((await ask(p.defaultClient)).tag, 'base');
    const a = p.forEnv({ FAKE_PROBE_TAG: 'a', X: '1' });
    assert.equal(p.forEnv({ X: '1', FAKE_PROBE_TAG: 'a' }), a);
    const removed = p.forEnv({ FAKE_PROBE_TAG: null });
    const [base, inA, inRemoved] = await Promise.all([ask(p.defaultClient), ask(a), ask(removed)]);
    assert.deepEqual([base.tag, inA.tag, inRemoved.tag], ['base', 'a', null]);
    assert.equal(new Set([base.pid, inA.pid, inRemoved.pid]).size, 3, 'three environments, three processes');
    assert.equal((await ask(p.forEnv({ X: '1', FAKE_PROBE_TAG: 'a' }))).pid, inA.pid, 'the same probe is kept warm');
  } finally {
    p.dispose();
    home.cleanup();
  }
});

test('beyond max, the least recently used probe is stopped (a lookup counts as a use)', async () => {
  const home = makeTempHome();
  const p = pool(home, 2);
  try {
    const a = p.forEnv({ FAKE_PROBE_TAG: 'a' });
    const b = p.forEnv({ FAKE_PROBE_TAG: 'b' });
    const pidB = (await ask(b)).pid;
    assert.equal(p.forEnv({ FAKE_PROBE_TAG: 'a' }), a);
    p.forEnv({ FAKE_PROBE_TAG: 'c' });
    assert.equal(p.forEnv({ FAKE_PROBE_TAG: 'a' }), a, 'a was used more recently than b');
    assert.equal(await gone(pidB), true, "b's process was stopped when it left the pool");
    const b2 = p.forEnv({ FAKE_PROBE_TAG: 'b' });
    assert.notEqual(b2, b);
    assert.notEqual((await ask(b2)).pid, pidB);
  } finally {
    p.dispose();
    home.cleanup();
  }
});

/** The process exited (within a second: a kill is not instant). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

test('isolated: a probe of its own each time, never the pooled one', async () => {
  const home = makeTempHome();
  const p = pool(home);
  const one = p.isolated({ FAKE_PROBE_TAG: 'iso' });
  const two = p.isolated({ FAKE_PROBE_TAG: 'iso' });
  try {
    assert.notEqual(one, two);
    assert.notEqual(one, p.forEnv({ FAKE_PROBE_TAG: 'iso' }));
    const [x, y] = await Promise.all([ask(one), ask(two)]);
    assert.equal(x.tag, 'iso');
    assert.notEqual(x.pid, y.pid);
  } finally {
    one.dispose();
    two.dispose();
    p.dispose();
    home.cleanup();
  }
});

test('runIsolated: the answer; a crash with the last stage the probe announced; a hang as a timeout; the probe is gone after each', async () => {
  const home = makeTempHome();
  const p = pool(home);
  try {
    const ok = await p.runIsolated('work', {}, { timeoutMs: 5000, env: { FAKE_PROBE_TAG: 'run' } });
    assert.ok(ok.ok);
    assert.equal((ok.value as Answer).tag, 'run');
    assert.equal(await gone((ok.value as Answer).pid), true);

    const crash = await p.runIsolated(
      'work',
      {},
      { timeoutMs: 5000, env: { FAKE_PROBE_MODE: 'segv', FAKE_PROBE_METHOD: 'work', FAKE_PROBE_STAGE: 'vkCreateDevice' } },
    );
    assert.equal(crash.ok, false);
    assert.deepEqual(!crash.ok && [crash.died, crash.stage, crash.error.code], ['crashed', 'vkCreateDevice', 'bridge/crashed']);

    const hang = await p.runIsolated('work', {}, { timeoutMs: 300, env: { FAKE_PROBE_MODE: 'hang', FAKE_PROBE_METHOD: 'work' } });
    assert.deepEqual(!hang.ok && [hang.died, hang.stage, hang.error.code], ['timeout', null, 'bridge/timeout']);

    // A probe that does not even answer its start-up ping is not blamed on the method.
    const noStart = await p.runIsolated('work', {}, { timeoutMs: 300, env: { FAKE_PROBE_MODE: 'segv' } });
    assert.deepEqual(!noStart.ok && [noStart.died, noStart.elapsedMs], [null, 0]);
  } finally {
    p.dispose();
    home.cleanup();
  }
});
