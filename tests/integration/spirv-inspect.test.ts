import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectSpirv } from '../../shared/shader/spirv-inspect';
import { ShaderInspectionSchema } from '../../shared/shader/shader-inspection';

/**
 * shared/shader/spirv-inspect.ts: the summary of a module assembled by spirv-as agrees with the
 * header spirv-dis prints (version, generator, bound) and with the module's mode-setting instructions.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-spirv-inspect-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ASM = `; SPIR-V
OpCapability Shader
OpCapability Int64
OpExtension "SPV_KHR_non_semantic_info"
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 8 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
`;

test('summary: version, generator and bound as spirv-dis prints them; capabilities, extensions, imports, models', () => {
  writeFileSync(join(dir, 't.spvasm'), ASM);
  const spv = join(dir, 't.spv');
  execFileSync('spirv-as', ['--target-env', 'spv1.3', join(dir, 't.spvasm'), '-o', spv], { stdio: 'pipe' });
  const header = execFileSync('spirv-dis', [spv], { encoding: 'utf8' });
  const field = (name: string) => new RegExp(`^; ${name}: (.*)$`, 'm').exec(header)![1];
  const r = inspectSpirv(new Uint8Array(readFileSync(spv)));
  assert.ok(ShaderInspectionSchema.omit({ path: true }).safeParse(r).success);
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
  assert.deepEqual(r.summary, {
    version: field('Version'),
    endianness: 'little',
    generator: field('Generator'),
    bound: Number(field('Bound')),
    instructionCount: execFileSync('spirv-dis', ['--no-header', spv], { encoding: 'utf8' }).trim().split('\n').length,
    capabilities: ['Shader', 'Int64'],
    extensions: ['SPV_KHR_non_semantic_info'],
    extInstImports: ['GLSL.std.450'],
    addressingModel: 'Logical',
    memoryModel: 'GLSL450',
  });
});

test('not SPIR-V: no summary, not ok, a diagnostic', () => {
  const r = inspectSpirv(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]));
  assert.equal(r.summary, null);
  assert.equal(r.ok, false);
  assert.equal(r.diagnostics[0]?.code, 'spirv/bad-magic');
});
