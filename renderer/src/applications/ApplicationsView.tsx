import { useEffect, useState, type FormEvent } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import type { Application } from '../../../shared/profiles/application-list';
import { launchFieldsFor } from '../sessions/command-line';
import { useChain } from '../chain/chain-store';
import { useNavigation } from '../navigation/navigation-store';
import { useProfiles } from '../profiles/profiles-store';
import { useSessions } from '../sessions/sessions-store';
import { DataTable } from '../ui/DataTable';
import { Badge } from '../ui/Card';
import { LoadingLine } from '../ui/LoadingLine';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import '../styles/profiles.css';

/**
 * Applications: the executables bound to profiles (applications.json), bind and unbind, and what
 * the installed loader can express of per-application profiles (shown after each change).
 */
export function ApplicationsView() {
  const list = useProfiles((s) => s.list);
  const load = useProfiles((s) => s.load);
  const run = useProfiles((s) => s.run);
  const busy = useProfiles((s) => s.busy);
  const outcome = useProfiles((s) => s.outcome);
  const [path, setPath] = useState('');
  const [profile, setProfile] = useState('');

  useEffect(() => {
    void load();
    // An outcome belongs to the view it happened in: it does not follow the user to other panels.
    return () => useProfiles.getState().clearOutcome();
  }, [load]);

  if (list.status === 'error') return <RequestErrorMessage title="Could not read the applications" error={list.error} onRetry={() => void load()} />;
  if (list.status !== 'ready') return <LoadingLine text="Reading applications…" />;
  const { applications, profiles, applicationsFile, applicationsProblem } = list.value;
  const chosen = profile || profiles[0]?.name || '';

  const bind = (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim() || !chosen) return;
    void run('profiles.bind', { appPath: path.trim(), profile: chosen }, (r) => ({
      message: `Bound ${r.application.path} to "${chosen}".`,
      details: [...r.notes, ...r.sync.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.app}: ${c.message}`), ...r.sync.notes],
    })).then((r) => r && setPath(''));
  };

  return (
    <div className="profiles-view" data-testid="applications-view">
      {outcome && (
        <div
          role="status"
          aria-live="polite"
          className={`profile-outcome ${outcome.ok ? 'profile-outcome-ok' : 'profile-outcome-error'}`}
          data-testid="applications-outcome"
        >
          <p className="profile-outcome-message">{outcome.error ? formatStrataError(outcome.error) : outcome.message}</p>
          {outcome.details.length > 0 && (
            <ul>
              {outcome.details.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {applicationsProblem && <p className="profile-warning">{formatStrataError(applicationsProblem)}</p>}
      <section className="card" aria-labelledby="apps-title">
        <header className="card-header">
          <h2 className="card-title" id="apps-title">
            Bound applications
          </h2>
          <span className="path muted">{applicationsFile}</span>
        </header>
        <div className="card-body">
          {applications.length === 0 ? (
            <p className="muted">No application is bound to a profile. Every application gets the global override, if one is applied.</p>
          ) : (
            <DataTable<Application>
              label="Bound applications"
              testId="applications-table"
              rows={applications}
              rowKey={(a) => a.path}
              rowAttributes={(a) => ({ 'data-app': a.path })}
              columns={[
                { id: 'executable', header: 'Executable', cellClassName: 'path', cell: (a) => a.path },
                { id: 'profile', header: 'Profile', cell: (a) => (a.profile ? <Badge tone="accent">{a.profile}</Badge> : <span className="muted">none</span>) },
                {
                  id: 'launch',
                  header: 'Launch settings',
                  cellClassName: 'muted',
                  cell: (a) =>
                    [a.args?.length ? `args: ${a.args.join(' ')}` : '', a.cwd ? `in ${a.cwd}` : '', a.env ? `${Object.keys(a.env).length} variables` : '']
                      .filter(Boolean)
                      .join(' · ') || '—',
                },
                {
                  id: 'actions',
                  header: <span className="visually-hidden">Actions</span>,
                  cellClassName: 'application-actions',
                  cell: (a) => (
                    <>
                      {a.profile && (
                        <button
                          type="button"
                          className="button"
                          data-testid="application-launch"
                          aria-label={`Launch ${a.path} with “${a.profile}”`}
                          onClick={() => {
                            useSessions.getState().setForm(launchFieldsFor(a));
                            useSessions.getState().setTab('launch');
                            useNavigation.getState().open('sessions');
                          }}
                        >
                          Launch…
                        </button>
                      )}
                      <button
                        type="button"
                        className="button"
                        data-testid="application-chain"
                        aria-label={`Show the chain of ${a.path}`}
                        onClick={() => {
                          useChain.getState().explainApp(a.path);
                          useNavigation.getState().open('chain');
                        }}
                      >
                        Chain
                      </button>
                      <button
                        type="button"
                        className="button"
                        disabled={busy}
                        data-testid="application-unbind"
                        onClick={() => void run('profiles.unbind', { appPath: a.path }, (r) => ({ message: `Unbound ${a.path}.`, details: r.sync.notes }))}
                      >
                        Unbind
                      </button>
                    </>
                  ),
                },
              ]}
            />
          )}
        </div>
      </section>
      <form className="card application-bind" aria-labelledby="bind-title" onSubmit={bind}>
        <header className="card-header">
          <h2 className="card-title" id="bind-title">
            Bind an application to a profile
          </h2>
        </header>
        <div className="card-body">
          {profiles.length === 0 ? (
            <p className="muted" data-testid="application-no-profile">
              There is no profile to bind to yet.{' '}
              <button type="button" className="button" onClick={() => useNavigation.getState().open('profiles')}>
                Create a profile
              </button>
            </p>
          ) : (
            <div className="application-bind-row">
              <div className="application-bind-field application-bind-path">
                <label htmlFor="application-path">Executable (full path)</label>
                <input
                  id="application-path"
                  className="profile-input"
                  type="text"
                  spellCheck={false}
                  placeholder="/usr/bin/vkcube"
                  value={path}
                  data-testid="application-path"
                  onChange={(e) => setPath(e.target.value)}
                />
              </div>
              <div className="application-bind-field">
                <label htmlFor="application-profile">Profile</label>
                <select
                  id="application-profile"
                  className="profile-input"
                  value={chosen}
                  data-testid="application-profile"
                  onChange={(e) => setProfile(e.target.value)}
                >
                  {profiles.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button button-primary" disabled={busy || !path.trim() || !chosen} data-testid="application-bind">
                Bind
              </button>
            </div>
          )}
        </div>
      </form>
    </div>
  );
}
