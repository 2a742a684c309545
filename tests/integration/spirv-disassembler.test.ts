import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildShaderCorpus, spirvDis, type ShaderCorpus } from '../helpers/shader-corpus';
import { disassembleSpirv } from '../../shared/shader/spirv-disassembler';
import { parseSpirv } from '../../shared/shader/spirv-instructions';
import { ShaderDisassemblySchema } from '../../shared/shader/shader-disassembly';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { seededRandom } from '../helpers/seeded-random';

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
  for (const ext of ['.vert', '.frag', '.comp', '.tesc', '.tese', '.geom', '.rgen', '.mesh', '.spvasm']) assert.ok(names.some((n) => n.endsWith(ext)), ext);
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
    const ours = disassembleSpirv(bytesOf(m.path));
    assert.deepEqual(ours.diagnostics, [], m.name);
    assert.ok(ours.ok, m.name);
    const actual = Buffer.from(ours.text, 'utf8');
    assert.ok(actual.equals(expected), `${m.name}: ${firstDifference(ours.text, expected.toString('utf8'))}`);
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
  }
});

test('the generator line: registered ids by vendor and tool, unregistered ones as Unknown(n), like spirv-dis', () => {
  const source = bytesOf(corpus.modules[0]!.path);
  for (const generator of [0x0001_0005, 0x0008_000b, 0x7fff_ffff, 0]) {
    const patched = source.slice();
    new DataView(patched.buffer).setUint32(8, generator, true);
    const path = join(corpus.dir, `generator-${generator}.spv`);
    writeFileSync(path, patched);
    assert.equal(disassembleSpirv(patched).text, spirvDis(path).toString('utf8'), `generator 0x${generator.toString(16)}`);
  }
});


test('fuzz: 10,000 seeded mutations through reader and disassembler, no exception, each diagnosed or disassembled', () => {
  const rand = seededRandom(0x5eed_0003);
  const pick = (n: number) => Math.floor(rand() * n);
  const sources = corpus.modules.map((m) => bytesOf(m.path));
  let diagnosed = 0;
  for (let i = 0; i < 10_000; i++) {
    const source = sources[pick(sources.length)]!;
    let bytes = source.slice();
    const view = new DataView(bytes.buffer);
    const words = bytes.length >>> 2;
    const mutations = 1 + pick(4);
    for (let k = 0; k < mutations; k++) {
      switch (pick(7)) {
        case 0: // flip a bit
          bytes[pick(bytes.length)]! ^= 1 << pick(8);
          break;
        case 1: // a random word
          view.setUint32(4 * pick(words), (rand() * 2 ** 32) >>> 0, true);
          break;
        case 2: // a word count of an instruction-looking word: 0, small or huge
          view.setUint32(4 * (5 + pick(Math.max(1, words - 5))), ((pick(3) === 0 ? 0 : pick(3) === 0 ? 0xffff : pick(8)) << 16) | pick(400), true);
          break;
        case 3: // truncate anywhere, also mid-word
          bytes = bytes.slice(0, pick(bytes.length + 1));
          break;
        case 4: // an opcode from the grammar's range with the operands left as they are
          view.setUint16(4 * (5 + pick(Math.max(1, words - 5))), pick(6000), true);
          break;
        case 5: // an id out of bound
          view.setUint32(4 * (5 + pick(Math.max(1, words - 5))), 0xfffff + pick(100), true);
          break;
        default: // drop the NUL of strings by overwriting with letters
          bytes.fill(0x41, pick(bytes.length), pick(bytes.length));
      }
      if (bytes.length < 4) break;
    }
    const result = disassembleSpirv(bytes);
    assert.equal(typeof result.text, 'string');
    if (result.diagnostics.length) diagnosed++;
    for (const d of result.diagnostics) assert.match(String(d.code), /^spirv\//);
  }
  assert.ok(diagnosed > 5_000, `only ${diagnosed} of 10,000 mutants had a diagnostic`);
  // Speed is measured in bench/spirv-dis.bench.ts, not asserted here.
});

test('strata shader dis FILE --raw-id prints exactly what spirv-dis prints; a corrupt file exits 1 with its diagnostic', () => {
  const home = makeTempHome();
  try {
    const m = corpus.modules.find((x) => x.name.endsWith('.frag'))!;
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
    assert.deepEqual(json.diagnostics.map((d) => d.code), ['spirv/truncated-instruction', 'spirv/not-word-aligned']);

    const missing = runStrata(['shader', 'dis', join(corpus.dir, 'nope.spv')], home.env);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^strata: Cannot read the SPIR-V file: ENOENT \(.*nope\.spv\)\. Fix: check the path\n$/);
  } finally {
    home.cleanup();
  }
});
