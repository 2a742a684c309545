import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definitionLines, searchLines, splitAtMatch, splitLines, stepMatch, tokenizeLine } from '../../renderer/src/shaders/disassembly-lines';
import { scrollTopFor, virtualWindow } from '../../renderer/src/virtual/virtual-window';
import { base64FromDataUrl, formatBytes } from '../../renderer/src/shaders/file-base64';
import { tabKeyTarget, SHADER_TABS } from '../../renderer/src/shaders/shader-tabs';
import { arrayDims, memberRows, variableName, wordRange } from '../../renderer/src/shaders/shader-labels';

const TEXT = `; SPIR-V
; Version: 1.0
               OpCapability Shader
               OpEntryPoint GLCompute %4 "main %9" %12
               OpName %4 "say \\"%5\\""
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpFunction %2 None %3
         %10 = OpLabel
               OpReturn
               OpFunctionEnd
`;
const lines = splitLines(TEXT);

test('splitLines: the final newline starts no empty line; empty text has no lines', () => {
  assert.equal(lines.length, 11);
  assert.equal(lines[10], '               OpFunctionEnd');
  assert.deepEqual(splitLines(''), []);
  assert.deepEqual(splitLines('a\n\nb'), ['a', '', 'b']);
});

test('tokenizeLine: ids, opcodes, strings (escapes kept, no ids inside), comments; tokens join back to the line', () => {
  for (const line of lines)
    assert.equal(
      tokenizeLine(line)
        .map((t) => t.text)
        .join(''),
      line,
      line,
    );
  assert.deepEqual(tokenizeLine('          %3 = OpTypeFunction %2'), [
    { kind: 'text', text: '          ' },
    { kind: 'id', text: '%3', id: 3 },
    { kind: 'text', text: ' = ' },
    { kind: 'opcode', text: 'OpTypeFunction' },
    { kind: 'text', text: ' ' },
    { kind: 'id', text: '%2', id: 2 },
  ]);
  const entry = tokenizeLine(lines[3]!);
  assert.deepEqual(
    entry.filter((t) => t.kind === 'id').map((t) => t.text),
    ['%4', '%12'],
    'the %9 inside "main %9" is text',
  );
  assert.deepEqual(
    entry.filter((t) => t.kind === 'string').map((t) => t.text),
    ['"main %9"'],
  );
  assert.deepEqual(
    tokenizeLine(lines[4]!)
      .filter((t) => t.kind === 'string')
      .map((t) => t.text),
    ['"say \\"%5\\""'],
  );
  assert.deepEqual(tokenizeLine('; Bound: 13'), [{ kind: 'comment', text: '; Bound: 13' }]);
  assert.deepEqual(tokenizeLine('  OpSource GLSL 450 ; trailing'), [
    { kind: 'text', text: '  ' },
    { kind: 'opcode', text: 'OpSource' },
    { kind: 'text', text: ' GLSL 450 ' },
    { kind: 'comment', text: '; trailing' },
  ]);
  // An unterminated string runs to the end of the line instead of looping.
  assert.deepEqual(tokenizeLine(' "abc'), [
    { kind: 'text', text: ' ' },
    { kind: 'string', text: '"abc' },
  ]);
});

test('definitionLines: each result id maps to the line that defines it; uses are not definitions', () => {
  const defs = definitionLines(lines);
  assert.deepEqual(
    [...defs.entries()],
    [
      [2, 5],
      [3, 6],
      [4, 7],
      [10, 8],
    ],
  );
  assert.equal(defs.get(12), undefined);
});

test('searchLines ignores case and blank queries; stepMatch wraps both ways', () => {
  assert.deepEqual(searchLines(lines, 'optypefunction'), [6]);
  assert.deepEqual(searchLines(lines, 'OpType'), [5, 6]);
  assert.deepEqual(searchLines(lines, '   '), []);
  assert.equal(stepMatch(3, -1, 1), 0);
  assert.equal(stepMatch(3, -1, -1), 2);
  assert.equal(stepMatch(3, 2, 1), 0);
  assert.equal(stepMatch(3, 0, -1), 2);
  assert.equal(stepMatch(0, 0, 1), -1);
  assert.deepEqual(splitAtMatch('OpTypeVoid', 'typev'), ['Op', 'TypeV', 'oid']);
  assert.equal(splitAtMatch('OpTypeVoid', 'float'), null);
});

test('virtualWindow: only the visible rows plus overscan, clamped at both ends', () => {
  const base = { viewportHeight: 200, rowHeight: 20, rowCount: 100_000, overscan: 5 };
  assert.deepEqual(virtualWindow({ ...base, scrollTop: 0 }), { start: 0, end: 16, offset: 0, totalHeight: 2_000_000 });
  assert.deepEqual(virtualWindow({ ...base, scrollTop: 1000 }), { start: 45, end: 66, offset: 900, totalHeight: 2_000_000 });
  const bottom = virtualWindow({ ...base, scrollTop: 5_000_000 });
  assert.equal(bottom.end, 100_000);
  assert.equal(bottom.start, 100_000 - 10 - 5);
  assert.deepEqual(virtualWindow({ ...base, rowCount: 3, scrollTop: 0 }), { start: 0, end: 3, offset: 0, totalHeight: 60 });
  assert.deepEqual(virtualWindow({ ...base, rowCount: 0, scrollTop: 0 }), { start: 0, end: 0, offset: 0, totalHeight: 0 });
});

test('scrollTopFor: a visible row does not move the view; another lands a third of the way down', () => {
  const box = { viewportHeight: 300, rowHeight: 20, rowCount: 1000 };
  assert.equal(scrollTopFor(5, { ...box, scrollTop: 0 }), 0);
  assert.equal(scrollTopFor(500, { ...box, scrollTop: 0 }), 500 * 20 - 100);
  assert.equal(scrollTopFor(2, { ...box, scrollTop: 4000 }), 0);
  assert.equal(scrollTopFor(999, { ...box, scrollTop: 0 }), 1000 * 20 - 300);
});

test('base64FromDataUrl: the payload of a base64 data URL, whatever its type; anything else is null', () => {
  assert.equal(base64FromDataUrl('data:application/octet-stream;base64,AwIjBw=='), 'AwIjBw==');
  assert.equal(base64FromDataUrl('data:;base64,'), '');
  assert.equal(base64FromDataUrl('data:text/plain,hello'), null);
  assert.equal(base64FromDataUrl('data:;base64,AB C'), null);
  assert.equal(formatBytes(1), '1 byte');
  assert.equal(formatBytes(1000), '1000 bytes');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(16 * 1024 * 1024), '16 MiB');
});

test('tabs: arrows wrap, Home and End go to the ends, other keys are not ours', () => {
  const n = SHADER_TABS.length;
  assert.deepEqual(
    SHADER_TABS.map((t) => t.label),
    ['Summary', 'Interface', 'Bindings', 'Disassembly', 'Problems'],
  );
  assert.equal(tabKeyTarget('ArrowRight', 0, n), 1);
  assert.equal(tabKeyTarget('ArrowRight', n - 1, n), 0);
  assert.equal(tabKeyTarget('ArrowLeft', 0, n), n - 1);
  assert.equal(tabKeyTarget('Home', 3, n), 0);
  assert.equal(tabKeyTarget('End', 0, n), n - 1);
  assert.equal(tabKeyTarget('ArrowDown', 0, n), null);
});

test('labels: array dims, nameless ids, nested members flattened with their path, word ranges', () => {
  assert.equal(arrayDims([4, 0]), '[4][]');
  assert.equal(variableName({ id: 7, name: '', blockName: 'Block' }), 'Block');
  assert.equal(variableName({ id: 7, name: '' }), '_7');
  const rows = memberRows([
    { name: 'count', type: 'uint', offset: 0, size: 4 },
    { name: 'lights', type: 'Light[]', offset: 16, size: 0, arraySize: [0], arrayStride: 32, members: [{ name: 'color', type: 'vec4', offset: 0, size: 16 }] },
  ]);
  assert.deepEqual(
    rows.map((r) => [r.name, r.depth, r.layout]),
    [
      ['count', 0, ''],
      ['lights', 0, 'stride 32'],
      ['lights[].color', 1, ''],
    ],
  );
  assert.equal(wordRange({ start: { character: 5 }, end: { character: 6 } }), 'word 5');
  assert.equal(wordRange({ start: { character: 5 }, end: { character: 9 } }), 'words 5–8');
});

test('the Interface tab lists variables by location, then component; built-ins after, by name', async () => {
  const { byLocation } = await import('../../renderer/src/shaders/shader-labels');
  const v = (name: string, location?: number, component?: number, builtIns: string[] = []) => ({ name, location, component, builtIns });
  const sorted = byLocation([
    v('uv', 1),
    v('pos', 0),
    v('gl_Position', undefined, undefined, ['Position']),
    v('b', 1, 2),
    v('a', 1, 0),
    v('gl_PointSize', undefined, undefined, ['PointSize']),
  ]);
  assert.deepEqual(
    sorted.map((x) => x.name),
    ['pos', 'uv', 'a', 'b', 'gl_PointSize', 'gl_Position'],
  );
});
