import type { SessionCounts } from './session-records';

/**
 * The counts line of a session: validation messages, then the loader's own errors and warnings (a
 * loader warning is not a validation warning, and leaving it out read as "0 warnings" after a launch
 * whose loader printed 61). One wording for the session header, the history and `strata launch`.
 */
export function countsLabel(
  counts:
    Pick<SessionCounts, 'messages' | 'loader'> | { messages: { error: number; warning: number; info: number }; loader: { error: number; warning: number } },
): string {
  const m = counts.messages;
  const validation = `${m.error} error${m.error === 1 ? '' : 's'}, ${m.warning} warning${m.warning === 1 ? '' : 's'}, ${m.info} info (validation)`;
  const l = counts.loader;
  return l.error || l.warning
    ? `${validation} · loader: ${l.error} error${l.error === 1 ? '' : 's'}, ${l.warning} warning${l.warning === 1 ? '' : 's'}`
    : validation;
}
