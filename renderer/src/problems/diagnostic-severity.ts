import type { Diagnostic } from 'vscode-languageserver-types';

/**
 * LSP severities as the UI names them. A diagnostic without a severity is shown as an error: the
 * LSP leaves it to the client, and Strata's lint always sets one, so a missing one is unexpected.
 */
export type SeverityName = 'error' | 'warning' | 'information' | 'hint';

export const SEVERITY_ORDER: readonly SeverityName[] = ['error', 'warning', 'information', 'hint'];

export const SEVERITY_LABELS: Readonly<Record<SeverityName, string>> = {
  error: 'Error',
  warning: 'Warning',
  information: 'Info',
  hint: 'Hint',
};

export function severityName(severity: Diagnostic['severity']): SeverityName {
  return severity === 2 ? 'warning' : severity === 3 ? 'information' : severity === 4 ? 'hint' : 'error';
}

export type SeverityCounts = Record<SeverityName, number>;

export function countSeverities(diagnostics: readonly Pick<Diagnostic, 'severity'>[]): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const d of diagnostics) counts[severityName(d.severity)]++;
  return counts;
}

/** "2 errors, 1 warning" — only the severities present; "No problems" when there are none. */
export function describeCounts(counts: SeverityCounts): string {
  const words: Record<SeverityName, [string, string]> = {
    error: ['error', 'errors'],
    warning: ['warning', 'warnings'],
    information: ['message', 'messages'],
    hint: ['hint', 'hints'],
  };
  const parts = SEVERITY_ORDER.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${words[s][counts[s] === 1 ? 0 : 1]}`);
  return parts.length ? parts.join(', ') : 'No problems';
}

/** The message as plain text (LSP 3.18 allows Markdown; Strata writes plain strings). */
export function messageText(message: Diagnostic['message'] | { kind: string; value: string }): string {
  return typeof message === 'string' ? message : message.value;
}

/**
 * Strata's messages end in "Fix: …" (docs/diagnostics.md); the UI shows the fix on its own line.
 * Only the last " Fix: " counts, so a message quoting the word earlier stays whole.
 */
export function splitFix(message: string): { text: string; fix: string | null } {
  const at = message.lastIndexOf(' Fix: ');
  if (at < 0) return message.startsWith('Fix: ') ? { text: '', fix: message.slice(5).trim() } : { text: message, fix: null };
  return { text: message.slice(0, at).trim(), fix: message.slice(at + 6).trim() };
}

/** "5:3" — 1-based line and column, as editors show them (LSP positions are 0-based). */
export function positionLabel(position: { line: number; character: number }): string {
  return `${position.line + 1}:${position.character + 1}`;
}
