import { useEffect, useMemo, useState } from 'react';
import type { DiscoveredManifest } from '../../../shared/discovery/manifest-inventory';
import { bundleFiles, zipBundle } from './bundle';
import { groupLog, type LogEntry, type LogGroup } from './log-groups';
import { isRuleCode, messageParts, ruleForMessage, ruleReference, type RuleCode } from './message-links';
import { downloadBlob } from '../files/download-file';
import { problemKey } from '../problems/problem-groups';
import { hasStrataApi, strataApi } from '../strata-bridge';
import { toStrataError } from '../requests/request-state';
import type { StrataError } from '../../../shared/errors/strata-error';
import { useDiagnostics } from './diagnostics-store';
import { useDiscovery } from '../discovery/discovery-store';
import { useDriversDevices } from '../devices/drivers-devices-store';
import { useLayersView } from '../layers/layers-view-store';
import { useNavigation } from '../navigation/navigation-store';
import { useProblemsView } from '../problems/problems-view-store';
import { useProfiles } from '../profiles/profiles-store';
import { useSessions } from '../sessions/sessions-store';
import { launchFieldsFor } from '../sessions/command-line';
import { liveCounts, overrideWarningsNote } from '../sessions/session-notes';
import { commandLabel, exitLabel, exitTone } from '../sessions/session-labels';
import { Badge, Card } from '../ui/Card';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import '../styles/sessions.css';
import '../styles/diagnostics.css';

/** "The system": what vulkaninfo --summary makes the loader do (every layer and driver it finds). */
const SYSTEM_COMMAND = 'vulkaninfo --summary';

const LEVELS: readonly { value: string; label: string }[] = [
  { value: 'error,warn', label: 'Errors and warnings (error,warn)' },
  { value: 'error,warn,info', label: 'Errors, warnings and info (error,warn,info)' },
  { value: 'error,warn,info,layer,driver', label: 'Layers and drivers too (…,layer,driver)' },
  { value: 'all', label: 'Everything (all)' },
];

function allManifests(manifests: ReturnType<typeof useDiscovery.getState>['manifests']): DiscoveredManifest[] {
  if (manifests.status !== 'ready') return [];
  const m = manifests.value.manifests;
  return [...m.implicit_layer, ...m.explicit_layer, ...m.driver];
}

/** Open the Problems view on one diagnostic of one file. */
function showProblem(path: string, index: number) {
  useProblemsView.getState().select(problemKey(path, index));
  useNavigation.getState().open('problems');
}

/**
 * A file the message names: a layer manifest opens its row in Layers, a driver manifest Drivers &
 * Devices; a file with problems also links to them. A path discovery does not know stays text.
 */
function FileLink({ path }: { path: string }) {
  const manifests = useDiscovery((s) => s.manifests);
  const manifest = allManifests(manifests).find((m) => m.path === path);
  if (!manifest) return <code className="diagnose-file">{path}</code>;
  const isDriver = manifest.kind === 'driver';
  return (
    <>
      <button
        type="button"
        className="diagnose-link"
        title={isDriver ? `Show the drivers (${path})` : `Show ${path} in Layers`}
        data-testid="diagnose-file-link"
        onClick={() => {
          if (isDriver) useNavigation.getState().open('drivers');
          else {
            useLayersView.getState().setQuery(path);
            useNavigation.getState().open('layers');
          }
        }}
      >
        {path}
      </button>
      {manifest.diagnostics.length > 0 && (
        <button
          type="button"
          className="diagnose-problems-link"
          title={`Show the problems of ${path}`}
          data-testid="diagnose-problems-link"
          onClick={() => showProblem(path, 0)}
        >
          {manifest.diagnostics.length} problem{manifest.diagnostics.length === 1 ? '' : 's'}
        </button>
      )}
    </>
  );
}

/** A layer name: its row in Layers when the layer is discovered. */
function LayerLink({ name }: { name: string }) {
  const manifests = useDiscovery((s) => s.manifests);
  const known = allManifests(manifests).some((m) => m.layers.some((l) => l.name === name));
  if (!known) return <>{name}</>;
  return (
    <button
      type="button"
      className="diagnose-link"
      title={`Show ${name} in Layers`}
      data-testid="diagnose-layer-link"
      onClick={() => {
        useLayersView.getState().setQuery(name);
        useNavigation.getState().open('layers');
      }}
    >
      {name}
    </button>
  );
}

/**
 * The rule behind a message (docs/diagnostics.md): its reference, and where a discovered file has
 * that problem, a link to it in Problems.
 */
function RuleLink({ code, files }: { code: RuleCode; files: readonly string[] }) {
  const [open, setOpen] = useState(false);
  const manifests = useDiscovery((s) => s.manifests);
  const ref = ruleReference(code);
  // The file the message names first, else any discovered file with this problem.
  const list = allManifests(manifests);
  const candidates = [...list.filter((m) => files.includes(m.path)), ...list.filter((m) => !files.includes(m.path))];
  let hit: { path: string; index: number } | null = null;
  for (const m of candidates) {
    const index = m.diagnostics.findIndex((d) => d.code === code);
    if (index >= 0) {
      hit = { path: m.path, index };
      break;
    }
  }
  return (
    <span className="diagnose-rule">
      <button
        type="button"
        className="diagnose-rule-link"
        aria-expanded={open}
        title={`The rule that describes this: ${ref.doc}`}
        data-testid="diagnose-rule-link"
        data-code={code}
        onClick={() => setOpen(!open)}
      >
        {code}
      </button>
      {open && (
        <span className="diagnose-rule-details" data-testid="diagnose-rule-details">
          Described in <code>{ref.doc}</code>; specification: {ref.spec}.{' '}
          {hit ? (
            <button type="button" className="diagnose-link" data-testid="diagnose-rule-problem" onClick={() => showProblem(hit.path, hit.index)}>
              Show it in Problems ({hit.path})
            </button>
          ) : (
            <span className="muted">No discovered file has this problem now (the file may be outside the search paths, or already fixed).</span>
          )}
        </span>
      )}
    </span>
  );
}

function Entry({ entry }: { entry: LogEntry }) {
  const manifests = useDiscovery((s) => s.manifests);
  const rule = ruleForMessage(entry.message);
  // Rules of the files it names, as Strata's lint found them.
  const codes = new Set<RuleCode>(rule ? [rule] : []);
  for (const m of allManifests(manifests))
    if (entry.files.includes(m.path)) for (const d of m.diagnostics) if (typeof d.code === 'string' && isRuleCode(d.code)) codes.add(d.code);
  return (
    <li className={`diagnose-entry${entry.level ? ` level-${entry.level}` : ''}`} data-testid="diagnose-entry" data-count={entry.count}>
      {entry.level && <span className="diagnose-level">{entry.level}</span>}
      <span className="diagnose-message">
        {messageParts(entry.message, entry.files).map((p, i) =>
          p.kind === 'file' ? <FileLink key={i} path={p.text} /> : p.kind === 'layer' ? <LayerLink key={i} name={p.text} /> : <span key={i}>{p.text}</span>,
        )}
      </span>
      {entry.count > 1 && (
        <span className="log-repeats" title={`Said ${entry.count} times; shown once`}>
          ×{entry.count}
        </span>
      )}
      {codes.size > 0 && (
        <span className="diagnose-rules">
          {[...codes].map((c) => (
            <RuleLink key={c} code={c} files={entry.files} />
          ))}
        </span>
      )}
    </li>
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
          <Entry key={e.seq} entry={e} />
        ))}
      </ul>
    </details>
  );
}

/** Every driver manifest the loader reads, each with the devices that came from it (none: the loader got no device from it). */
function DriversSummary({ devices }: { devices: readonly { deviceName: string; origin?: { manifest: string } | null }[] }) {
  const manifests = useDiscovery((s) => s.manifests);
  if (manifests.status !== 'ready') return null;
  const drivers = [...manifests.value.manifests.driver].sort((a, b) => a.order - b.order);
  if (drivers.length === 0) return <p className="muted">The loader finds no driver manifest.</p>;
  return (
    <ul className="diagnose-drivers" data-testid="diagnose-drivers">
      {drivers.map((m) => {
        const from = devices.filter((d) => d.origin?.manifest === m.path).map((d) => d.deviceName);
        return (
          <li key={`${m.order}:${m.path}`} data-testid="diagnose-driver" data-path={m.path}>
            <FileLink path={m.path} /> <span className="muted">({m.origin})</span>{' '}
            {from.length ? <span>→ {from.join(', ')}</span> : <Badge tone="warning">no device</Badge>}
          </li>
        );
      })}
    </ul>
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
  if (list.length === 0)
    return (
      <>
        <p className="muted">The loader enumerates no physical device.</p>
        <DriversSummary devices={[]} />
      </>
    );
  return (
    <>
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
                from <FileLink path={d.origin.manifest} />
              </>
            )}
          </li>
        ))}
      </ul>
      <h3 className="diagnose-subtitle">Driver manifests</h3>
      <DriversSummary devices={list} />
    </>
  );
}

/**
 * Diagnostics: one click runs the loader for the system (vulkaninfo --summary) or an application at
 * a chosen VK_LOADER_DEBUG level (a launch through sessions/launch, recorded as a session), shows
 * what it said grouped by category with repeats folded and every line wrapped, each file, layer and
 * rule it names linked (Layers, Drivers, Problems, docs/diagnostics.md), the devices and drivers,
 * and exports one zip (versions, environment, Strata's files, chain, devices, the run's output,
 * every manifest).
 */
export function DiagnosticsView() {
  const { target, command, level, ranId } = useDiagnostics();
  const setTarget = (t: 'system' | 'app') => useDiagnostics.getState().set({ target: t });
  const setCommand = (c: string) => useDiagnostics.getState().set({ command: c });
  const setLevel = (l: string) => useDiagnostics.getState().set({ level: l });
  const setRanId = (id: string | null) => useDiagnostics.getState().set({ ranId: id });
  const [exporting, setExporting] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [folder, setFolder] = useState('~/strata-diagnostics');
  const [saving, setSaving] = useState<{ busy: boolean; error: StrataError | null; saved: string | null }>({ busy: false, error: null, saved: null });
  const live = useSessions((s) => s.live);
  const starting = useSessions((s) => s.starting);
  const startError = useSessions((s) => s.startError);
  const profiles = useProfiles((s) => s.list);
  const bound = profiles.status === 'ready' ? profiles.value.applications : [];
  const run = live && live.summary.id === ranId ? live : null;
  const grouped = useMemo(() => (run ? groupLog(run.log.records) : null), [run]);
  const counts = useMemo(() => (run ? liveCounts(run.log.records, run.footer?.counts) : null), [run]);
  const note = useMemo(() => (run ? overrideWarningsNote(run.summary, run.log.records) : null), [run]);

  useEffect(() => {
    useSessions.getState().listen();
    if (hasStrataApi() && useProfiles.getState().list.status === 'idle') void useProfiles.getState().load();
    if (hasStrataApi() && useDiscovery.getState().manifests.status === 'idle') void useDiscovery.getState().loadManifests();
  }, []);

  const start = async () => {
    const commandLine = target === 'system' ? SYSTEM_COMMAND : command.trim();
    if (!commandLine) return;
    // The run goes through the Launcher's store; the Launcher's own form is given back afterwards.
    const kept = useSessions.getState().form;
    useSessions.getState().setForm({ commandLine, loaderDebug: level, profile: '', env: '', cwd: '', timeout: '60' });
    await useSessions.getState().start();
    useSessions.getState().setForm(kept);
    const id = useSessions.getState().live?.summary.id ?? null;
    if (!useSessions.getState().startError) setRanId(id);
  };

  /** The bundle's files, from the one builder (bundleFiles) for the zip and the folder alike. */
  const buildBundle = async () => {
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
    const files = bundleFiles({
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
    });
    return { files, name: `strata-diagnostics-${createdAt.replace(/[:.]/g, '-')}` };
  };

  const exportBundle = async () => {
    setExporting({ busy: true, error: null });
    try {
      const { files, name } = await buildBundle();
      downloadBlob(new Blob([zipBundle(files) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), `${name}.zip`);
      setExporting({ busy: false, error: null });
    } catch (e) {
      setExporting({ busy: false, error: e instanceof Error ? e.message : String(e) });
    }
  };

  // The page cannot write a folder: main writes the same files under the folder the user names (diagnostics.saveFolder).
  const saveFolder = async () => {
    setSaving({ busy: true, error: null, saved: null });
    try {
      const { files, name } = await buildBundle();
      const saved = await strataApi().call('diagnostics.saveFolder', {
        parent: folder.trim(),
        name,
        files: Object.entries(files).map(([n, text]) => ({ name: n, text })),
      });
      setSaving({ busy: false, error: null, saved: saved.path });
    } catch (e) {
      setSaving({ busy: false, error: toStrataError(e, 'diagnostics.saveFolder'), saved: null });
    }
  };

  return (
    <div className="diagnostics-view" data-testid="diagnostics-view">
      <div className="diagnostics-top">
        <Card id="diagnose" title="Run the loader">
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
              <span className="muted">Recorded as a session (Sessions › History); stopped after 60 s.</span>
            </div>
            <div className="bundle-folder-row">
              <label className="launch-field bundle-folder-field">
                <span>Or save the bundle as a folder in</span>
                <input
                  type="text"
                  value={folder}
                  spellCheck={false}
                  onChange={(e) => setFolder(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      if (folder.trim() && !saving.busy) void saveFolder();
                    }
                  }}
                  data-testid="diagnose-folder"
                />
              </label>
              <button
                type="button"
                className="button"
                disabled={saving.busy || !folder.trim()}
                onClick={() => void saveFolder()}
                data-testid="diagnose-save-folder"
              >
                {saving.busy ? 'Saving…' : 'Save as folder'}
              </button>
            </div>
            {saving.saved && (
              <p className="bundle-folder-saved" role="status" data-testid="diagnose-folder-saved">
                Saved: <code>{saving.saved}</code> (a new folder; attach it, or its files, to the bug report)
              </p>
            )}
            {saving.error && <RequestErrorMessage title="The bundle folder was not saved" error={saving.error} onRetry={() => void saveFolder()} />}
            {startError && <RequestErrorMessage title="The loader run did not start" error={startError} onRetry={() => void start()} />}
            {exporting.error && (
              <p className="request-error-message" role="alert">
                The bundle could not be built: {exporting.error}. Fix: check that Strata is still running, then export again.
              </p>
            )}
          </form>
        </Card>
        <Card id="diagnose-devices" title="Devices and drivers">
          <DevicesSummary />
        </Card>
      </div>
      {run && grouped && counts && (
        <Card
          id="diagnose-log"
          title="What the loader said"
          aside={
            <span className="diagnose-status" data-testid="diagnose-status" data-ended={run.footer ? 'true' : 'false'} data-session={run.summary.id}>
              <code>{commandLabel(run.summary)}</code>{' '}
              {run.footer ? <Badge tone={exitTone(run.footer.exit)}>{exitLabel(run.footer.exit)}</Badge> : <Badge tone="accent">running</Badge>}{' '}
              <span data-testid="diagnose-counts">{counts.label}</span>
            </span>
          }
        >
          {note && (
            <p className="session-note" data-testid="diagnose-override-note">
              {note}
            </p>
          )}
          {grouped.groups.length === 0 ? <p className="muted">Nothing yet.</p> : grouped.groups.map((g) => <Group key={g.category} group={g} />)}
          {grouped.dropped > 0 && (
            <p className="muted">{grouped.dropped.toLocaleString('en-US')} more distinct lines are in the session (History) and the bundle.</p>
          )}
        </Card>
      )}
    </div>
  );
}
