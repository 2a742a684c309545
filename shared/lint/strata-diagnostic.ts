import type { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import { flatString } from '../text/flat-string';

/** A row of a code table (diagnostic-codes.ts, spirv-/vbc-diagnostic-codes.ts): default severity, and where the rule comes from. */
export interface DiagnosticCodeInfo {
  readonly severity: DiagnosticSeverity;
  readonly spec: string;
}

/** A diagnostic as Strata emits it: severity and `data.spec` from the code's row; `data` adds facts for machines; the message flat (flat-string.ts). */
export function strataDiagnostic<C extends string>(
  codes: Readonly<Record<C, DiagnosticCodeInfo>>,
  code: C,
  range: Range,
  message: string,
  data: object = {},
): Diagnostic {
  const info = codes[code];
  // Built onto `{}`, whose object has room for four fields of its own, where a spread after `spec` put
  // the rest in a second object: one fewer object kept per diagnostic (issue #19).
  const facts: Record<string, unknown> = {};
  facts['spec'] = info.spec;
  for (const [key, value] of Object.entries(data)) facts[key] = value;
  return { range, severity: info.severity, code, source: 'strata', message: flatString(message), data: facts };
}

/** A binary file has no lines: its range is on line 0 and counts units (words, bytes) from the start. */
export function binaryRange(offset: number, length: number): Range {
  return { start: { line: 0, character: offset }, end: { line: 0, character: offset + Math.max(0, length) } };
}
