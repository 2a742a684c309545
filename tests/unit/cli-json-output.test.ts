/**
 * printJsonArray (main/cli/cli-output.ts), the pieces `strata layers list --json` writes as it
 * makes them: byte for byte JSON.stringify(array, null, 2) on a real stdout pipe, whatever the
 * elements, small and large (many pieces).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { findAppRoot } from '../../main/app-paths';

const output = pathToFileURL(join(findAppRoot(), 'main', 'cli', 'cli-output.ts')).href;

/** `make` (an expression building the array) printed by printJsonArray in a child process, and the text JSON.stringify gives. */
function printed(make: string): { got: string; want: string } {
  const script = `
    const { printJsonArray } = await import(${JSON.stringify(output)});
    await printJsonArray(${make});`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  assert.equal(r.status, 0, r.stderr);
  const want = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `const value = ${make}; process.stdout.write(JSON.stringify(value, null, 2) + '\\n');`],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  ).stdout;
  return { got: r.stdout, want };
}

test('printJsonArray writes what JSON.stringify(array, null, 2) does, for every kind of element', () => {
  for (const make of [
    '[]',
    '[1]',
    '[[]]',
    '[{}]',
    '[undefined, null, () => 1, Symbol("s"), NaN, -0, 1e21]',
    '[{ a: undefined, b: [1, [2, { c: "x\\ny\\t\\"z\\u2028" }]], d: "é😀", toJSON: undefined }]',
    '[{ toJSON: () => ({ replaced: true }) }, new Date(0), "last"]',
    '[[[[{ deep: [] }]]], {}, []]',
  ]) {
    const { got, want } = printed(make);
    assert.equal(got, want, make);
  }
});

test('a large array (many pieces) comes out whole and identical', () => {
  const make = 'Array.from({ length: 20000 }, (_, i) => ({ name: "VK_LAYER_" + i, path: "/x/" + i + ".json", layers: [{ n: i, text: "x".repeat(i % 97) }] }))';
  const { got, want } = printed(make);
  assert.ok(got.length > 2 << 20, `only ${got.length} bytes: not several pieces`);
  assert.equal(got, want);
});
