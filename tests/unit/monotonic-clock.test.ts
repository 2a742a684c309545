import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monotonicMs } from '../../main/platform/monotonic-clock';

test('monotonicMs: never goes back, and measures an interval as performance.now() does', async () => {
  const [a, pa] = [monotonicMs(), performance.now()];
  await new Promise((r) => setTimeout(r, 50));
  const [b, pb] = [monotonicMs(), performance.now()];
  assert.ok(b >= a);
  assert.ok(Math.abs(b - a - (pb - pa)) < 5, `${b - a} ms against ${pb - pa} ms`);
  let last = monotonicMs();
  for (let i = 0; i < 1000; i++) {
    const now = monotonicMs();
    assert.ok(now >= last);
    last = now;
  }
});
