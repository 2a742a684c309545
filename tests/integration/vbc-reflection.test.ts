import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reflectSpirv } from '../../shared/shader/spirv-reflect';
import { BaseType } from '../../shared/shader/vbc-enums';
import type { VbcStage } from '../../shared/shader/vbc-enums';
import { deriveVbcReflection, linkProblems, parseGlslType, stageProblems, type VbcStageReflection } from '../../shared/shader/vbc-reflection';

/**
 * shared/shader/vbc-reflection.ts on stages compiled by glslangValidator (glslang-tools): what a VBC
 * file must say about them (docs/vbc.md, "Mapping from SPIR-V"), and the stage and link checks
 * (Vulkan § 15.1.3 Interface Matching). tests/integration/vbc.test.ts runs the whole corpus.
 */
const dir = mkdtempSync(join(tmpdir(), 'strata-vbc-reflection-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function stage(stage: VbcStage, glsl: string): VbcStageReflection {
  const src = join(dir, `s.${stage}`);
  writeFileSync(src, `#version 450\n${glsl}`);
  execFileSync('glslangValidator', ['-V', src, '-o', `${src}.spv`], { stdio: 'pipe' });
  return { stage, reflection: reflectSpirv(new Uint8Array(readFileSync(`${src}.spv`))) };
}

test('parseGlslType: scalars, vectors, matrices (cols x rows), arrays outermost first, structs, widths VBC lacks', () => {
  assert.deepEqual(parseGlslType('vec3'), { base: BaseType.Float, rows: 3, cols: 1, arrays: [], text: 'vec3' });
  assert.deepEqual(parseGlslType('uvec2[4][]'), { base: BaseType.Unsigned, rows: 2, cols: 1, arrays: [4, 0], text: 'uvec2[4][]' });
  assert.equal(parseGlslType('mat3x4')?.rows, 4);
  assert.equal(parseGlslType('mat3x4')?.cols, 3);
  assert.equal(parseGlslType('dvec3')?.base, undefined);
  const s = parseGlslType('struct S { vec3 a; float b[2]; }[2]');
  assert.deepEqual(s?.struct, {
    name: 'S',
    members: [
      { type: 'vec3', name: 'a' },
      { type: 'float', name: 'b[2]' },
    ],
  });
  assert.deepEqual(s?.arrays, [2]);
  assert.equal(parseGlslType('not a type!'), undefined);
});

test('derive: vertex inputs, fragment outputs, a uniform block and a sampler from real stages', () => {
  const vert = stage(
    'vert',
    'layout(location=0) in vec3 pos;\nlayout(location=1) in vec2 uv;\nlayout(location=0) out vec2 vUv;\nvoid main() { vUv = uv; gl_Position = vec4(pos, 1.0); }\n',
  );
  const frag = stage(
    'frag',
    'layout(location=0) in vec2 vUv;\nlayout(location=0) out vec4 color;\nlayout(set=0, binding=0) uniform U { vec4 tint; } u;\nlayout(set=0, binding=1) uniform sampler2D tex;\nvoid main() { color = texture(tex, vUv) * u.tint; }\n',
  );
  const d = deriveVbcReflection([vert, frag]);
  assert.deepEqual(d.problems, []);
  assert.deepEqual(d.reflection.vertexInputs, [
    { location: 0, baseType: BaseType.Float, dims: [3, 1], arraySize: 1 },
    { location: 1, baseType: BaseType.Float, dims: [2, 1], arraySize: 1 },
  ]);
  assert.deepEqual(d.reflection.fragmentOutputs, [{ location: 0, baseType: BaseType.Float, dims: [4, 1], arraySize: 1 }]);
  assert.equal(d.reflection.uniform?.members[0]?.name, 'tint');
  assert.equal(d.reflection.uniform?.stageMask, 0x10, 'the fragment stage');
  assert.deepEqual(
    d.reflection.bindings.map((b) => b.baseType),
    [BaseType.Sampler],
  );
  assert.deepEqual(stageProblems([vert, frag]), []);
  assert.deepEqual(linkProblems([vert, frag]), []);
});

test('checks: a stage of the wrong model, tessellation without its pair, an input the previous stage does not write or writes as another type', () => {
  const vert = stage('vert', 'layout(location=0) out vec3 a;\nvoid main() { a = vec3(1.0); gl_Position = vec4(0.0); }\n');
  const frag = stage('frag', 'layout(location=0) in vec4 a;\nlayout(location=1) in float b;\nlayout(location=0) out vec4 c;\nvoid main() { c = a * b; }\n');
  const links = linkProblems([vert, frag]);
  assert.deepEqual(
    links.map((p) => p.message),
    ['frag input "a" at location 0 is Float4, but vert writes Float3 there.', 'frag input "b" at location 1 (Float1) is not written by vert.'],
  );
  const wrong = { ...frag, stage: 'vert' as const };
  assert.deepEqual(
    stageProblems([wrong]).map((p) => p.code),
    ['vbc/stage-model-mismatch'],
  );
  const tesc = stage('tesc', 'layout(vertices=3) out;\nvoid main() { gl_TessLevelOuter[0] = 1.0; }\n');
  assert.deepEqual(
    stageProblems([vert, tesc, frag]).map((p) => [p.code, p.stage]),
    [['vbc/unpaired-tessellation', 'tesc']],
  );
});
