import { SEVERITY_LABELS, SEVERITY_ORDER, describeCounts, type SeverityCounts } from './diagnostic-severity';
import { SeverityIcon } from '../ui/ViewIcons';

/** Compact counts by severity ("⊗ 2  ⚠ 1"); nothing when there is nothing to count. */
export function ProblemCounts({ counts, showZero = false }: { counts: SeverityCounts; showZero?: boolean }) {
  const shown = SEVERITY_ORDER.filter((s) => counts[s] > 0 || (showZero && (s === 'error' || s === 'warning')));
  if (shown.length === 0) return null;
  return (
    <span className="problem-counts" title={describeCounts(counts)} aria-label={describeCounts(counts)} role="img">
      {shown.map((s) => (
        <span
          className={`problem-count problem-count-${s}${counts[s] === 0 ? ' is-zero' : ''}`}
          key={s}
          title={`${counts[s]} ${SEVERITY_LABELS[s].toLowerCase()}`}
        >
          <SeverityIcon severity={s} size={13} />
          {counts[s]}
        </span>
      ))}
    </span>
  );
}
