import type { SessionStatus, SessionSummary } from '../../../shared/sessions/session-ipc';
import type { CaptureRecord, LineSource, SessionExit, Severity } from '../../../shared/sessions/session-records';
import { recordSource } from '../../../shared/sessions/session-query';

/** How a run ended, in a few words ("exit 0", "SIGKILL (stopped)", "did not start"). */
export function exitLabel(exit: SessionExit | null, status?: SessionStatus): string {
  if (!exit) return status === 'running' ? 'running' : status === 'incomplete' ? 'no record of the end' : '—';
  if (exit.reason === 'failed-to-start') return 'did not start';
  const how = exit.signal ?? `exit ${exit.code}`;
  return exit.reason === 'exited' ? how : `${how} (${exit.reason === 'timeout' ? 'timed out' : 'stopped'})`;
}

export function exitTone(exit: SessionExit | null): 'ok' | 'error' | 'warning' | 'neutral' {
  if (!exit) return 'neutral';
  if (exit.reason === 'failed-to-start' || exit.signal) return 'error';
  return exit.code === 0 ? 'ok' : 'warning';
}

export const STATUS_LABELS: Record<SessionStatus, string> = {
  running: 'Running',
  ended: 'Ended',
  incomplete: 'Incomplete (Strata stopped before the application)',
};

export function durationLabel(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms - m * 60_000) / 1000)} s`;
}

export function commandLabel(s: Pick<SessionSummary, 'command' | 'args'>): string {
  return [s.command, ...s.args].map((w) => (/[\s'"\\]/.test(w) || w === '' ? `'${w.replace(/'/g, "'\\''")}'` : w)).join(' ');
}

/** Seconds since the launch, as the log's first column shows it. */
export function timeLabel(t: number): string {
  return (t / 1000).toFixed(3);
}

export const SOURCE_LABELS: Record<LineSource, string> = { app: 'App', loader: 'Loader', validation: 'Validation' };
export const SEVERITY_LABELS: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info', perf: 'Perf', debug: 'Debug', verbose: 'Verbose' };

/** The tag a log row shows before its text: where the line came from, and its level when it has one. */
export function recordTag(r: CaptureRecord): { source: LineSource; severity: Severity | null; stream: string } {
  return { source: recordSource(r), severity: r.kind === 'message' ? r.severity : (r.level ?? null), stream: r.stream };
}

/** The one line a log row shows: a message's id and first line, a line's text. */
export function recordText(r: CaptureRecord): string {
  if (r.kind === 'line') return r.text;
  const first = r.text.split('\n', 1)[0] ?? '';
  return `${r.vuid} — ${first}`;
}

/**
 * Loader lines repeated word for word (the loader says the same warning at every vkEnumerate… and
 * vkCreateInstance call: 61 lines of one "can't find component layer" for a profile launch) are
 * shown once, at their first place, with how many times they came. Application output and
 * validation messages are never folded: their repetition is information.
 */
export function foldRepeatedLoaderLines<R extends CaptureRecord>(records: readonly R[]): { record: R; repeats: number }[] {
  const out: { record: R; repeats: number }[] = [];
  const first = new Map<string, number>();
  for (const r of records) {
    if (r.kind === 'line' && recordSource(r) === 'loader') {
      const key = `${r.level ?? ''}\0${r.text}`;
      const at = first.get(key);
      if (at !== undefined) {
        out[at]!.repeats++;
        continue;
      }
      first.set(key, out.length);
    }
    out.push({ record: r, repeats: 1 });
  }
  return out;
}

export { countsLabel } from '../../../shared/sessions/session-counts-label';
