import type { DiagnosticSeverity as LspDiagnosticSeverity } from 'vscode-languageserver-types';

/**
 * LSP's DiagnosticSeverity (Error 1, Warning 2, Information 3, Hint 4), the numbers
 * vscode-languageserver-types exports under that name; its types are still the package's. Its
 * one module builds all ~80 of its namespaces as it loads, for these four numbers: every CLI
 * startup snapshot held them and every bundle carried the module (issue #19: start-up).
 * tests/unit/diagnostic-severity.test.ts holds the two to the same values.
 */
export const DiagnosticSeverity = { Error: 1, Warning: 2, Information: 3, Hint: 4 } as const satisfies Record<string, LspDiagnosticSeverity>;
export type DiagnosticSeverity = LspDiagnosticSeverity;
