import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildShaderCorpus, type ShaderCorpus } from '../helpers/shader-corpus';
import { validateSpirv } from '../../shared/shader/spirv-validate';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';

/**
 * Logical-layout validation (SPIR-V § 2.4) with spirv-val as ground truth: what spirv-val accepts
 * gives no diagnostic, and each hand-made faulty module gives its code *and* is rejected by spirv-val.
 * Needs spirv-tools (spirv-as, spirv-val) and glslang-tools.
 */
let corpus: ShaderCorpus;
before(() => {
  corpus = buildShaderCorpus();
});
after(() => corpus?.cleanup());

const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

function spirvVal(path: string, args: string[] = []): { ok: boolean; stderr: string } {
  const r = spawnSync('spirv-val', [...args, path], { encoding: 'utf8' });
  return { ok: r.status === 0, stderr: `${r.stdout}${r.stderr}` };
}

/** A valid compute module touching every section; each case below breaks one rule of it. */
const BASE = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpSource GLSL 450
OpName %main "main"
OpDecorate %gvar RelaxedPrecision
%void = OpTypeVoid
%int = OpTypeInt 32 1
%one = OpConstant %int 1
%ptr = OpTypePointer Private %int
%gvar = OpVariable %ptr Private
%fptr = OpTypePointer Function %int
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %fptr Function
OpStore %local %one
OpReturn
OpFunctionEnd
`;

function assemble(name: string, text: string): string {
  const source = join(corpus.dir, `${name}.spvasm`);
  const path = join(corpus.dir, `${name}.spv`);
  writeFileSync(source, text);
  execFileSync('spirv-as', [source, '-o', path], { stdio: 'pipe' });
  return path;
}

function variant(from: string, to: string): string {
  assert.ok(BASE.includes(from), from);
  return BASE.replace(from, to);
}

/** [name, module text, the code Strata must give, what spirv-val says]. */
const CASES: [string, string, string, RegExp][] = [
  [
    'name-after-annotation',
    variant('OpName %main "main"\nOpDecorate %gvar RelaxedPrecision', 'OpDecorate %gvar RelaxedPrecision\nOpName %main "main"'),
    'spirv/layout-order',
    /invalid layout section/,
  ],
  ['capability-after-source', variant('OpSource GLSL 450', 'OpSource GLSL 450\nOpCapability Int64'), 'spirv/layout-order', /invalid layout section/],
  [
    'type-in-function',
    variant('%local = OpVariable %fptr Function', '%local = OpVariable %fptr Function\n%float = OpTypeFloat 32'),
    'spirv/layout-order',
    /cannot appear in a function/,
  ],
  [
    'global-variable-in-function',
    variant('%local = OpVariable %fptr Function', '%local = OpVariable %fptr Function\n%g2 = OpVariable %ptr Private'),
    'spirv/layout-order',
    /function\[7\] storage class/,
  ],
  [
    'load-outside-function',
    variant('%fn = OpTypeFunction %void', '%fn = OpTypeFunction %void\n%ld = OpLoad %int %gvar'),
    'spirv/outside-function',
    /must appear in a block/,
  ],
  ['missing-memory-model', variant('OpMemoryModel Logical GLSL450\n', ''), 'spirv/missing-memory-model', /before the memory model/],
  [
    'two-memory-models',
    variant('OpMemoryModel Logical GLSL450\n', 'OpMemoryModel Logical GLSL450\nOpMemoryModel Logical GLSL450\n'),
    'spirv/duplicate-memory-model',
    /only be provided once/,
  ],
  [
    'duplicate-result-id',
    variant('%one = OpConstant %int 1', '%one = OpConstant %int 1\n%one = OpConstant %int 2'),
    'spirv/duplicate-result-id',
    /defined more than once/,
  ],
  ['undefined-id', variant('OpName %main "main"', 'OpName %ghost "ghost"'), 'spirv/undefined-id', /have not been defined/],
  [
    'entry-point-to-constant',
    variant('OpEntryPoint GLCompute %main "main"', 'OpEntryPoint GLCompute %one "main"'),
    'spirv/entry-point-not-function',
    /is not a function/,
  ],
  [
    'mode-on-non-entry-point',
    variant('OpExecutionMode %main LocalSize 1 1 1', 'OpExecutionMode %gvar LocalSize 1 1 1'),
    'spirv/execution-mode-not-entry-point',
    /not the Entry Point operand/,
  ],
  ['missing-function-end', variant('OpReturn\nOpFunctionEnd', 'OpReturn'), 'spirv/unterminated-function', /Missing OpFunctionEnd/],
];

test('every corpus module: no diagnostic where spirv-val accepts it, an error where it refuses', () => {
  for (const m of corpus.modules) {
    const ours = validateSpirv(bytesOf(m.path));
    const theirs = spirvVal(m.path, m.validateArgs ?? ['--target-env', 'spv1.4']);
    if (theirs.ok) assert.deepEqual(ours.diagnostics, [], m.name);
    else assert.equal(ours.ok, false, `${m.name}: spirv-val refuses it (${theirs.stderr.trim()}), Strata finds nothing`);
  }
  // edge-literals.spvasm is hand-written to parse, not to validate: its OpString follows an annotation.
  const edge = corpus.modules.find((m) => m.name === 'edge-literals.spvasm')!;
  assert.deepEqual(
    validateSpirv(bytesOf(edge.path)).diagnostics.map((d) => d.code),
    ['spirv/layout-order'],
  );
});

test('the base module of the hand-made cases is valid for spirv-val and for Strata', () => {
  const path = assemble('base', BASE);
  assert.deepEqual(spirvVal(path), { ok: true, stderr: '' });
  assert.deepEqual(validateSpirv(bytesOf(path)), { ok: true, diagnostics: [] });
});

for (const [name, text, code, valSays] of CASES) {
  test(`${name}: Strata reports ${code}, spirv-val refuses it too`, () => {
    const path = assemble(name, text);
    const theirs = spirvVal(path);
    assert.equal(theirs.ok, false, name);
    assert.match(theirs.stderr, valSays);
    const ours = validateSpirv(bytesOf(path));
    assert.equal(ours.ok, false);
    const codes = ours.diagnostics.map((d) => d.code);
    assert.ok(codes.includes(code), `${name}: ${JSON.stringify(ours.diagnostics, null, 1)}`);
    // An entry point on a constant also leaves its OpExecutionMode without an entry point.
    const allowed = code === 'spirv/entry-point-not-function' ? [code, 'spirv/execution-mode-not-entry-point'] : [code];
    assert.deepEqual(
      codes.filter((c) => !allowed.includes(String(c))),
      [],
      name,
    );
    for (const d of ours.diagnostics) {
      assert.equal(d.range.start.line, 0);
      assert.equal((d.data as { wordOffset: number }).wordOffset, d.range.start.character);
      assert.equal(d.severity, 1);
    }
  });
}

test('an id bound too small: every id at or above it is diagnosed (by the decoder), and spirv-val refuses it', () => {
  const bytes = bytesOf(assemble('bound', BASE));
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, 5, true);
  const path = join(corpus.dir, 'bound-patched.spv');
  writeFileSync(path, bytes);
  assert.equal(spirvVal(path).ok, false);
  const ours = validateSpirv(bytes);
  assert.equal(ours.ok, false);
  assert.ok(
    ours.diagnostics.length > 0 && ours.diagnostics.every((d) => d.code === 'spirv/id-out-of-bound'),
    JSON.stringify(ours.diagnostics.map((d) => d.code)),
  );
});

test('diagnostics point at the offending instruction, by word offset', () => {
  const [, text] = CASES.find(([n]) => n === 'name-after-annotation')!;
  const path = assemble('order-offsets', text);
  const ours = validateSpirv(bytesOf(path));
  const d = ours.diagnostics[0]!;
  const words = new Uint32Array(bytesOf(path).buffer.slice(0));
  assert.equal(words[d.range.start.character]! & 0xffff, 5 /* OpName */);
  assert.equal(d.range.end.character - d.range.start.character, words[d.range.start.character]! >>> 16);
  assert.match(String(d.message), /OpName at word \d+ belongs to debug: names .* annotations/);
});

// Fuzzing (validation and reflection among the rest): tests/integration/shader-fuzz.test.ts.

test('strata shader validate FILE: exit 0 and "valid" for a good module, exit 1 with word-offset lines for a bad one; --json', () => {
  const home = makeTempHome();
  try {
    const good = runStrata(['shader', 'validate', assemble('cli-base', BASE)], home.env);
    assert.equal(good.status, 0, good.stderr);
    assert.match(good.stdout, /cli-base\.spv: valid /);
    const badPath = assemble('cli-two-models', CASES.find(([n]) => n === 'two-memory-models')![1]);
    const bad = runStrata(['shader', 'validate', badPath], home.env);
    assert.equal(bad.status, 1);
    assert.match(
      bad.stdout,
      /cli-two-models\.spv: word 10: error: OpMemoryModel at word 10 is a second memory model.* \[spirv\/duplicate-memory-model\]\n.*: 1 error\n$/,
    );
    const json = runStrata(['shader', 'validate', badPath, '--json'], home.env);
    assert.equal(json.status, 1);
    const parsed = JSON.parse(json.stdout) as { ok: boolean; diagnostics: { code: string }[] };
    assert.deepEqual([parsed.ok, parsed.diagnostics.map((d) => d.code)], [false, ['spirv/duplicate-memory-model']]);
  } finally {
    home.cleanup();
  }
});
