import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpirv } from '../../shared/shader/spirv-reader';
import { disassembleSpirv } from '../../shared/shader/spirv-disassembler';

/** A minimal module, as words: header, OpCapability Shader, OpMemoryModel Logical GLSL450. */
const MODULE = [0x07230203, 0x00010000, 0x0008000b, 4, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1];

function bytes(words: readonly number[], littleEndian = true): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w >>> 0, littleEndian));
  return out;
}

const codes = (b: Uint8Array) => disassembleSpirv(b).diagnostics.map((d) => d.code);

test('header fields and instructions, both byte orders', () => {
  for (const littleEndian of [true, false]) {
    const m = readSpirv(bytes(MODULE, littleEndian));
    assert.deepEqual(m.diagnostics, []);
    assert.equal(m.header?.endianness, littleEndian ? 'little' : 'big');
    assert.deepEqual(m.header?.version, { major: 1, minor: 0 });
    assert.equal(m.header?.generator, 0x0008000b);
    assert.equal(m.header?.bound, 4);
    assert.deepEqual(
      m.instructions.map((i) => [i.offset, i.opcode, i.wordCount]),
      [
        [5, 17, 2],
        [7, 14, 3],
      ],
    );
  }
  assert.equal(
    disassembleSpirv(bytes(MODULE)).text,
    '; SPIR-V\n; Version: 1.0\n; Generator: Khronos Glslang Reference Front End; 11\n; Bound: 4\n; Schema: 0\n' +
      '               OpCapability Shader\n               OpMemoryModel Logical GLSL450\n',
  );
});

test('malformed modules: each gives its diagnostic code at the right word, never an exception', () => {
  const cases: [string, Uint8Array, string, number][] = [
    ['empty file', new Uint8Array(0), 'spirv/truncated-header', 0],
    ['truncated header', bytes(MODULE.slice(0, 3)), 'spirv/truncated-header', 0],
    ['wrong magic', bytes([0xdeadbeef, ...MODULE.slice(1)]), 'spirv/bad-magic', 0],
    ['bound 0', bytes([...MODULE.slice(0, 3), 0, ...MODULE.slice(4)]), 'spirv/zero-bound', 3],
    ['word count 0', bytes([...MODULE.slice(0, 7), 14, 0, 1]), 'spirv/zero-word-count', 7],
    ['instruction past the end', bytes([...MODULE.slice(0, 7), (9 << 16) | 14, 0, 1]), 'spirv/truncated-instruction', 7],
    ['partial last word', new Uint8Array([...bytes(MODULE), 1, 2]), 'spirv/not-word-aligned', 10],
    ['unknown opcode', bytes([...MODULE, (1 << 16) | 4999]), 'spirv/unknown-opcode', 11],
    ['missing operand', bytes([...MODULE, (1 << 16) | 17]), 'spirv/missing-operand', 10],
    ['extra operands', bytes([...MODULE, (3 << 16) | 17, 1, 1]), 'spirv/extra-operands', 12],
    ['unknown enumerant', bytes([...MODULE, (2 << 16) | 17, 99999]), 'spirv/unknown-enumerant', 11],
    ['unterminated string', bytes([...MODULE, (2 << 16) | 10, 0x41414141]), 'spirv/unterminated-string', 11],
    ['id out of bound', bytes([...MODULE, (2 << 16) | 20, 7]), 'spirv/id-out-of-bound', 11],
    ['untyped literal', bytes([...MODULE, (4 << 16) | 43, 1, 2, 5]), 'spirv/untyped-literal', 13],
  ];
  for (const [what, input, code, word] of cases) {
    const result = disassembleSpirv(input);
    const d = result.diagnostics.find((x) => x.code === code);
    assert.ok(d, `${what}: expected ${code}, got ${JSON.stringify(result.diagnostics.map((x) => x.code))}`);
    assert.equal(d.range.start.character, word, `${what}: word offset`);
    assert.equal((d.data as { wordOffset: number }).wordOffset, word, what);
    assert.equal(result.ok, false, what);
  }
  assert.deepEqual(codes(bytes(MODULE)), []);
});
