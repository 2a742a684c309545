import { useRovingList } from '../navigation/use-roving-list';
import { severityName, SEVERITY_LABELS } from './diagnostic-severity';
import { ProblemBody } from './ProblemBody';
import { flatRows, KIND_LABELS, splitPath, type ProblemGroup } from './problem-groups';
import { useProblemsView } from './problems-view-store';
import { ProblemCounts } from './ProblemCounts';
import { FileIcon, SeverityIcon } from '../ui/ViewIcons';

/**
 * Diagnostics grouped by file, as a listbox: one Tab stop, arrows move, Enter/Space or a click
 * opens the source.
 */
export function ProblemList({ groups, draftPath = null }: { groups: readonly ProblemGroup[]; draftPath?: string | null }) {
  const selected = useProblemsView((s) => s.selected);
  const select = useProblemsView((s) => s.select);
  const rows = flatRows(groups);
  const keys = rows.map((r) => r.key);
  const roving = useRovingList(keys, selected, select);

  return (
    <div role="listbox" aria-label="Problems" className="problem-list" data-testid="problem-list">
      {groups.map((group) => {
        const { folder, name } = splitPath(group.path);
        const headerId = `problem-file-${keys.indexOf(group.rows[0]!.key)}`;
        return (
          <div role="group" aria-labelledby={headerId} className="problem-group" key={group.path} data-testid="problem-group" data-path={group.path}>
            <div className="problem-group-header" id={headerId} title={group.path}>
              <FileIcon />
              <span className="problem-file">
                <span className="problem-file-name">{name}</span>
                <span className="problem-file-folder">{folder}</span>
              </span>
              {group.path === draftPath && (
                <span className="draft-badge" data-testid="problem-draft-badge" title="The override as your unsaved draft would write it">
                  Draft
                </span>
              )}
              <span className="problem-group-kind">
                {KIND_LABELS[group.kind]} · {group.origin}
              </span>
              <ProblemCounts counts={group.counts} />
            </div>
            {group.rows.map((row) => {
              const d = row.diagnostic;
              const sev = severityName(d.severity);
              const isSelected = row.key === selected;
              return (
                <div
                  key={row.key}
                  role="option"
                  aria-selected={isSelected}
                  tabIndex={row.key === roving.tabStop ? 0 : -1}
                  className={`problem-row severity-row-${sev}${isSelected ? ' is-selected' : ''}`}
                  data-testid="problem-row"
                  data-code={String(d.code ?? '')}
                  ref={roving.ref(row.key)}
                  onClick={() => roving.choose(row.key)}
                  onFocus={() => roving.onFocus(row.key)}
                  onKeyDown={(e) => roving.onKeyDown(e, keys.indexOf(row.key))}
                >
                  <span className="problem-severity" title={SEVERITY_LABELS[sev]}>
                    <SeverityIcon severity={sev} />
                    <span className="visually-hidden">{SEVERITY_LABELS[sev]}:</span>
                  </span>
                  <ProblemBody diagnostic={d} />
                </div>
              );
            })}
          </div>
        );
      })}
    </div>
  );
}
