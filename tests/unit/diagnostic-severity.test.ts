import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity as Lsp } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from '../../shared/lint/diagnostic-severity';

test("DiagnosticSeverity: LSP's four severities, the numbers vscode-languageserver-types exports", () => {
  assert.deepEqual({ ...DiagnosticSeverity }, { Error: Lsp.Error, Warning: Lsp.Warning, Information: Lsp.Information, Hint: Lsp.Hint });
  assert.deepEqual(
    Object.keys(Lsp)
      .filter((k) => typeof (Lsp as Record<string, unknown>)[k] === 'number')
      .sort(),
    Object.keys(DiagnosticSeverity).sort(),
  );
});
