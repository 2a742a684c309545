import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { diagnosticCodes } from '../../shared/lint/diagnostic-codes';
import { APP_ROOT } from '../helpers/strata-cli';

const SEVERITY_WORD: Record<DiagnosticSeverity, string> = {
  [DiagnosticSeverity.Error]: 'error',
  [DiagnosticSeverity.Warning]: 'warning',
  [DiagnosticSeverity.Information]: 'information',
  [DiagnosticSeverity.Hint]: 'hint',
};

test('docs/diagnostics.md has exactly one row per code, with its default severity', () => {
  const doc = readFileSync(join(APP_ROOT, 'docs', 'diagnostics.md'), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `([a-z-]+\/[a-z0-9-]+)` +\| (\w+)/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual([...rows.keys()].sort(), Object.keys(diagnosticCodes).sort());
  for (const [code, info] of Object.entries(diagnosticCodes)) assert.equal(rows.get(code), SEVERITY_WORD[info.severity], code);
});
