import { useMemo } from 'react';
import { describeCounts } from './diagnostic-severity';
import { findProblem, groupProblems, manifestCount, PROBLEM_ORDER_LABELS, sortGroups, totalCounts, type ProblemOrder } from './problem-groups';
import { useDraftLoaded, useDraftView } from '../configurator/draft-view';
import { useDiscovery } from '../discovery/discovery-store';
import { useProblemsView } from './problems-view-store';
import { LoadingLine } from '../ui/LoadingLine';
import { LoaderSettingsProblems } from './LoaderSettingsProblems';
import { ProblemCounts } from './ProblemCounts';
import { ProblemList } from './ProblemList';
import { DiscoveryRefreshButton } from '../discovery/DiscoveryRefreshButton';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { SourceView } from './SourceView';
import { CheckCircleIcon } from '../ui/ViewIcons';
import '../styles/problems.css';

/**
 * Problems: the lint diagnostics of every discovered manifest, and the source at each one. With an
 * unsaved draft, Strata's override file is the draft's (linted as it would be written), marked Draft.
 */
export function ProblemsView() {
  useDraftLoaded();
  const state = useDiscovery((s) => s.manifests);
  const retry = useDiscovery((s) => s.loadManifests);
  const selected = useProblemsView((s) => s.selected);
  const order = useProblemsView((s) => s.order);
  const view = useDraftView();
  const inventory = state.status === 'ready' ? (view.inventory ?? state.value) : null;

  const groups = useMemo(() => (inventory ? sortGroups(groupProblems(inventory), order) : []), [inventory, order]);
  const counts = useMemo(() => totalCounts(groups), [groups]);
  const files = inventory ? manifestCount(inventory) : 0;
  const open = inventory && selected ? findProblem(inventory, selected) : null;
  const draftPath = view.dirty ? (view.override?.path ?? null) : null;

  return (
    <div className="problems-view">
      <div className="toolbar">
        {state.status === 'ready' && (
          <>
            <ProblemCounts counts={counts} showZero />
            <span className="toolbar-status" data-testid="problem-summary">
              {groups.length === 0 ? `${files} manifests checked` : `${describeCounts(counts)} in ${groups.length} of ${files} manifests`}
            </span>
          </>
        )}
        <span className="toolbar-spacer" />
        <label className="problem-order">
          <span>Sort</span>
          <select value={order} data-testid="problem-order" onChange={(e) => useProblemsView.getState().setOrder(e.target.value as ProblemOrder)}>
            {(Object.keys(PROBLEM_ORDER_LABELS) as ProblemOrder[]).map((o) => (
              <option key={o} value={o}>
                {PROBLEM_ORDER_LABELS[o]}
              </option>
            ))}
          </select>
        </label>
        <DiscoveryRefreshButton />
      </div>

      {state.status === 'ready' && <LoaderSettingsProblems />}

      {state.status === 'error' ? (
        <RequestErrorMessage title="Could not check the manifests" error={state.error} onRetry={() => void retry()} />
      ) : state.status !== 'ready' ? (
        <LoadingLine text="Checking the manifests…" />
      ) : groups.length === 0 ? (
        <div className="all-clean" data-testid="problems-empty">
          <span className="all-clean-icon">
            <CheckCircleIcon size={28} />
          </span>
          <p className="all-clean-title">
            No problems in {files} manifest{files === 1 ? '' : 's'}
          </p>
          <p className="muted">Every layer and driver manifest the loader reads is valid.</p>
        </div>
      ) : (
        <div className="split split-problems">
          <ProblemList groups={groups} draftPath={draftPath} />
          {open ? (
            <SourceView manifest={open.manifest} diagnostic={open.diagnostic} />
          ) : (
            <aside className="details-pane details-empty" aria-label="Source">
              <p>Select a problem to see it in its file.</p>
              <p className="muted">
                <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>Enter</kbd> opens.
              </p>
            </aside>
          )}
        </div>
      )}
    </div>
  );
}
