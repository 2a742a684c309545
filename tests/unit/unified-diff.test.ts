import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiff } from '../../shared/text/unified-diff';

/** GNU diff -u as the oracle for the hunks (the --- / +++ lines carry file times, so they are left out). */
function gnuDiff(a: string, b: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-diff-'));
  try {
    writeFileSync(join(dir, 'a'), a);
    writeFileSync(join(dir, 'b'), b);
    const r = spawnSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
    return r.stdout.split('\n').slice(2).join('\n').trimEnd();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i)}\n`).join('');

const cases: [string, string, string][] = [
  ['one line changed in the middle', lines(20), lines(20, (i) => (i === 9 ? 'changed' : `line ${i}`))],
  ['a line appended', lines(5), `${lines(5)}// edited\n`],
  ['two far-apart changes (two hunks)', lines(30), lines(30, (i) => (i === 2 || i === 25 ? `x${i}` : `line ${i}`))],
  ['lines removed at the start', lines(8), lines(8).split('\n').slice(2).join('\n')],
  ['from nothing', '', lines(3)],
];

for (const [name, a, b] of cases)
  test(`unified diff hunks match GNU diff -u: ${name}`, () => {
    const ours = unifiedDiff(a, b, { fromLabel: 'a', toLabel: 'b', maxLines: 1000 });
    assert.equal(ours.split('\n').slice(2).join('\n'), gnuDiff(a, b));
  });

test('equal texts give no diff; a long diff is cut with a count of what is left out', () => {
  assert.equal(unifiedDiff('x\n', 'x\n'), '');
  const long = unifiedDiff(
    lines(100),
    lines(100, (i) => `y${i}`),
    { maxLines: 10 },
  );
  assert.equal(long.split('\n').length, 11);
  assert.match(long.split('\n').at(-1)!, /^… \d+ more diff lines$/);
});
