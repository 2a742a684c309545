import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildShaderCorpus, spirvCrossReflect, type ShaderCorpus } from '../helpers/shader-corpus';
import { ShaderInspectionSchema } from '../../shared/shader/shader-inspection';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { reflectModule, reflectSpirv, type BlockMember, type DescriptorBinding, type SpirvReflection } from '../../shared/shader/spirv-reflect';
import { parseSpirv } from '../../shared/shader/spirv-instructions';

/**
 * Strata's reflection against `spirv-cross FILE --reflect` (Debian spirv-cross), module by module.
 * Where the two name things differently (see `crossView` below):
 * - spirv-cross names a uniform/storage buffer and a stage-interface block by its *block type*
 *   (`Camera`), other resources and push constants by the variable (`push`); Strata gives both:
 *   `name` is the variable, `block.typeName` / `blockName` the type.
 * - spirv-cross sorts descriptors into ubos / ssbos / textures / separate_images / separate_samplers /
 *   images / subpass_inputs / acceleration_structures; Strata uses Vulkan's descriptor types, so a
 *   `samplerBuffer` is a "uniform texel buffer" (spirv-cross: textures) and an `imageBuffer` a
 *   "storage texel buffer" (spirv-cross: images).
 * - spirv-cross lists array dimensions innermost first (`vec4 grid[2][3]` → [3, 2]); Strata outermost
 *   first, as written in GLSL. A runtime-sized array is 0 in both.
 * - spirv-cross leaves out built-ins from inputs/outputs; Strata keeps them with `builtIns`.
 * - spirv-cross has no push-constant block size and no default for 64-bit specialization constants;
 *   Strata has both. Its stage for mesh/task shaders is "???"; Strata's is "mesh"/"task".
 * - The acceleration structure type: spirv-cross "accelerationStructureNV", Strata "accelerationStructureEXT".
 */
let corpus: ShaderCorpus;
before(() => {
  corpus = buildShaderCorpus();
});
after(() => corpus?.cleanup());

/** spirv-cross JSON, loosely typed: the tests read what they compare. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- spirv-cross's JSON, read field by field where compared
type Json = Record<string, any>;

const CROSS_CATEGORY: Record<string, (d: DescriptorBinding) => boolean> = {
  ubos: (d) => d.kind === 'uniform buffer',
  ssbos: (d) => d.kind === 'storage buffer',
  textures: (d) => d.kind === 'combined image sampler' || (d.kind === 'uniform texel buffer' && /sampler/.test(d.type)),
  separate_images: (d) => d.kind === 'sampled image' || (d.kind === 'uniform texel buffer' && !/sampler/.test(d.type)),
  separate_samplers: (d) => d.kind === 'sampler',
  images: (d) => d.kind === 'storage image' || d.kind === 'storage texel buffer',
  subpass_inputs: (d) => d.kind === 'input attachment',
  acceleration_structures: (d) => d.kind === 'acceleration structure',
};

/** A spirv-cross type in Strata's spelling: `_131` → `struct VertexOut`, arrays outermost first. */
function crossType(cross: Json, entry: Json): string {
  const base = /^_\d+$/.test(entry.type)
    ? `struct ${cross.types[entry.type].name}`
    : entry.type === 'accelerationStructureNV'
      ? 'accelerationStructureEXT'
      : entry.type;
  const dims: number[] = [...(entry.array ?? [])].reverse();
  return base + dims.map((d) => (d ? `[${d}]` : '[]')).join('');
}

const byKey = <T>(xs: T[], key: (x: T) => string) => [...xs].sort((a, b) => key(a).localeCompare(key(b)));

function compareMembers(where: string, cross: Json, typeId: string, ours: BlockMember[]) {
  const members: Json[] = cross.types[typeId].members;
  assert.equal(ours.length, members.length, `${where}: member count`);
  members.forEach((m, i) => {
    const o = ours[i]!;
    const at = `${where}.${m.name}`;
    assert.equal(o.name, m.name, at);
    assert.equal(o.offset, m.offset, `${at} offset`);
    if (m.array_stride !== undefined) assert.equal(o.arrayStride, m.array_stride, `${at} array stride`);
    if (m.matrix_stride !== undefined) assert.equal(o.matrixStride, m.matrix_stride, `${at} matrix stride`);
    assert.equal(o.rowMajor ?? false, m.row_major ?? false, `${at} row major`);
    assert.deepEqual(o.arraySize ?? [], [...(m.array ?? [])].reverse(), `${at} array`);
    if (m.physical_pointer) assert.match(o.type, /\*$/, at);
    else assert.equal(o.type.replace(/\[.*$/, ''), /^_\d+$/.test(m.type) ? `struct ${cross.types[m.type].name}` : m.type, `${at} type`);
    if (/^_\d+$/.test(m.type) && !m.physical_pointer) compareMembers(at, cross, m.type, o.members ?? []);
  });
}

function compareModule(name: string, ours: SpirvReflection, cross: Json) {
  // Entry points and stages; spirv-cross reflects the first entry point's interface.
  assert.deepEqual(
    ours.entryPoints.map((e) => e.name),
    cross.entryPoints.map((e: Json) => e.name),
    `${name}: entry points`,
  );
  cross.entryPoints.forEach((e: Json, i: number) => {
    const o = ours.entryPoints[i]!;
    if (e.mode !== '???') assert.equal(o.stage, e.mode, `${name}: stage`);
    if (e.workgroup_size) {
      assert.deepEqual(
        o.workgroupSize?.map((d) => d.specId ?? d.value),
        e.workgroup_size,
        `${name}: workgroup size`,
      );
      assert.deepEqual(
        o.workgroupSize?.map((d) => d.specId !== undefined),
        e.workgroup_size_is_spec_constant_id,
        `${name}: workgroup size from spec constants`,
      );
    }
  });

  const entry = ours.entryPoints[0]!;
  for (const [dir, vars] of [
    ['inputs', entry.inputs],
    ['outputs', entry.outputs],
  ] as const) {
    const theirs = byKey((cross[dir] ?? []) as Json[], (v) => `${v.location} ${v.name}`).map((v) => ({
      name: v.name,
      type: crossType(cross, v),
      location: v.location,
    }));
    const mine = byKey(
      vars.filter((v) => v.builtIns.length === 0),
      (v) => `${v.location} ${v.blockName ?? v.name}`,
    ).map((v) => ({ name: v.blockName ?? v.name, type: v.type.replace(/ \{.*\}/, ''), location: v.location }));
    assert.deepEqual(mine, theirs, `${name}: ${dir}`);
  }

  const seen = new Set<number>();
  for (const [category, belongs] of Object.entries(CROSS_CATEGORY)) {
    const theirs = byKey((cross[category] ?? []) as Json[], (d) => `${d.set} ${String(d.binding).padStart(4)}`);
    const mine = ours.descriptorBindings.filter(belongs);
    mine.forEach((d) => seen.add(d.id));
    assert.equal(mine.length, theirs.length, `${name}: ${category} count`);
    theirs.forEach((t, i) => {
      const o = mine[i]!;
      const at = `${name}: ${category} ${t.name}`;
      assert.deepEqual([o.block?.typeName ?? o.name, o.set, o.binding], [t.name, t.set, t.binding], at);
      assert.deepEqual(o.arraySize, [...(t.array ?? [])].reverse(), `${at} array`);
      if (o.block) {
        assert.equal(o.block.size, t.block_size, `${at} block size`);
        compareMembers(at, cross, t.type, o.block.members);
      } else assert.equal(o.type.replace(/\[.*$/, ''), crossType(cross, { type: t.type }), `${at} type`);
      if (t.input_attachment_index !== undefined) assert.equal(o.inputAttachmentIndex, t.input_attachment_index, `${at} input attachment index`);
      if (t.format !== undefined) assert.equal(o.imageFormat?.toLowerCase(), t.format, `${at} format`);
      if (t.readonly) assert.equal(o.access, 'read-only', `${at} access`);
      if (t.writeonly) assert.equal(o.access, 'write-only', `${at} access`);
    });
  }
  assert.equal(seen.size, ours.descriptorBindings.length, `${name}: a descriptor spirv-cross does not list`);

  const push: Json[] = cross.push_constants ?? [];
  assert.deepEqual(
    ours.pushConstants.map((p) => p.name),
    push.map((p) => p.name),
    `${name}: push constants`,
  );
  push.forEach((p, i) => compareMembers(`${name}: push ${p.name}`, cross, p.type, ours.pushConstants[i]!.block.members));

  const specs = byKey((cross.specialization_constants ?? []) as Json[], (s) => String(s.id).padStart(6));
  assert.deepEqual(
    ours.specializationConstants.map((s) => [s.specId, s.name, s.type]),
    specs.map((s) => [s.id, s.name, s.type]),
    `${name}: specialization constants`,
  );
  specs.forEach((s, i) => {
    if (s.default_value !== undefined) assert.equal(ours.specializationConstants[i]!.defaultValue, s.default_value, `${name}: default of ${s.name}`);
  });
}

test('reflection agrees with `spirv-cross --reflect` on every corpus module', () => {
  let compared = 0;
  for (const m of corpus.modules) {
    const ours = reflectSpirv(new Uint8Array(readFileSync(m.path)));
    if (!m.spirvCross) continue;
    compareModule(m.name, ours, spirvCrossReflect(m.path));
    compared++;
  }
  assert.ok(compared >= 15, `${compared} modules`);
});

test('reflectSpirv decodes only the declarations (before the first function) and answers what reflecting the whole parsed module answers', () => {
  for (const m of corpus.modules) {
    const bytes = new Uint8Array(readFileSync(m.path));
    const declarations = parseSpirv(bytes, { declarationsOnly: true });
    assert.ok(declarations.instructions.length < parseSpirv(bytes).instructions.length || !declarations.instructions.length, m.name);
    assert.ok(!declarations.instructions.some((i) => i.opname === 'OpFunction'), m.name);
    assert.deepEqual(reflectSpirv(bytes), reflectModule(parseSpirv(bytes)), m.name);
  }
});

test('the corpus exercises every descriptor kind, and arrays of descriptors', () => {
  const all = corpus.modules.flatMap((m) => reflectSpirv(new Uint8Array(readFileSync(m.path))).descriptorBindings);
  const kinds = new Set(all.map((d) => d.kind));
  for (const k of [
    'uniform buffer',
    'storage buffer',
    'sampler',
    'combined image sampler',
    'sampled image',
    'storage image',
    'uniform texel buffer',
    'storage texel buffer',
    'input attachment',
    'acceleration structure',
  ] as const)
    assert.ok(kinds.has(k), k);
  assert.ok(
    all.some((d) => d.arraySize.length === 1 && d.arraySize[0] === 0),
    'a runtime-sized descriptor array',
  );
  assert.ok(
    all.some((d) => d.kind === 'uniform buffer' && d.arraySize[0] === 3),
    'an array of uniform blocks',
  );
});

test('readable types, execution modes, interface details and layout that spirv-cross does not report', () => {
  const load = (name: string) => reflectSpirv(new Uint8Array(readFileSync(corpus.modules.find((m) => m.name === name)!.path)));
  const vert = load('vertex-attributes.vert');
  const out = vert.entryPoints[0]!.outputs;
  assert.equal(out.find((v) => v.name === 'vout')?.type, 'struct VertexOut { vec3 worldNormal; vec2 uv; uint material; float depth; }');
  assert.deepEqual(out.find((v) => v.blockName === 'gl_PerVertex')?.builtIns, ['Position', 'PointSize']);
  assert.equal(vert.pushConstants[0]!.block.size, 72);
  assert.deepEqual(
    vert.descriptorBindings.map((d) => [d.name, d.type.replace(/ \{.*/, ''), d.block?.size]),
    [
      ['camera', 'struct Camera', 144],
      ['skin', 'struct Skin', 4096],
    ],
  );

  const frag = load('descriptor-arrays.frag');
  const fragEntry = frag.entryPoints[0]!;
  assert.deepEqual(fragEntry.executionModes, [{ mode: 'OriginUpperLeft', operands: [] }]);
  assert.deepEqual(
    fragEntry.inputs.map((v) => [v.name, v.location, v.component, v.qualifiers]),
    [
      ['index', 1, undefined, ['Flat']],
      ['uv', 0, undefined, []],
      ['depth', 0, 2, []],
    ],
  );
  const lights = frag.descriptorBindings.find((d) => d.name === 'lightBlocks')!;
  assert.equal(lights.type, 'struct Lights { struct Light[8] lights; mat3x4 transform; uint count; vec4[2][3] grid; vec2 tail; }[3]');
  assert.deepEqual(
    lights.block!.members.map((m) => [m.name, m.offset, m.size]),
    [
      ['lights', 0, 256],
      ['transform', 256, 64],
      ['count', 320, 4],
      ['grid', 336, 96],
      ['tail', 720, 8],
    ],
  );
  assert.deepEqual(
    lights.block!.members[0]!.members!.map((m) => m.name),
    ['position', 'radius', 'color'],
  );
  assert.equal(frag.pushConstants[0]!.block.members[0]!.offset, 16);

  const ssbo = load('compute-ssbo.comp').descriptorBindings.find((d) => d.block?.typeName === 'Particles')!;
  assert.deepEqual([ssbo.block!.size, ssbo.block!.runtimeArrayStride], [0, 48]);
  const subpass = load('subpass-input.frag').descriptorBindings;
  assert.deepEqual(
    subpass.map((d) => [d.kind, d.inputAttachmentIndex, d.type]),
    [
      ['input attachment', 0, 'subpassInput'],
      ['input attachment', 1, 'subpassInputMS'],
      ['input attachment', 2, 'usubpassInput'],
    ],
  );
  const literals = load('literals.comp').specializationConstants;
  assert.deepEqual(
    literals.map((s) => [s.name, s.type, typeof s.defaultValue]),
    [
      ['BIG_SPEC', 'int64_t', 'string'],
      ['SPEC_D', 'double', 'number'],
    ],
  );
  const geom = load('geometry.geom').entryPoints[0]!;
  assert.ok(
    geom.executionModes.some((m) => m.mode === 'Invocations' || m.mode === 'OutputVertices'),
    JSON.stringify(geom.executionModes),
  );
});

test('strata shader inspect FILE: tables for people, --json for machines (the same reflection); exit 1 and a diagnostic for a bad module', () => {
  const home = makeTempHome();
  try {
    const m = corpus.modules.find((x) => x.name === 'compute-ssbo.comp')!;
    const human = runStrata(['shader', 'inspect', m.path], home.env);
    assert.equal(human.status, 0, human.stderr);
    assert.equal(human.stderr, '');
    assert.match(human.stdout, /^  comp +main +GLCompute +LocalSize 1 4 1, workgroup size 1 \(SpecId 0\) 4 1$/m);
    assert.match(human.stdout, /^  0 +1 +storage buffer, read-only +1 +params +struct Params$/m);
    assert.match(human.stdout, /^Block Particles \(set 0, binding 0, 0 bytes \+ 48 per runtime array element\)$/m);
    assert.match(human.stdout, /^  1 +SCALE +uint +3$/m);

    const json = runStrata(['shader', 'inspect', m.path, '--json'], home.env);
    assert.equal(json.status, 0, json.stderr);
    const parsed = ShaderInspectionSchema.parse(JSON.parse(json.stdout));
    assert.deepEqual(parsed.reflection, reflectSpirv(new Uint8Array(readFileSync(m.path))));
    assert.deepEqual([parsed.ok, parsed.summary?.memoryModel, parsed.summary?.capabilities], [true, 'GLSL450', ['Shader']]);

    const broken = join(corpus.dir, 'inspect-truncated.spv');
    writeFileSync(broken, readFileSync(m.path).subarray(0, 40));
    const bad = runStrata(['shader', 'inspect', broken], home.env);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /inspect-truncated\.spv: word \d+: error: .*\[spirv\/truncated-instruction\]/);
  } finally {
    home.cleanup();
  }
});

// Found by the fuzz (tests/integration/shader-fuzz.test.ts): a corrupt module whose block struct
// contains itself, eight times over, made block sizes and member lists grow as 8^depth. Only a
// module spirv-val refuses can say this; reflection must still answer, with bounded output.
test('a struct that contains itself (a corrupt module): reflection answers, with an unknown size and bounded members', () => {
  const source = join(corpus.dir, 'self-struct.spvasm');
  const path = join(corpus.dir, 'self-struct.spv');
  writeFileSync(
    source,
    [
      'OpCapability Shader',
      'OpMemoryModel Logical GLSL450',
      'OpEntryPoint GLCompute %main "main"',
      'OpExecutionMode %main LocalSize 1 1 1',
      'OpDecorate %s Block',
      ...Array.from({ length: 8 }, (_, i) => `OpMemberDecorate %s ${i} Offset ${i * 16}`),
      'OpDecorate %u DescriptorSet 0',
      'OpDecorate %u Binding 0',
      '%void = OpTypeVoid',
      '%fn = OpTypeFunction %void',
      `%s = OpTypeStruct ${Array.from({ length: 8 }, () => '%s').join(' ')}`,
      '%ptr = OpTypePointer Uniform %s',
      '%u = OpVariable %ptr Uniform',
      '%main = OpFunction %void None %fn',
      '%l = OpLabel',
      'OpReturn',
      'OpFunctionEnd',
      '',
    ].join('\n'),
  );
  execFileSync('spirv-as', [source, '-o', path], { stdio: 'pipe' });
  const r = reflectSpirv(new Uint8Array(readFileSync(path)));
  const block = r.descriptorBindings[0]?.block;
  assert.ok(block, JSON.stringify(r.descriptorBindings));
  assert.equal(block.size, 0, 'no size: the struct would be infinite');
  const count = (ms: BlockMember[]): number => ms.reduce((n, m) => n + 1 + count(m.members ?? []), 0);
  assert.equal(block.members.length, 8);
  assert.ok(count(block.members) <= 8 + 64, `${count(block.members)} members listed: the struct is not expanded inside itself`);
});
