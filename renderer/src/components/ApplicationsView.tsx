import { useEffect, useState, type FormEvent } from 'react';
import { formatStrataError } from '../../../shared/errors/strata-error';
import { useProfiles } from '../stores/profiles-store';
import { Badge } from './Card';
import { LoadingLine } from './LoadingLine';
import { RequestErrorMessage } from './RequestErrorMessage';
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
        <div role="status" aria-live="polite" className={`profile-outcome ${outcome.ok ? 'profile-outcome-ok' : 'profile-outcome-error'}`} data-testid="applications-outcome">
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
            <div className="table-scroll">
              <table className="table" data-testid="applications-table">
                <thead>
                  <tr>
                    <th scope="col">Executable</th>
                    <th scope="col">Profile</th>
                    <th scope="col">Launch settings</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {applications.map((a) => (
                    <tr key={a.path} data-app={a.path}>
                      <td className="path">{a.path}</td>
                      <td>{a.profile ? <Badge tone="accent">{a.profile}</Badge> : <span className="muted">none</span>}</td>
                      <td className="muted">{[a.args?.length ? `args: ${a.args.join(' ')}` : '', a.cwd ? `in ${a.cwd}` : '', a.env ? `${Object.keys(a.env).length} variables` : ''].filter(Boolean).join(' · ') || '—'}</td>
                      <td>
                        <button type="button" className="button" disabled={busy} data-testid="application-unbind" onClick={() => void run('profiles.unbind', { appPath: a.path }, (r) => ({ message: `Unbound ${a.path}.`, details: r.sync.notes }))}>
                          Unbind
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </section>
      <form className="card profile-forms application-bind" aria-label="Bind an application" onSubmit={bind}>
        <div className="profile-inline-form">
          <label htmlFor="application-path">Executable (full path)</label>
          <input id="application-path" className="profile-input" type="text" spellCheck={false} placeholder="/usr/bin/vkcube" value={path} data-testid="application-path" onChange={(e) => setPath(e.target.value)} />
          <select className="profile-input" aria-label="Profile" value={chosen} data-testid="application-profile" onChange={(e) => setProfile(e.target.value)}>
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
        {profiles.length === 0 && <p className="muted">Create a profile first (Profiles panel).</p>}
      </form>
    </div>
  );
}
