import { useEffect, useMemo, useState } from 'react';
import { bundleFiles, zipBundle } from '../diagnostics/bundle';
import { groupLog, type LogGroup } from '../diagnostics/log-groups';
import { downloadBlob } from '../files/download-file';
import { hasStrataApi, strataApi } from '../strata-bridge';
import { useDiscovery } from '../stores/discovery-store';
import { useDriversDevices } from '../stores/drivers-devices-store';
import { useLayersView } from '../stores/layers-view-store';
import { useNavigation } from '../stores/navigation-store';
import { useProfiles } from '../stores/profiles-store';
import { useSessions } from '../stores/sessions-store';
import { launchFieldsFor } from '../sessions/command-line';
import { commandLabel, exitLabel, exitTone } from '../sessions/session-labels';
import { Badge, Card } from './Card';
import { RequestErrorMessage } from './RequestErrorMessage';

/** "The system": what vulkaninfo --summary makes the loader do (every layer and driver it finds). */
const SYSTEM_COMMAND = 'vulkaninfo --summary';

const LEVELS: readonly { value: string; label: string }[] = [
  { value: 'error,warn', label: 'Errors and warnings' },
  { value: 'error,warn,info', label: 'Errors, warnings and info' },
  { value: 'error,warn,info,layer,driver', label: 'Layers and drivers too' },
  { value: 'all', label: 'Everything (all)' },
];

/** A manifest the message names, linked to its row in Layers (or its problems) when discovery knows it. */
function FileLink({ path }: { path: string }) {
  const manifests = useDiscovery((s) => s.manifests);
  const known =
    manifests.status === 'ready' && (['implicit_layer', 'explicit_layer'] as const).some((k) => manifests.value.manifests[k].some((m) => m.path === path));
  if (!known) return <code className="diagnose-file">{path}</code>;
  return (
    <button
      type="button"
      className="diagnose-file-link"
      title={`Show ${path} in Layers`}
      onClick={() => {
        useLayersView.getState().setQuery(path);
        useNavigation.getState().open('layers');
      }}
    >
      {path}
    </button>
  );
}

function Group({ group }: { group: LogGroup }) {
  return (
    <details className="diagnose-group" open={group.errors + group.warnings > 0} data-testid="diagnose-group" data-category={group.category}>
      <summary>
        <strong>{group.category}</strong> <span className="muted">{group.entries.length} distinct</span>
        {group.errors > 0 && <Badge tone="error">{`${group.errors} error${group.errors === 1 ? '' : 's'}`}</Badge>}
        {group.warnings > 0 && <Badge tone="warning">{`${group.warnings} warning${group.warnings === 1 ? '' : 's'}`}</Badge>}
      </summary>
      <ul className="diagnose-entries">
        {group.entries.map((e) => (
          <li key={e.seq} className={`diagnose-entry${e.level ? ` level-${e.level}` : ''}`} data-testid="diagnose-entry" data-count={e.count}>
            {e.level && <span className="diagnose-level">{e.level}</span>}
            <span className="diagnose-message">{e.message}</span>
            {e.count > 1 && <span className="log-repeats">×{e.count}</span>}
            {e.files.length > 0 && (
              <span className="diagnose-files">
                {e.files.map((f) => (
                  <FileLink key={f} path={f} />
                ))}
              </span>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

function DevicesSummary() {
  const devices = useDriversDevices((s) => s.devices);
  useEffect(() => {
    if (hasStrataApi() && useDriversDevices.getState().devices.status === 'idle') void useDriversDevices.getState().refresh();
  }, []);
  if (devices.status === 'error')
    return (
      <RequestErrorMessage title="The devices could not be enumerated" error={devices.error} onRetry={() => void useDriversDevices.getState().refresh()} />
    );
  if (devices.status !== 'ready') return <p className="muted">Asking the loader for the devices…</p>;
  const list = devices.value.devices;
  if (list.length === 0) return <p className="muted">The loader enumerates no physical device.</p>;
  return (
    <ul className="diagnose-devices" data-testid="diagnose-devices">
      {list.map((d, i) => (
        <li key={`${i}:${d.deviceName}`}>
          <strong>{d.deviceName}</strong>{' '}
          <span className="muted">
            ({d.deviceType.toLowerCase().replace(/_/g, ' ')}, Vulkan {d.apiVersion})
          </span>{' '}
          · {d.driver ? `${d.driver.driverName} ${d.driver.driverInfo}` : `driver ${d.driverVersion}`}
          {d.origin && (
            <>
              {' '}
              from <code className="diagnose-file">{d.origin.manifest}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Diagnose: one click runs the loader for the system (vulkaninfo --summary) or an application at a
 * chosen VK_LOADER_DEBUG level (a launch, recorded as a session), shows what it said grouped by
 * category with repeats folded and every line wrapped, the devices and drivers, and exports one zip
 * (versions, environment, Strata's files, chain, devices, the run's output, every manifest).
 */
export function DiagnoseTab() {
  const [target, setTarget] = useState<'system' | 'app'>('system');
  const [command, setCommand] = useState('');
  const [level, setLevel] = useState('error,warn,info,layer,driver');
  const [ranId, setRanId] = useState<string | null>(null);
  const [exporting, setExporting] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const live = useSessions((s) => s.live);
  const starting = useSessions((s) => s.starting);
  const startError = useSessions((s) => s.startError);
  const profiles = useProfiles((s) => s.list);
  const bound = profiles.status === 'ready' ? profiles.value.applications : [];
  const run = live && live.summary.id === ranId ? live : null;
  const grouped = useMemo(() => (run ? groupLog(run.log.records) : null), [run]);

  const start = async () => {
    const commandLine = target === 'system' ? SYSTEM_COMMAND : command.trim();
    if (!commandLine) return;
    useSessions.getState().setForm({ commandLine, loaderDebug: level, profile: '', env: '', cwd: '', timeout: '60' });
    await useSessions.getState().start();
    const id = useSessions.getState().live?.summary.id ?? null;
    if (!useSessions.getState().startError) setRanId(id);
  };

  const exportBundle = async () => {
    setExporting({ busy: true, error: null });
    try {
      const api = strataApi();
      const [versions, environment, activity, manifests, chain] = await Promise.all([
        api.call('app.info', {}),
        api.call('env.summary', {}),
        api.call('activity.status', {}),
        api.call('discovery.manifests', {}),
        api.call('chain.explain', target === 'app' && command.trim() ? { appPath: command.trim().split(/\s+/)[0]! } : {}),
      ]);
      const devices = useDriversDevices.getState().devices;
      const createdAt = new Date().toISOString();
      const zip = zipBundle(
        bundleFiles({
          createdAt,
          versions,
          environment,
          activity,
          manifests,
          chain,
          devices: devices.status === 'ready' ? devices.value : null,
          run: run
            ? {
                command: commandLabel(run.summary),
                loaderDebug: level,
                lines: run.log.records.map((r) => (r.kind === 'line' ? r.text : `${r.vuid}: ${r.text}`)),
                header: run.summary,
              }
            : null,
        }),
      );
      downloadBlob(new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), `strata-diagnostics-${createdAt.replace(/[:.]/g, '-')}.zip`);
      setExporting({ busy: false, error: null });
    } catch (e) {
      setExporting({ busy: false, error: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <>
      <Card id="diagnose" title="Diagnose">
        <form
          className="diagnose-form"
          data-testid="diagnose-form"
          onSubmit={(e) => {
            e.preventDefault();
            void start();
          }}
        >
          <fieldset className="diagnose-target">
            <legend>Run the loader for</legend>
            <label>
              <input
                type="radio"
                name="diagnose-target"
                checked={target === 'system'}
                onChange={() => setTarget('system')}
                data-testid="diagnose-target-system"
              />{' '}
              the system (<code>{SYSTEM_COMMAND}</code>)
            </label>
            <label>
              <input type="radio" name="diagnose-target" checked={target === 'app'} onChange={() => setTarget('app')} data-testid="diagnose-target-app" /> an
              application
            </label>
          </fieldset>
          {target === 'app' && (
            <label className="launch-field diagnose-command">
              <span>Command</span>
              <input
                type="text"
                value={command}
                placeholder="/usr/bin/vkcube --c 100"
                spellCheck={false}
                autoComplete="off"
                list="diagnose-bound"
                onChange={(e) => setCommand(e.currentTarget.value)}
                data-testid="diagnose-command"
              />
              {bound.length > 0 && (
                <datalist id="diagnose-bound">
                  {bound.map((a) => (
                    <option key={a.path} value={launchFieldsFor(a).commandLine} label={a.profile ? `bound to ${a.profile}` : 'listed'} />
                  ))}
                </datalist>
              )}
            </label>
          )}
          <label className="launch-field">
            <span>Loader messages (VK_LOADER_DEBUG)</span>
            <select value={level} onChange={(e) => setLevel(e.currentTarget.value)} data-testid="diagnose-level">
              {LEVELS.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
          <div className="launch-actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={starting || (target === 'app' && !command.trim()) || (live !== null && !live.footer)}
              data-testid="diagnose-run"
            >
              {starting ? 'Starting…' : 'Run'}
            </button>
            <button type="button" className="button" disabled={exporting.busy} onClick={() => void exportBundle()} data-testid="diagnose-export">
              {exporting.busy ? 'Building the bundle…' : 'Export bundle (.zip)'}
            </button>
            <span className="muted">The run is recorded as a session (History); it is stopped after 60 s.</span>
          </div>
          {startError && <RequestErrorMessage title="The loader run did not start" error={startError} onRetry={() => void start()} />}
          {exporting.error && (
            <p className="request-error-message" role="alert">
              The bundle could not be built: {exporting.error}
            </p>
          )}
        </form>
      </Card>
      <Card id="diagnose-devices" title="Devices and drivers">
        <DevicesSummary />
      </Card>
      {run && grouped && (
        <Card
          id="diagnose-log"
          title="What the loader said"
          aside={
            <span data-testid="diagnose-status" data-ended={run.footer ? 'true' : 'false'}>
              <code>{commandLabel(run.summary)}</code>{' '}
              {run.footer ? <Badge tone={exitTone(run.footer.exit)}>{exitLabel(run.footer.exit)}</Badge> : <Badge tone="accent">running</Badge>}
            </span>
          }
        >
          {grouped.groups.length === 0 ? <p className="muted">Nothing yet.</p> : grouped.groups.map((g) => <Group key={g.category} group={g} />)}
          {grouped.dropped > 0 && (
            <p className="muted">{grouped.dropped.toLocaleString('en-US')} more distinct lines are in the session (History) and the bundle.</p>
          )}
        </Card>
      )}
    </>
  );
}
