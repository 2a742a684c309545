import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { friendlyNames } from '../../shared/shader/spirv-friendly-names';
import { parseSpirv } from '../../shared/shader/spirv-instructions';

/**
 * shared/shader/spirv-friendly-names.ts against spirv-dis (spirv-tools): a module assembled by
 * spirv-as with names that collide, odd characters, types and constants; every id's friendly name
 * is the one spirv-dis prints for it.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-friendly-names-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ASM = `; SPIR-V
OpCapability Shader
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %color
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %color "color"
OpName %dup "x"
OpName %dup2 "x"
OpName %odd "a b-c"
OpName %empty ""
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%ptr = OpTypePointer Output %v4float
%color = OpVariable %ptr Output
%dup = OpVariable %ptr Output
%dup2 = OpVariable %ptr Output
%odd = OpVariable %ptr Output
%empty = OpVariable %ptr Output
%float_1 = OpConstant %float 1
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_7 = OpConstant %uint 7
%int_n3 = OpConstant %int -3
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%label = OpLabel
OpReturn
OpFunctionEnd
`;

function assemble(): Uint8Array {
  writeFileSync(join(dir, 't.spvasm'), ASM);
  execFileSync('spirv-as', ['--target-env', 'vulkan1.0', join(dir, 't.spvasm'), '-o', join(dir, 't.spv')], { stdio: 'pipe' });
  return new Uint8Array(readFileSync(join(dir, 't.spv')));
}

test('every id gets the name spirv-dis gives it (collisions _0, odd characters _, types and constants by value)', () => {
  const bytes = assemble();
  const spv = join(dir, 't.spv');
  const raw = execFileSync('spirv-dis', ['--raw-id', spv], { encoding: 'utf8' }).split('\n');
  const friendly = execFileSync('spirv-dis', [spv], { encoding: 'utf8' }).split('\n');
  // The two listings have the same lines; "%12 = …" against "%x_0 = …" gives spirv-dis's name of each result id.
  const expected = new Map<number, string>();
  raw.forEach((line, i) => {
    const r = /^\s*%(\d+) = /.exec(line);
    const f = /^\s*%([^ ]+) = /.exec(friendly[i] ?? '');
    if (r && f) expected.set(Number(r[1]), f[1]!);
  });
  assert.ok(expected.size >= 15, `${expected.size} result ids`);
  const names = friendlyNames(parseSpirv(bytes));
  for (const [id, name] of expected) assert.equal(names.get(id) ?? String(id), name, `id ${id}`);
  assert.ok([...expected.values()].includes('x_0'), 'the module has a collision');
  assert.ok([...expected.values()].includes('a_b_c'), 'and odd characters');
});
