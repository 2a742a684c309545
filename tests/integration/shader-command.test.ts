import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatShaderInspection, formatSpirvDiagnostics } from '../../main/hosts/cli/shader-command';
import { disassembleShaderFile, inspectShaderFile } from '../../main/shaders/shader-service';
import { SHADER_FIXTURES, spirvCrossReflect, spirvDis } from '../helpers/shader-corpus';

/**
 * main/hosts/cli/shader-command.ts: the human form of `strata shader inspect` and the diagnostics lines of
 * `strata shader disassemble`, over a module glslangValidator compiles from the fixtures. Oracles:
 * spirv-dis's header comments for the summary, spirv-cross --reflect for the descriptor bindings.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-shader-command-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('inspect: the summary as spirv-dis reads the header, the entry point, each binding as spirv-cross reflects it, block layouts', async () => {
  const spv = join(dir, 'compute-ssbo.spv');
  execFileSync('glslangValidator', ['-V', join(SHADER_FIXTURES, 'compute-ssbo.comp'), '-o', spv], { stdio: 'pipe' });
  const text = formatShaderInspection(await inspectShaderFile({ path: spv }));
  const lines = text.split('\n');
  assert.equal(lines[0], spv);
  const header = spirvDis(spv).toString('utf8');
  const version = /^; Version: (\S+)$/m.exec(header)![1]!;
  const generator = /^; Generator: (.+)$/m.exec(header)![1]!;
  const bound = /^; Bound: (\d+)$/m.exec(header)![1]!;
  assert.match(
    lines[1]!,
    new RegExp(`^SPIR-V ${version.replace('.', '\\.')} \\(little-endian\\), ${generator.replace(/[.;]/g, '\\$&')}, bound ${bound}, \\d+ instructions$`),
  );
  assert.equal(lines[2], 'Capabilities: Shader');
  assert.match(text, /^Memory model: Logical GLSL450$/m);
  assert.match(text, /^Entry points\n {2}STAGE +NAME +EXECUTION MODEL +MODES\n {2}comp +main +GLCompute +LocalSize 1 4 1, workgroup size 1 \(SpecId 0\) 4 1$/m);

  const reflected = spirvCrossReflect(spv) as { ssbos?: { name: string; set: number; binding: number; readonly?: boolean }[] };
  assert.ok(reflected.ssbos?.length);
  for (const b of reflected.ssbos!) {
    assert.match(text, new RegExp(`^ {2}${b.set} +${b.binding} +storage buffer(, read-only)? +1 +\\w+ +struct ${b.name}$`, 'm'), JSON.stringify(b));
  }
  assert.match(text, /^Block Params \(set 0, binding 1, 40 bytes\)\n {2}OFFSET +SIZE +MEMBER +TYPE\n {2}0 +4 +dt +float$/m);
  assert.match(text, /^ {2}0 +16 +particles\[\]\.position +vec4$/m, 'members of an array of structs are flattened');
});

test('disassemble diagnostics: one line per diagnostic with the word where it is; a clean module has none', async () => {
  const junk = join(dir, 'junk.spv');
  writeFileSync(junk, Buffer.from([0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0]));
  const result = await disassembleShaderFile({ path: junk });
  assert.equal(result.ok, false);
  const lines = formatSpirvDiagnostics(result).split('\n').filter(Boolean);
  assert.equal(lines.length, result.diagnostics.length);
  assert.ok(lines.length > 0);
  for (const [i, l] of lines.entries()) {
    const d = result.diagnostics[i]!;
    assert.equal(
      l,
      `${junk}: word ${d.range.start.character}: ${d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : 'info'}: ${d.message} [${d.code}]`,
    );
  }
  const spv = join(dir, 'compute-ssbo.spv');
  assert.equal(formatSpirvDiagnostics(await disassembleShaderFile({ path: spv })), '');
});
