import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { spirvDiagnostic, spirvDiagnosticCodes } from '../../shared/shader/spirv-diagnostic-codes';
import { APP_ROOT } from '../helpers/strata-cli';

// shared/shader/spirv-diagnostic-codes.ts: every code of the SPIR-V reader, disassembler and validator.
test('a SPIR-V diagnostic counts words on line 0 and carries its word offset and spec section', () => {
  const d = spirvDiagnostic('spirv/bad-magic', 0, 1, 'not a SPIR-V module');
  assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } });
  assert.equal(d.severity, DiagnosticSeverity.Error);
  assert.equal(d.source, 'strata');
  assert.deepEqual(d.data, { spec: 'SPIR-V § 3.1 Magic Number', wordOffset: 0 });
  assert.equal(spirvDiagnostic('spirv/unsupported-ext-inst-set', 9, 4, 'm').severity, DiagnosticSeverity.Information, 'not a fault of the module');
  assert.deepEqual(spirvDiagnostic('spirv/extra-operands', 5, -1, 'm').range.end, { line: 0, character: 5 }, 'a negative length is empty');
});

test('every code is given by some module of shared/shader (no dead codes)', () => {
  const dir = join(APP_ROOT, 'shared', 'shader');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'spirv-diagnostic-codes.ts')
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const unused = Object.keys(spirvDiagnosticCodes).filter((code) => !sources.includes(`'${code}'`));
  assert.deepEqual(unused, []);
});
