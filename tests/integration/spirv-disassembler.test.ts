import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildShaderCorpus, spirvDis, spirvDisFriendly, type ShaderCorpus } from '../helpers/shader-corpus';
import { disassembleModule, disassembleSpirv, disassembleSpirvUtf8, disassemblyTexts } from '../../shared/shader/spirv-disassembler';
import { parseSpirv } from '../../shared/shader/spirv-instructions';
import { ShaderDisassemblySchema } from '../../shared/shader/shader-disassembly';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';

/** Needs spirv-tools (spirv-dis, spirv-val, spirv-as) and glslang-tools (glslangValidator). */
let corpus: ShaderCorpus;
before(() => {
  corpus = buildShaderCorpus();
});
after(() => corpus?.cleanup());

const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

function byteSwapped(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    out[i] = bytes[i + 3]!;
    out[i + 1] = bytes[i + 2]!;
    out[i + 2] = bytes[i + 1]!;
    out[i + 3] = bytes[i]!;
  }
  return out;
}

/** The first differing line, so a failure says where, not just "not equal". */
function firstDifference(ours: string, theirs: string): string {
  const a = ours.split('\n');
  const b = theirs.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return `line ${i + 1}:\n  strata:    ${a[i]}\n  spirv-dis: ${b[i]}`;
  return 'no line differs';
}

test('the corpus covers every stage and feature the disassembler must handle', () => {
  const names = corpus.modules.map((m) => m.name);
  for (const ext of ['.vert', '.frag', '.comp', '.tesc', '.tese', '.geom', '.rgen', '.mesh', '.spvasm'])
    assert.ok(
      names.some((n) => n.endsWith(ext)),
      ext,
    );
  assert.ok(corpus.modules.length >= 14, names.join(', '));
});

test('spirv-val accepts every compiled corpus module', () => {
  for (const m of corpus.modules) {
    if (!m.validateArgs) continue;
    try {
      execFileSync('spirv-val', [...m.validateArgs, m.path], { stdio: 'pipe' });
    } catch (e) {
      assert.fail(`${m.name}: ${String((e as { stderr?: Buffer }).stderr ?? e)}`);
    }
  }
});

test('disassembly equals `spirv-dis --raw-id` byte for byte, for every corpus module', () => {
  for (const m of corpus.modules) {
    const expected = spirvDis(m.path);
    const ours = disassembleSpirv(bytesOf(m.path), { rawIds: true });
    assert.deepEqual(ours.diagnostics, [], m.name);
    assert.ok(ours.ok, m.name);
    const actual = Buffer.from(ours.text, 'utf8');
    assert.ok(actual.equals(expected), `${m.name}: ${firstDifference(ours.text, expected.toString('utf8'))}`);
    // The CLI's form: the same text, as the bytes it writes.
    assert.ok(Buffer.from(disassembleSpirvUtf8(bytesOf(m.path), { rawIds: true }).utf8).equals(expected), `${m.name} (UTF-8 bytes)`);
  }
});

// The friendly names follow SPIRV-Tools' FriendlyNameMapper; spirv-names.frag and
// spirv-names-edge.spvasm are there to stress them (duplicate and odd OpNames, names that look made
// up, every scalar width, kernel types, built-ins, late OpNames).
test('disassembly with friendly names equals plain `spirv-dis` byte for byte, for every corpus module', () => {
  const names = corpus.modules.map((m) => m.name);
  assert.ok(names.includes('spirv-names.frag') && names.includes('spirv-names-edge.spvasm'), names.join(', '));
  for (const m of corpus.modules) {
    const expected = spirvDisFriendly(m.path);
    const parsed = parseSpirv(bytesOf(m.path));
    for (const ours of [disassembleSpirv(bytesOf(m.path)), disassembleModule(parsed)]) {
      assert.deepEqual(ours.diagnostics, [], m.name);
      assert.ok(Buffer.from(ours.text, 'utf8').equals(expected), `${m.name}: ${firstDifference(ours.text, expected.toString('utf8'))}`);
    }
    // As bytes (the CLI's form), names that are not ASCII included (spirv-names-edge.spvasm).
    assert.ok(Buffer.from(disassembleSpirvUtf8(bytesOf(m.path)).utf8).equals(expected), `${m.name} (UTF-8 bytes)`);
    // The panel's pair of texts: the same two, and every name it links is a name spirv-dis printed.
    const texts = disassemblyTexts(parsed);
    assert.equal(texts.disassembly, expected.toString('utf8'), m.name);
    assert.equal(texts.rawDisassembly, spirvDis(m.path).toString('utf8'), m.name);
    for (const [id, name] of texts.idNames)
      assert.ok(texts.disassembly.includes(`%${name} = `) || !texts.rawDisassembly.includes(`%${id} = `), `${m.name}: %${id} → %${name}`);
  }
});

test('friendly names: collisions get _0, _1 …; odd bytes become _; an empty name is _; OpName wins over types and built-ins', () => {
  const text = disassembleSpirv(bytesOf(corpus.modules.find((m) => m.name === 'spirv-names-edge.spvasm')!.path)).text;
  for (const line of [
    '               OpName %x_0_0 "x_0"', // "x_0" was taken by the second "x"
    '               OpName %__n__ "ünï"', // two bytes each for ü and ï
    '               OpName %_ ""',
    '               OpName %__0 ""',
    '       %uint = OpTypeFloat 32', // OpName "uint" on the float type, so the real uint is uint_0
    '     %uint_0 = OpTypeInt 32 0',
    '       %char = OpTypeInt 8 1',
    '%long_n9223372036854775808 = OpConstant %long -9223372036854775808',
    '%half_0x1_8p_1 = OpConstant %half 0x1.8p+1',
    '    %int_7_0 = OpConstant %int 7',
    '     %true_0 = OpConstantTrue %bool',
    ' %_struct_59 = OpTypeStruct %_ %__0',
    '%Opaque_my_opaque_type = OpTypeOpaque "my.opaque type"',
    '%gl_Position_0 = OpVariable %_ptr_Output_v4uint Output', // BuiltIn Position, but OpName took gl_Position
    '%SubgroupEqMaskKHR = OpVariable %_ptr_Input_v4uint_0 Input',
    '         %79 = OpCopyObject %uint %78', // its OpName comes after it: too late
  ]) {
    assert.ok(text.split('\n').includes(line), line);
  }
});

// Not compared with spirv-dis: SPIRV-Tools 2023.1 reads a big-endian module's literal strings in file
// byte order ("GLSL.std.450" becomes "LSLGdts.054." and it refuses the import), whereas the
// specification packs a string's octets into *words* low-order first (SPIR-V § 2.2.1 Literal String).
test('a byte-swapped (big-endian) module disassembles to the same text as the original', () => {
  for (const m of corpus.modules) {
    const little = bytesOf(m.path);
    const big = byteSwapped(little);
    const swapped = parseSpirv(big);
    assert.equal(swapped.header?.endianness, 'big', m.name);
    assert.equal(parseSpirv(little).header?.endianness, 'little', m.name);
    assert.equal(disassembleSpirv(big).text, disassembleSpirv(little).text, m.name);
    assert.equal(disassembleSpirv(big, { rawIds: true }).text, disassembleSpirv(little, { rawIds: true }).text, m.name);
  }
});

test('the generator line: registered ids by vendor and tool, unregistered ones as Unknown(n), like spirv-dis', () => {
  const source = bytesOf(corpus.modules[0]!.path);
  for (const generator of [0x0001_0005, 0x0008_000b, 0x7fff_ffff, 0]) {
    const patched = source.slice();
    new DataView(patched.buffer).setUint32(8, generator, true);
    const path = join(corpus.dir, `generator-${generator}.spv`);
    writeFileSync(path, patched);
    assert.equal(disassembleSpirv(patched, { rawIds: true }).text, spirvDis(path).toString('utf8'), `generator 0x${generator.toString(16)}`);
  }
});

// Fuzzing (reader, disassembler, validation, reflection, VBC): tests/integration/shader-fuzz.test.ts.

test('strata shader disassemble FILE prints exactly what spirv-dis prints, --raw-id what spirv-dis --raw-id prints; a corrupt file exits 1 with its diagnostic', () => {
  const home = makeTempHome();
  try {
    const m = corpus.modules.find((x) => x.name === 'spirv-names.frag')!;
    const friendly = runStrata(['shader', 'dis', m.path], home.env);
    assert.equal(friendly.status, 0, friendly.stderr);
    assert.equal(friendly.stdout, spirvDisFriendly(m.path).toString('utf8'));
    assert.equal(friendly.stderr, '');
    const r = runStrata(['shader', 'dis', m.path, '--raw-id'], home.env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, spirvDis(m.path).toString('utf8'));
    assert.equal(r.stderr, '');

    const broken = join(corpus.dir, 'broken.spv');
    writeFileSync(broken, bytesOf(m.path).slice(0, 34));
    const b = runStrata(['shader', 'dis', broken, '--json'], home.env);
    assert.equal(b.status, 1, b.stderr);
    const json = ShaderDisassemblySchema.parse(JSON.parse(b.stdout));
    assert.equal(json.ok, false);
    assert.deepEqual(
      json.diagnostics.map((d) => d.code),
      ['spirv/truncated-instruction', 'spirv/not-word-aligned'],
    );

    const missing = runStrata(['shader', 'dis', join(corpus.dir, 'nope.spv')], home.env);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^strata: Cannot read the SPIR-V file: ENOENT \(.*nope\.spv\)\. Fix: check the path\n$/);
  } finally {
    home.cleanup();
  }
});
