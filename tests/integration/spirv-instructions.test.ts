import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeSpirv, decodeUtf8, parseSpirv } from '../../shared/shader/spirv-instructions';

/**
 * shared/shader/spirv-instructions.ts against spirv-as / spirv-dis (spirv-tools): the instructions
 * decoded from an assembled module are the ones spirv-dis lists, in order, with their result ids
 * and literal strings; both byte orders; a damaged module stops at the damage with a diagnostic.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-spirv-instructions-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ASM = `; SPIR-V
OpCapability Shader
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %pos
OpSource GLSL 450
OpName %main "mäin ✓"
OpDecorate %pos BuiltIn Position
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%ptr = OpTypePointer Output %v4
%pos = OpVariable %ptr Output
%half = OpConstant %float 0.5
%vec = OpConstantComposite %v4 %half %half %half %half
%main = OpFunction %void None %fn
%entry = OpLabel
%len = OpExtInst %float %1 Length %vec
OpStore %pos %vec
OpReturn
OpFunctionEnd
`;

function assemble(): { bytes: Uint8Array; listing: string[] } {
  writeFileSync(join(dir, 't.spvasm'), ASM);
  const spv = join(dir, 't.spv');
  execFileSync('spirv-as', ['--target-env', 'vulkan1.0', join(dir, 't.spvasm'), '-o', spv], { stdio: 'pipe' });
  const listing = execFileSync('spirv-dis', ['--raw-id', '--no-header', spv], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { bytes: new Uint8Array(readFileSync(spv)), listing };
}

test('every instruction spirv-dis lists, in order, with its result id, in both byte orders', () => {
  const { bytes, listing } = assemble();
  const expected = listing.map((l) => {
    const m = /^\s*(?:%(\d+) = )?(Op\w+)/.exec(l)!;
    return { opname: m[2], resultId: m[1] === undefined ? undefined : Number(m[1]) };
  });
  const swapped = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 4) swapped.set([bytes[i + 3]!, bytes[i + 2]!, bytes[i + 1]!, bytes[i]!], i);
  for (const [order, b] of [
    ['little', bytes],
    ['big', swapped],
  ] as const) {
    const m = parseSpirv(b);
    assert.deepEqual(m.diagnostics, [], order);
    assert.equal(m.header?.endianness, order);
    assert.deepEqual(
      m.instructions.map((i) => ({ opname: i.opname, resultId: i.resultId })),
      expected,
      order,
    );
  }
  const name = parseSpirv(bytes).instructions.find((i) => i.opname === 'OpName')!;
  const operand = name.operands[1];
  assert.equal(operand?.type === 'string' ? operand.value : null, 'mäin ✓');
  let visited = 0;
  assert.equal(decodeSpirv(bytes, () => visited++).instructionCount, expected.length);
  assert.equal(visited, expected.length);
});

test('a truncated module: the instructions before the damage, then a diagnostic at the word it starts', () => {
  const { bytes } = assemble();
  // OpFunctionEnd and OpReturn are one word each; cutting three words leaves OpStore (three words) two short.
  const cut = bytes.slice(0, bytes.length - 12);
  const m = parseSpirv(cut);
  assert.ok(m.instructions.length > 0);
  assert.ok(m.diagnostics.length > 0);
  assert.equal(m.diagnostics[0]?.code, 'spirv/truncated-instruction');
  assert.equal(m.diagnostics[0]?.range.start.line, 0);
});

test('decodeUtf8: malformed sequences become U+FFFD', () => {
  assert.equal(decodeUtf8([0x61, 0xc3, 0xa4, 0xe2, 0x9c, 0x93]), 'aä✓');
  assert.equal(decodeUtf8([0x61, 0xff, 0x62]), 'a\ufffdb');
  assert.equal(decodeUtf8([0xf0, 0x9f, 0x98, 0x80]), '😀');
});
