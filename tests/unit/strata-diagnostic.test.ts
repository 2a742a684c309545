import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { binaryRange, strataDiagnostic } from '../../shared/lint/strata-diagnostic';

const codes = { 'x/broken': { severity: DiagnosticSeverity.Warning, spec: 'Some spec § 1' } } as const;

test('strataDiagnostic takes severity and spec from the code table and adds the data given', () => {
  assert.deepEqual(strataDiagnostic(codes, 'x/broken', binaryRange(4, 2), 'Broken.', { byteOffset: 4 }), {
    range: { start: { line: 0, character: 4 }, end: { line: 0, character: 6 } },
    severity: DiagnosticSeverity.Warning,
    code: 'x/broken',
    source: 'strata',
    message: 'Broken.',
    data: { spec: 'Some spec § 1', byteOffset: 4 },
  });
});

test('binaryRange never ends before it starts', () => {
  assert.deepEqual(binaryRange(7, -3), { start: { line: 0, character: 7 }, end: { line: 0, character: 7 } });
});
