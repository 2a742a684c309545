import { useEffect } from 'react';
import { LOADER_DEBUG_WORDS } from '../../../shared/sessions/loader-log-line';
import { useProfiles } from '../profiles/profiles-store';
import { useSessions } from './sessions-store';
import { launchFieldsFor } from './command-line';
import '../styles/chain.css';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';

/** VK_LOADER_DEBUG choices offered; the CLI takes any combination of LOADER_DEBUG_WORDS. */
const LOADER_DEBUG_CHOICES: readonly { value: string; label: string }[] = [
  { value: '', label: 'Off' },
  { value: 'error,warn', label: 'Errors and warnings' },
  { value: 'error,warn,info', label: 'Errors, warnings and info' },
  { value: 'error,warn,info,layer,driver', label: 'Layers and drivers too' },
  { value: 'all', label: 'Everything (all)' },
];

/**
 * The Launcher: an application (command line, folder, extra variables), a profile applied to this
 * launch only, the loader's debug level and a time limit; Start and Stop.
 */
export function LaunchForm() {
  const form = useSessions((s) => s.form);
  const setForm = useSessions((s) => s.setForm);
  const start = useSessions((s) => s.start);
  const stop = useSessions((s) => s.stop);
  const starting = useSessions((s) => s.starting);
  const startError = useSessions((s) => s.startError);
  const running = useSessions((s) => (s.live && !s.live.footer ? s.live.summary.id : null));
  const profiles = useProfiles((s) => s.list);
  const loadProfiles = useProfiles((s) => s.load);

  useEffect(() => {
    if (profiles.status === 'idle') void loadProfiles();
  }, [profiles.status, loadProfiles]);

  const names =
    profiles.status === 'ready'
      ? [
          ...profiles.value.profiles.map((p) => ({ name: p.name, note: '' })),
          ...profiles.value.presets.map((p) => ({ name: p.profile.name, note: p.available ? ' (preset)' : ' (preset, not all layers installed)' })),
        ]
      : [];

  const bound = profiles.status === 'ready' ? profiles.value.applications.filter((a) => a.profile) : [];
  const command = form.commandLine.trim();
  const boundNow = bound.find((a) => command === launchFieldsFor(a).commandLine || command.startsWith(`${launchFieldsFor(a).commandLine} `));

  return (
    <>
      {bound.length > 0 && (
        <div className="launch-bound" role="group" aria-label="Bound applications">
          <span className="launch-bound-label">Bound applications</span>
          {bound.map((a) => (
            <button
              type="button"
              key={a.path}
              className="chain-chip"
              data-testid="launch-bound-app"
              data-app={a.path}
              title={`Fill in ${a.path} with its profile “${a.profile}”`}
              onClick={() => setForm(launchFieldsFor(a))}
            >
              {a.label ?? a.path.split('/').pop()} · {a.profile}
            </button>
          ))}
        </div>
      )}
      <form
        className="launch-form"
        data-testid="launch-form"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <label className="launch-field launch-command">
          <span>Command</span>
          <input
            type="text"
            value={form.commandLine}
            placeholder="/usr/bin/vkcube --c 100"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setForm({ commandLine: e.currentTarget.value })}
            data-testid="launch-command"
          />
        </label>
        {boundNow && (
          <p className="launch-bound-note" data-testid="launch-bound-note">
            {boundNow.label ?? boundNow.path} is bound to “{boundNow.profile}”: started as it is, it gets that profile from its own override file, as it does
            outside Strata.
            {form.profile ? ` The launch profile “${form.profile}” replaces it for this launch (every installed override is switched off).` : ''}
          </p>
        )}
        <label className="launch-field">
          <span>Profile (this launch only)</span>
          <select value={form.profile} onChange={(e) => setForm({ profile: e.currentTarget.value })} data-testid="launch-profile">
            <option value="">None — the configuration as it is</option>
            {names.map((n) => (
              <option key={n.name} value={n.name}>
                {n.name}
                {n.note}
              </option>
            ))}
          </select>
        </label>
        <label className="launch-field">
          <span>Loader messages (VK_LOADER_DEBUG)</span>
          <select
            value={form.loaderDebug}
            onChange={(e) => setForm({ loaderDebug: e.currentTarget.value })}
            data-testid="launch-loader-debug"
            title={`The loader's words: ${LOADER_DEBUG_WORDS.join(', ')}`}
          >
            {LOADER_DEBUG_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="launch-field">
          <span>Working folder</span>
          <input
            type="text"
            value={form.cwd}
            placeholder="Strata's own"
            spellCheck={false}
            onChange={(e) => setForm({ cwd: e.currentTarget.value })}
            data-testid="launch-cwd"
          />
        </label>
        <label className="launch-field launch-timeout">
          <span>Stop after (seconds)</span>
          <input
            type="text"
            inputMode="decimal"
            value={form.timeout}
            placeholder="no limit"
            onChange={(e) => setForm({ timeout: e.currentTarget.value })}
            data-testid="launch-timeout"
          />
        </label>
        <label className="launch-field launch-env">
          <span>Environment for this launch (NAME=VALUE per line)</span>
          <textarea
            rows={3}
            value={form.env}
            spellCheck={false}
            placeholder="VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
            onChange={(e) => setForm({ env: e.currentTarget.value })}
            data-testid="launch-env"
          />
        </label>
        <div className="launch-actions">
          <button type="submit" className="button button-primary" disabled={starting || running !== null} data-testid="launch-start">
            {starting ? 'Starting…' : 'Start'}
          </button>
          <button type="button" className="button" disabled={running === null} onClick={() => void stop()} data-testid="launch-stop">
            Stop
          </button>
          <span className="muted">Stop sends SIGTERM, then SIGKILL after 5 s.</span>
        </div>
        {startError && <RequestErrorMessage title="The application was not started" error={startError} onRetry={() => void start()} />}
      </form>
    </>
  );
}
