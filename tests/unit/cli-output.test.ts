/**
 * main/hosts/cli/cli-output.ts: what every command prints and how it ends. printJsonArray, the pieces
 * `strata layer list --json` writes as it makes them: byte for byte JSON.stringify(array, null, 2)
 * on a real stdout pipe, whatever the elements, small and large (many pieces). The aligned tables
 * and pairs of the human forms; severity names; `-o FILE` written atomically or refused with the fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { findAppRoot } from '../../main/platform/app-paths';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { CliFailure, EXIT, formatPairs, formatTable, severityName, writeOutputFile } from '../../main/hosts/cli/cli-output';

const output = pathToFileURL(join(findAppRoot(), 'main', 'hosts', 'cli', 'cli-output.ts')).href;

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

test('formatTable pads every column to its widest cell except the last; rows may be short; the indent starts each line', () => {
  assert.equal(
    formatTable(
      ['NAME', 'TYPE', 'PATH'],
      [
        ['VK_LAYER_a', 'implicit', '/x/a.json'],
        ['b', 'explicit-long', '/b.json'],
      ],
      '  ',
    ),
    ['  NAME        TYPE           PATH', '  VK_LAYER_a  implicit       /x/a.json', '  b           explicit-long  /b.json'].join('\n'),
  );
  assert.equal(formatTable(['A', 'B'], []), 'A  B');
  assert.equal(formatTable(['A', 'B', 'C'], [['only']]), 'A     B  C\nonly');
});

test('formatPairs aligns the values after the longest key; no rows is empty', () => {
  assert.equal(
    formatPairs([
      ['Version', '1.3.239'],
      ['Library path', '/usr/lib/libvulkan.so.1'],
    ]),
    'Version       1.3.239\nLibrary path  /usr/lib/libvulkan.so.1',
  );
  assert.equal(formatPairs([]), '');
});

test('severityName: LSP severities 1–4; none given or out of range is an error', () => {
  assert.deepEqual([1, 2, 3, 4, undefined, 0, 5].map(severityName), ['error', 'warning', 'info', 'hint', 'error', 'error', 'error']);
});

test('writeOutputFile: the whole text or nothing; a missing folder or a path under a file is one failure with exit 1 and the fix', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-cli-output-'));
  try {
    const file = join(dir, 'out.txt');
    writeFileSync(file, 'before');
    await writeOutputFile(file, 'after\n');
    assert.equal(readFileSync(file, 'utf8'), 'after\n');
    assert.deepEqual(readdirSync(dir), ['out.txt'], 'no temporary file left');

    const missing = join(dir, 'no-folder', 'x.txt');
    await assert.rejects(writeOutputFile(missing, 'x'), (e) => {
      assert.ok(e instanceof CliFailure);
      assert.equal(e.exitCode, EXIT.problems);
      assert.deepEqual([e.error.code, e.error.where, e.error.message], ['output/write-failed', missing, 'Cannot write the file: ENOENT']);
      assert.equal(e.error.fix, 'create its folder first, or choose another path for -o');
      return true;
    });
    mkdirSync(join(dir, 'a-folder'));
    await assert.rejects(writeOutputFile(join(dir, 'a-folder'), 'x'), (e) => {
      assert.ok(e instanceof CliFailure);
      assert.equal(e.error.fix, 'choose a writable path for -o');
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), 'after\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
