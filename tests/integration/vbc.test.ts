import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildShaderCorpus, spirvDis, spirvDisFriendly, type ShaderCorpus } from '../helpers/shader-corpus';
import { inspectShaderBytes, packShaderBytes } from '../../main/shaders/shader-service';
import { ShaderInspectBytesSchema } from '../../shared/shader/shader-inspect-bytes';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { ShaderInspectionSchema } from '../../shared/shader/shader-inspection';
import { reflectSpirv } from '../../shared/shader/spirv-reflect';
import { inspectVbc, packVbc, type VbcStageInput } from '../../shared/shader/vbc';
import { BaseType, TexelRank } from '../../shared/shader/vbc-enums';
import { decodeVbc, encodeVbc, emptyVbcReflection, VBC_HEADER_BYTES } from '../../shared/shader/vbc-format';
import { deriveVbcReflection } from '../../shared/shader/vbc-reflection';

/**
 * VBC files (docs/vbc.md): corpus stages packed, inspected, cross-checked and round-tripped; one
 * hand-made malformed file per decoder diagnostic; and a seeded fuzz of mutated packed files.
 */
let corpus: ShaderCorpus;
let dir: string;
before(() => {
  corpus = buildShaderCorpus();
  dir = mkdtempSync(join(tmpdir(), 'strata-vbc-'));
});
after(() => {
  corpus?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const spv = (name: string) => new Uint8Array(readFileSync(corpus.modules.find((m) => m.name === name)!.path));
const SETS: Record<string, Record<string, string>> = {
  'vert+frag': { vert: 'vertex-attributes.vert', frag: 'fragment-outputs.frag' },
  tessellation: { tesc: 'tessellation.tesc', tese: 'tessellation.tese' },
  geometry: { geom: 'geometry.geom' },
  subpass: { frag: 'subpass-input.frag' },
};
const stagesOf = (set: Record<string, string>): VbcStageInput => Object.fromEntries(Object.entries(set).map(([stage, name]) => [stage, spv(name)]));
const codes = (bytes: Uint8Array) => inspectVbc(bytes).diagnostics.map((d) => d.code);

test('corpus stages pack into VBC files that decode, cross-check clean and round-trip', () => {
  for (const [label, set] of Object.entries(SETS)) {
    const stages = stagesOf(set);
    const packed = packVbc(stages);
    assert.equal(packed.ok, true, `${label}: ${packed.diagnostics.map((d) => d.message).join('; ')}`);
    const bytes = packed.bytes!;
    const inspection = inspectVbc(bytes);
    assert.deepEqual(inspection.diagnostics, [], label);
    assert.equal(inspection.ok, true, label);
    // Round trip: the decoded reflection is the packed one, each stage's bytes are the module's, re-encoding gives the same bytes.
    const decoded = decodeVbc(bytes);
    assert.deepEqual(decoded.reflection, packed.reflection, `${label}: reflection`);
    for (const [stage, module] of Object.entries(stages))
      assert.deepEqual(decoded.stages.find((s) => s.stage === stage)?.bytes, module, `${label}: ${stage} bytecode`);
    assert.deepEqual(encodeVbc(decoded.reflection, Object.fromEntries(decoded.stages.map((s) => [s.stage, s.bytes]))), bytes, `${label}: re-encoded`);
    // Each stage's inspection is the SPIR-V module's own reflection.
    for (const s of inspection.stages!) assert.deepEqual(s.reflection, reflectSpirv(stages[s.stage]!), `${label}: ${s.stage} reflection`);
    assert.equal(inspection.vbc!.sections.at(-1)!.byteOffset + inspection.vbc!.sections.at(-1)!.byteLength, bytes.length, `${label}: sections cover the file`);
    writeFileSync(join(dir, `${label}.vbc`), bytes);
  }
});

test('the mapping: uniform, ROBuffer for a second uniform block, samplers with ranks, a separate sampler, subpass inputs, stage masks', () => {
  const r = packVbc(stagesOf(SETS['vert+frag']!)).reflection!;
  assert.deepEqual(r.uniform && [r.uniform.size, r.uniform.stageMask, r.uniform.members.map((m) => [m.name, m.offset, m.baseType, m.dims, m.arraySize])], [
    144,
    1,
    [
      ['view', 0, BaseType.Float, [4, 4], 1],
      ['projection', 64, BaseType.Float, [4, 4], 1],
      ['eye', 128, BaseType.Float, [4, 1], 1],
    ],
  ]);
  assert.deepEqual(r.bindings[0], { layout: 'buffer', slot: 0, baseType: BaseType.ROBuffer, stageMask: 1, bufferSize: 4096 });
  assert.deepEqual(
    r.bindings.slice(1).map((b) => (b.layout === 'texel' ? [b.slot, b.baseType, b.stageMask, b.rank] : [])),
    [
      [1, BaseType.Sampler, 16, TexelRank.E2D],
      [2, BaseType.Sampler, 16, TexelRank.E2D],
      [3, BaseType.Sampler, 16, TexelRank.Cube],
      [4, BaseType.Sampler, 16, TexelRank.E2D],
      [5, BaseType.Sampler, 16, TexelRank.None],
      [6, BaseType.Sampler, 16, TexelRank.E2DArray],
    ],
  );
  assert.deepEqual(
    r.vertexInputs.map((v) => [v.location, v.baseType, v.dims]),
    [
      [0, 4, [3, 1]],
      [1, 4, [3, 1]],
      [2, 4, [2, 1]],
      [3, 3, [4, 1]],
      [4, 4, [4, 1]],
      [5, 2, [2, 1]],
    ],
  );
  assert.deepEqual(
    r.fragmentOutputs.map((v) => [v.location, v.baseType, v.dims]),
    [
      [0, 4, [4, 1]],
      [1, 4, [4, 1]],
      [2, 3, [1, 1]],
      [3, 4, [1, 1]],
    ],
  );
  const subpass = packVbc(stagesOf(SETS['subpass']!)).reflection!;
  assert.deepEqual(subpass.subpassInputs, [
    { texelType: 2, components: 4 },
    { texelType: 2, components: 4 },
    { texelType: 1, components: 4 },
  ]);
  const geom = packVbc(stagesOf(SETS['geometry']!)).reflection!;
  assert.deepEqual(geom.uniform?.members, [{ name: 'viewProjection', offset: 0, baseType: BaseType.Float, dims: [4, 4], arraySize: 2 }]);
});

test('packing refuses stages that do not link, do not pair, are not their stage, or that VBC cannot describe', () => {
  const fail = (stages: VbcStageInput) => {
    const p = packVbc(stages);
    assert.equal(p.ok, false);
    assert.equal(p.bytes, null);
    return p.diagnostics.map((d) => d.code);
  };
  assert.ok(fail({ tesc: spv('tessellation.tesc'), tese: spv('tessellation.tese'), frag: spv('fragment-outputs.frag') }).includes('vbc/stage-link-mismatch'));
  assert.ok(fail({ tesc: spv('tessellation.tesc') }).includes('vbc/unpaired-tessellation'));
  assert.ok(fail({ vert: spv('fragment-outputs.frag') }).includes('vbc/stage-model-mismatch'));
  assert.ok(fail({ frag: spv('descriptor-arrays.frag') }).includes('vbc/unrepresentable'));
  assert.ok(fail({ frag: spv('fragment-outputs.frag').subarray(0, 41) }).includes('spirv/truncated-instruction'));
  assert.deepEqual(fail({}), ['vbc/no-stages']);
});

test('cross-check: a packed file whose reflection was changed reports each mismatch', () => {
  const stages = stagesOf(SETS['vert+frag']!);
  const good = packVbc(stages).reflection!;
  const edit = (change: (r: typeof good) => void) => {
    const r = structuredClone(good);
    change(r);
    return codes(encodeVbc(r, stages));
  };
  assert.deepEqual(
    edit((r) => (r.vertexInputs[1]!.dims = [4, 1])),
    ['vbc/vertex-input-mismatch'],
  );
  assert.deepEqual(
    edit((r) => r.vertexInputs.pop()),
    ['vbc/vertex-input-mismatch'],
  );
  assert.deepEqual(
    edit((r) => (r.fragmentOutputs[2]!.baseType = BaseType.Signed)),
    ['vbc/fragment-output-mismatch'],
  );
  assert.deepEqual(
    edit((r) => (r.bindings[0]!.stageMask = 0x11)),
    ['vbc/stage-mask-mismatch'],
  );
  assert.deepEqual(
    edit((r) => (r.bindings[1]!.baseType = BaseType.Image)),
    ['vbc/binding-mismatch'],
  );
  assert.deepEqual(
    edit((r) => (r.uniform!.members[1]!.offset = 80)),
    ['vbc/uniform-mismatch'],
  );
  assert.deepEqual(
    edit((r) => (r.uniform!.stageMask = 0x10)),
    ['vbc/stage-mask-mismatch'],
  );
  assert.deepEqual(
    edit((r) => r.subpassInputs.push({ texelType: 2, components: 4 })),
    ['vbc/subpass-input-mismatch'],
  );
});

/** A minimal valid header (one 5-word vertex stage) and reflection, for hand-made malformed files. */
function handMade(patch: (b: number[]) => void = () => {}): Uint8Array {
  const b = [...encodeVbc(emptyVbcReflection(), { vert: new Uint8Array(20) })];
  patch(b);
  return new Uint8Array(b);
}
const u32le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];

test('malformed VBC files each give their diagnostic code, with a byte offset', () => {
  const first = (bytes: Uint8Array, code: string) => {
    const d = inspectVbc(bytes).diagnostics.find((x) => x.code === code);
    assert.ok(d, `${code} in ${JSON.stringify(codes(bytes))}`);
    assert.equal((d.data as { byteOffset: number }).byteOffset, d.range.start.character);
    return d;
  };
  assert.equal(first(handMade().subarray(0, 24), 'vbc/truncated-header').range.start.character, 0);
  assert.equal(first(new Uint8Array(), 'vbc/truncated-header').range.end.character, 0);
  assert.equal(
    first(
      handMade((b) => (b[1] = 0x43)),
      'vbc/bad-magic',
    ).range.start.character,
    0,
  );
  assert.equal(
    first(
      handMade((b) => (b[3] = 2)),
      'vbc/unsupported-version',
    ).range.start.character,
    3,
  );
  // The vertex-inputs count says 1000 entries: 8000 bytes past the end.
  assert.equal(
    first(
      handMade((b) => b.splice(25, 4, ...u32le(1000))),
      'vbc/section-past-end',
    ).range.start.character,
    25,
  );
  // In a real file the same count fits in the file but runs into the stages' SPIR-V: one precise
  // finding at the count, not thousands about SPIR-V words read as vertex inputs.
  const real = packVbc(stagesOf(SETS['vert+frag']!)).bytes!.slice();
  real.set(u32le(1000), 25);
  assert.deepEqual(
    inspectVbc(real).diagnostics.map((d) => [d.code, d.range.start.character]),
    [['vbc/section-past-end', 25]],
  );
  assert.match(inspectVbc(real).diagnostics[0]!.message, /says 1000 entries of 8 bytes, 8000 bytes, but the stages' SPIR-V starts at byte \d+/);
  // The file ends inside the fragment-outputs count.
  first(handMade().subarray(0, 31), 'vbc/section-past-end');
  // Five subpass inputs (the section is the last before the bytecode, at 25 + 4 + 4 + 4 + 2).
  const fiveInputs = handMade((b) => b.splice(39, 4, ...u32le(5), ...Array.from({ length: 5 }, () => [2, 4, 0, 0]).flat()));
  assert.equal(first(fiveInputs, 'vbc/too-many-subpass-inputs').range.start.character, 39);
  // One sampler binding at slot 40 (table size patched to match).
  const slot40 = handMade((b) => {
    b.splice(33, 4, ...u32le(1), 40, BaseType.Sampler, 1, 0, TexelRank.E2D, 2, 4, 4);
    b[15] = 1;
  });
  assert.equal(first(slot40, 'vbc/slot-out-of-range').range.start.character, 37);
  assert.ok(!codes(slot40).includes('vbc/binding-table-mismatch'));
  // Bytecode sizes that do not match what follows: too many words, and bytes left over.
  first(
    handMade((b) => (b[5] = 6)),
    'vbc/bytecode-size-mismatch',
  );
  first(
    handMade((b) => b.push(0, 0, 0, 0)),
    'vbc/bytecode-size-mismatch',
  );
  first(
    handMade((b) => (b[15] = 3)),
    'vbc/binding-table-mismatch',
  );
  first(
    handMade((b) => b.splice(33, 4, ...u32le(1), 0, 42, 1, 0, 0, 0, 0, 0)),
    'vbc/bad-base-type',
  );
  first(
    handMade((b) => b.splice(33, 4, ...u32le(1), 0, BaseType.Sampler, 0x20, 0, 1, 2, 4, 4)),
    'vbc/bad-stage-mask',
  );
  first(
    handMade((b) => b.splice(33, 4, ...u32le(1), 0, BaseType.Sampler, 1, 0, 1, 2, 4, 3)),
    'vbc/bad-texel-components',
  );
  first(
    handMade((b) => (b[5] = b[6] = 0)),
    'vbc/no-stages',
  );
  assert.ok(VBC_HEADER_BYTES === 25);
});

// Fuzzing (VBC files among the rest): tests/integration/shader-fuzz.test.ts.

test('the Shaders panel’s channels: shader.pack answers the packed file; shader.inspectBytes shows each stage’s own texts (as spirv-dis prints them) and reflection', () => {
  const set = SETS['vert+frag']!;
  const stages = Object.fromEntries(Object.entries(set).map(([stage, name]) => [stage, Buffer.from(spv(name)).toString('base64')]));
  const packed = packShaderBytes({ stages });
  assert.equal(packed.ok, true, JSON.stringify(packed.diagnostics));
  const bytes = new Uint8Array(Buffer.from(packed.base64!, 'base64'));
  assert.deepEqual(bytes, packVbc(stagesOf(set)).bytes);
  assert.equal(packed.byteLength, bytes.length);

  const shown = ShaderInspectBytesSchema.parse(inspectShaderBytes({ name: 'packed.vbc', base64: packed.base64! }));
  assert.equal(shown.format, 'vbc');
  assert.equal(shown.ok, true);
  assert.deepEqual(
    shown.stageDisassemblies?.map((s) => s.stage),
    ['vert', 'frag'],
  );
  for (const s of shown.stageDisassemblies!) {
    const path = corpus.modules.find((m) => m.name === set[s.stage])!.path;
    assert.equal(s.disassembly, spirvDisFriendly(path).toString('utf8'), `${s.stage} friendly`);
    assert.equal(s.rawDisassembly, spirvDis(path).toString('utf8'), `${s.stage} raw`);
    assert.deepEqual(shown.stages?.find((x) => x.stage === s.stage)?.reflection, reflectSpirv(spv(set[s.stage]!)), `${s.stage} reflection`);
  }

  const refused = packShaderBytes({ stages: { tesc: Buffer.from(spv('tessellation.tesc')).toString('base64') } });
  assert.deepEqual([refused.ok, refused.base64], [false, null]);
  assert.ok(refused.diagnostics.some((d) => d.code === 'vbc/unpaired-tessellation'));
});

test('derivation and cross-check agree on every corpus module that VBC can describe on its own', () => {
  const model: Record<string, string> = { vert: 'vert', tesc: 'tesc', tese: 'tese', geom: 'geom', frag: 'frag' };
  let packedCount = 0;
  for (const m of corpus.modules) {
    const stage = model[m.name.split('.').pop()!];
    if (!stage || !m.validateArgs) continue;
    const bytes = new Uint8Array(readFileSync(m.path));
    const derived = deriveVbcReflection([{ stage: stage as 'vert', reflection: reflectSpirv(bytes) }]);
    const p = packVbc({ [stage]: bytes });
    if (stage === 'tesc' || stage === 'tese')
      assert.ok(
        p.diagnostics.some((d) => d.code === 'vbc/unpaired-tessellation'),
        m.name,
      );
    else assert.equal(p.ok, derived.problems.length === 0, `${m.name}: ${derived.problems.map((x) => x.message).join('; ')}`);
    if (p.bytes) {
      assert.deepEqual(codes(p.bytes), [], m.name);
      packedCount++;
    }
  }
  assert.ok(packedCount >= 4, `${packedCount} single-stage files`);
});

test('strata shader pack / inspect: writes the file, shows header, sections and stages, --json parses; exit 1 and no file when the stages do not link', () => {
  const home = makeTempHome();
  try {
    const [vert, frag] = ['vertex-attributes.vert', 'fragment-outputs.frag'].map((n) => corpus.modules.find((m) => m.name === n)!.path);
    const out = join(dir, 'cli.vbc');
    const pack = runStrata(['shader', 'pack', '--vert', vert!, '--frag', frag!, '-o', out], home.env);
    assert.equal(pack.status, 0, pack.stderr);
    assert.deepEqual(new Uint8Array(readFileSync(out)), packVbc(stagesOf(SETS['vert+frag']!)).bytes);

    const human = runStrata(['shader', 'inspect', out], home.env);
    assert.equal(human.status, 0, human.stderr);
    assert.equal(human.stderr, '');
    assert.match(human.stdout, /^VBC version 1, shader type 1 \(graphics\)$/m);
    assert.match(human.stdout, /^Binding tables: samplers 6, images 0, buffers 1, rotexels 0, rwtexels 0$/m);
    assert.match(human.stdout, /^  0 +ROBuffer +vert +4096 bytes$/m);
    assert.match(human.stdout, /^Uniform \(144 bytes, vert\)$/m);
    assert.match(human.stdout, /^Stage frag \(bytes \d+–\d+\)$/m);

    const json = runStrata(['shader', 'inspect', out, '--json'], home.env);
    assert.equal(json.status, 0, json.stderr);
    const parsed = ShaderInspectionSchema.parse(JSON.parse(json.stdout));
    assert.equal(parsed.format, 'vbc');
    assert.deepEqual(
      parsed.stages?.map((s) => s.stage),
      ['vert', 'frag'],
    );
    assert.deepEqual(
      parsed.vbc?.header?.bytecodeWords.map((w) => w > 0),
      [true, false, false, false, true],
    );

    // dis: each stage's spirv-dis text under a line naming the stage.
    const dis = runStrata(['shader', 'dis', out], home.env);
    assert.equal(dis.status, 0, dis.stderr);
    const [, vertText, fragText] = dis.stdout.split(/^; Stage (?:vert|frag): bytes \d+–\d+ of the file\n/m);
    assert.equal(vertText, `${spirvDisFriendly(vert!).toString('utf8')}\n`);
    assert.equal(fragText, spirvDisFriendly(frag!).toString('utf8'));
    const validate = runStrata(['shader', 'validate', out], home.env);
    assert.equal(validate.status, 0, validate.stdout);

    const bad = join(dir, 'unlinked.vbc');
    const tesc = corpus.modules.find((m) => m.name === 'tessellation.tesc')!.path;
    const tese = corpus.modules.find((m) => m.name === 'tessellation.tese')!.path;
    const refused = runStrata(['shader', 'pack', '--tesc', tesc, '--tese', tese, '--frag', frag!, '-o', bad], home.env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /\[vbc\/stage-link-mismatch\]/);
    assert.equal(existsSync(bad), false);

    const broken = join(dir, 'broken.vbc');
    writeFileSync(broken, readFileSync(out).subarray(0, 30));
    const inspectBroken = runStrata(['shader', 'inspect', broken], home.env);
    assert.equal(inspectBroken.status, 1);
    assert.match(inspectBroken.stderr, /broken\.vbc: byte 25: error: .*\[vbc\/section-past-end\]/);

    // A .vbc file whose magic is damaged is diagnosed as VBC, not as "not SPIR-V".
    const magic = join(dir, 'magic.vbc');
    const damaged = readFileSync(out);
    damaged[2] = 0x58;
    writeFileSync(magic, damaged);
    const inspectMagic = runStrata(['shader', 'validate', magic], home.env);
    assert.equal(inspectMagic.status, 1);
    assert.match(inspectMagic.stdout, /magic\.vbc: byte 0: error: Bytes 0–2 are 56 42 58, not the ASCII "VBC" .*\[vbc\/bad-magic\]/);
  } finally {
    home.cleanup();
  }
});
