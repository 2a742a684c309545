import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { enumerant, glslStd450Instruction, instructionSpec } from '../../shared/shader/spirv-grammar';

/** Needs spirv-headers (the grammar JSON and spir-v.xml under /usr/include/spirv). */
const GENERATED = join(APP_ROOT, 'shared', 'shader', 'spirv-grammar.generated.ts');

test('the committed grammar tables are what the generator makes from the installed spirv-headers', () => {
  const fresh = execFileSync(process.execPath, [join(APP_ROOT, 'scripts', 'generate-spirv-tables.mjs'), '--stdout'], { encoding: 'utf8', maxBuffer: 16 << 20 });
  assert.ok(
    fresh === readFileSync(GENERATED, 'utf8'),
    'shared/shader/spirv-grammar.generated.ts is stale. Fix: run `node scripts/generate-spirv-tables.mjs` and commit the result',
  );
});

test('the generated tables stay under 1 MiB', () => {
  assert.ok(statSync(GENERATED).size < 1 << 20, `${statSync(GENERATED).size} bytes`);
});

test('lookups: operands of an opcode, enumerant parameters, aliases, GLSL.std.450', () => {
  const decorate = instructionSpec(71);
  assert.equal(decorate?.opname, 'OpDecorate');
  assert.deepEqual(
    decorate?.operands.map((o) => o.kind + o.quantifier),
    ['IdRef', 'Decoration'],
  );
  assert.deepEqual(
    enumerant('Decoration', 1)?.parameters.map((p) => p.kind),
    ['LiteralInteger'],
  ); // SpecId
  assert.equal(enumerant('ExecutionModel', 5313)?.name, 'RayGenerationNV'); // first of its aliases
  assert.equal(instructionSpec(5341)?.opname, 'OpTypeAccelerationStructureKHR'); // alphabetically first
  assert.deepEqual(
    enumerant('ImageOperands', 4)?.parameters.map((p) => p.kind),
    ['IdRef', 'IdRef'],
  ); // Grad
  assert.equal(glslStd450Instruction(46)?.opname, 'FMix');
});
