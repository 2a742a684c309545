import { useEffect, useState } from 'react';
import type { FileDiagnostics } from '../../../shared/lint/diagnostic-schema';
import type { FileOwner } from '../../../shared/activity/activity-status';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { describeCounts, countSeverities, SEVERITY_LABELS, severityName } from './diagnostic-severity';
import { ProblemBody } from './ProblemBody';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';
import { useActivity } from '../activity/activity-store';
import { useDiscovery } from '../discovery/discovery-store';
import { Badge } from '../ui/Card';

/** Who wrote the settings file, in the words the status strip uses. */
const OWNER_WORDS: Record<FileOwner | 'unknown', string> = {
  strata: 'Strata’s own file (written for the applications bound to profiles)',
  modified: 'Strata wrote it, and it was changed since',
  foreign: 'written by another tool (Strata never changes it)',
  unknown: 'who wrote it is not known yet',
};

/**
 * The vk_loader_settings.json the installed loader reads, linted by main exactly as `strata lint`
 * does with no argument (lint.files with settingsFile: main/chain/settings-file-found.ts finds it,
 * shared/lint/loader-settings-lint.ts checks it): the file named, who wrote it, and its `settings/*`
 * diagnostics. Read again whenever discovery answers again (a manifest it names may have changed).
 */
export function LoaderSettingsProblems() {
  const manifests = useDiscovery((s) => s.manifests);
  const [state, setState] = useState<RequestState<{ files: FileDiagnostics[]; owners: (path: string) => FileOwner | 'unknown' }>>({ status: 'idle' });

  useEffect(() => {
    let live = true;
    // Who wrote the file may have changed with it (a binding written or removed): the status is read
    // again too, and both are shown together, once both have answered: a binding may just have
    // replaced another tool's file at the same path, whose diagnostics must not show beside the new owner.
    Promise.all([strataApi().call('lint.files', { paths: [], settingsFile: true }), useActivity.getState().load()]).then(
      ([files]) => {
        if (!live) return;
        const activity = useActivity.getState().status;
        const owners = (path: string) =>
          activity.status === 'ready' ? (activity.value.files.find((f) => f.role === 'loader-settings' && f.path === path)?.owner ?? 'foreign') : 'unknown';
        setState({ status: 'ready', value: { files, owners } });
      },
      (e: unknown) => live && setState({ status: 'error', error: toStrataError(e, 'lint.files') }),
    );
    return () => {
      live = false;
    };
  }, [manifests]);

  if (state.status === 'error')
    return (
      <p className="request-error-message" role="alert" data-testid="settings-file-problems-error">
        The loader settings file could not be checked: {formatStrataError(state.error)}
      </p>
    );
  if (state.status !== 'ready' || state.value.files.length === 0) return null;
  return (
    <>
      {state.value.files.map((file) => {
        const owner = state.value.owners(file.uri);
        const counts = countSeverities(file.diagnostics);
        return (
          <section
            className="card settings-file-problems"
            aria-labelledby="settings-file-problems-title"
            key={file.uri}
            data-testid="settings-file-problems"
            data-path={file.uri}
            data-owner={owner}
          >
            <header className="settings-file-problems-header">
              <h2 id="settings-file-problems-title" className="settings-file-problems-title">
                Loader settings file
              </h2>
              <Badge tone={owner === 'foreign' ? 'warning' : owner === 'unknown' ? 'neutral' : 'accent'}>
                {owner === 'foreign' ? 'another tool’s' : owner === 'unknown' ? '…' : 'Strata’s'}
              </Badge>
              <span className="muted" data-testid="settings-file-counts">
                {describeCounts(counts)}
              </span>
            </header>
            <p className="settings-file-problems-path">
              <code data-testid="settings-file-path">{file.uri}</code> <span data-testid="settings-file-owner">— {OWNER_WORDS[owner]}</span>. The installed
              loader reads it before any layer manifest: its layers list decides which layers load, in which order.
            </p>
            {file.diagnostics.length > 0 && (
              <ul className="settings-file-problem-list">
                {file.diagnostics.map((d, i) => {
                  const sev = severityName(d.severity);
                  return (
                    <li key={i} className={`problem-row severity-row-${sev}`} data-testid="settings-file-problem" data-code={String(d.code ?? '')}>
                      <span className="problem-severity" title={SEVERITY_LABELS[sev]}>
                        <span className="visually-hidden">{SEVERITY_LABELS[sev]}:</span>
                        {SEVERITY_LABELS[sev]}
                      </span>
                      <ProblemBody diagnostic={d} />
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </>
  );
}
