import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monotonicMs } from '../../main/platform/monotonic-clock';

// Both clocks read the same monotonic source (libuv's hrtime), so an interval one clock brackets
// is never shorter than the interval the other measures inside it. Bracketing, not a tolerance,
// keeps this exact on a loaded machine (CI once saw 61 ms against 51: performance.now()'s first
// call loads perf_hooks between the two readings).
const ROUNDING_MS = 1e-3;

test('monotonicMs: never goes back, and brackets performance.now() intervals both ways', async () => {
  performance.now();
  const outerStart = monotonicMs();
  const innerStart = performance.now();
  await new Promise((r) => setTimeout(r, 20));
  const innerEnd = performance.now();
  const outerEnd = monotonicMs();
  assert.ok(outerEnd - outerStart + ROUNDING_MS >= innerEnd - innerStart);
  assert.ok(outerEnd - outerStart >= 15);

  const perfStart = performance.now();
  const ownStart = monotonicMs();
  await new Promise((r) => setTimeout(r, 20));
  const ownEnd = monotonicMs();
  const perfEnd = performance.now();
  assert.ok(perfEnd - perfStart + ROUNDING_MS >= ownEnd - ownStart);

  let last = monotonicMs();
  for (let i = 0; i < 1000; i++) {
    const now = monotonicMs();
    assert.ok(now >= last);
    last = now;
  }
});
