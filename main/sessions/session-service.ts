import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { serviceError, StrataRequestError } from '../../shared/errors/strata-error';
import { applyEnvOverrides, type LayerChain } from '../../shared/loader/chain';
import { CaptureParser } from '../../shared/sessions/capture-parser';
import { checkLoaderDebugLevel, LOADER_DEBUG_WORDS } from '../../shared/sessions/loader-log-line';
import type { LaunchStartRequest, SessionSummary } from '../../shared/sessions/session-ipc';
import { makeSessionId, SESSION_FORMAT, type CaptureStream, type SessionFooter, type SessionHeader } from '../../shared/sessions/session-records';
import { explainChain } from '../chain/chain-service';
import type { LoaderVersionLookup } from '../chain/loader-version';
import type { EventBus } from '../platform/event-bus';
import { Launch, type LaunchResult } from './launcher';
import { LiveBatcher } from './live-batcher';
import { CaptureRecorder } from './capture-recorder';
import { SessionWriter } from './session-writer';
import { sessionFile, sessionsDir, summaryOf, type StoreOptions } from './session-store';
import { planValidationRouting } from './validation-routing';
import { lazySpecLookup } from './valid-usage-registry';

/** A profile applied to one launch: its full copy (kept in the session) and the environment that applies it. */
export interface ProfileLaunch {
  name: string;
  copy: unknown;
  env: Record<string, string | null>;
  notes: string[];
  /** The profile's layer settings as vk_layer_settings.txt text (the launcher writes the file); null: none. */
  settingsText: string | null;
}

/** Resolves a profile name for a launch (main/sessions/profile-launch.ts); without one, a launch with a profile is refused. */
export type ProfileResolver = (name: string, env: NodeJS.ProcessEnv) => Promise<ProfileLaunch>;

export interface SessionServiceOptions {
  env: NodeJS.ProcessEnv;
  version: string;
  /** Live events (`session.started`, `session.lines`, `session.ended`) go here while a UI listens. */
  bus?: EventBus | null;
  profiles?: ProfileResolver | null;
  /** Predict the layer chain for each launch (a discovery pass; the bench turns it off). */
  predictChain?: boolean;
  graceMs?: number;
  drainMs?: number;
  /** The real loader's version, so the predicted chain follows its rules (hosts ask the probe). */
  loaderVersion?: LoaderVersionLookup;
}

export interface StartHooks {
  /** The bytes as read (the validation stream without Strata's end marker), for a terminal that shows the output unchanged. */
  raw?(stream: CaptureStream, chunk: Buffer): void;
}

export interface RunningSession {
  id: string;
  file: string;
  header: SessionHeader;
  launch: Launch;
  /** The footer once the application ended and the file was closed. */
  ended: Promise<SessionFooter>;
}

/** Inherited variables worth keeping with a session: those that steer the loader, layers and drivers (not secrets). */
const RELEVANT_ENV =
  /^(VK_|VULKAN_|XDG_|MESA_|LIBGL_|LP_|RADV_|ANV_|NODEVICE_SELECT$|MANGOHUD|ENABLE_VKBASALT$|DISABLE_|ENABLE_|__GL|__NV|DXVK_|VKD3D_)|^(HOME|PATH|LD_LIBRARY_PATH|LD_PRELOAD|DISPLAY|WAYLAND_DISPLAY)$/;

export function relevantEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(env).sort()) if (RELEVANT_ENV.test(k) && env[k] !== undefined) out[k] = env[k]!;
  return out;
}

/** The file `command` runs: a path (relative to cwd), or the first executable of that name on PATH. */
export function resolveExecutable(command: string, path: string | undefined, cwd: string): string | null {
  const executable = (p: string) => {
    try {
      accessSync(p, fsConstants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const p = isAbsolute(command) ? command : resolve(cwd, command);
    return executable(p) ? p : null;
  }
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (executable(p)) return p;
  }
  return null;
}

function usage(code: string, message: string, where: string, fix: string): StrataRequestError {
  return serviceError(code, message, { where, fix });
}

export class SessionService {
  private readonly running = new Map<string, RunningSession>();
  readonly dir: string;

  constructor(private readonly options: SessionServiceOptions) {
    this.dir = sessionsDir(options.env);
  }

  get store(): StoreOptions {
    return { dir: this.dir, running: (id) => this.running.has(id) };
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  runningSessions(): RunningSession[] {
    return [...this.running.values()];
  }

  async start(request: LaunchStartRequest, hooks: StartHooks = {}): Promise<RunningSession> {
    const env = this.options.env;
    const cwd = request.cwd ? resolve(request.cwd) : process.cwd();
    let folder: boolean;
    try {
      folder = statSync(cwd).isDirectory();
    } catch {
      throw usage('launch/bad-cwd', `The working folder ${cwd} does not exist`, cwd, 'give an existing folder');
    }
    if (!folder) throw usage('launch/bad-cwd', `The working folder ${cwd} is not a folder`, cwd, 'give an existing folder');
    let loaderDebug: string | null = null;
    if (request.loaderDebug !== undefined) {
      const checked = checkLoaderDebugLevel(request.loaderDebug);
      if (!checked.ok) {
        throw usage(
          'launch/bad-loader-debug',
          `VK_LOADER_DEBUG does not know ${checked.unknown.map((w) => `"${w}"`).join(', ')}`,
          'loader debug level',
          `use one or more of ${LOADER_DEBUG_WORDS.join(', ')}, separated by commas`,
        );
      }
      loaderDebug = checked.value;
    }

    const notes: string[] = [];
    let profile: ProfileLaunch | null = null;
    if (request.profile) {
      if (!this.options.profiles) {
        throw usage(
          'launch/profiles-unavailable',
          `Cannot apply profile "${request.profile}": this Strata has no profile store`,
          'profile',
          'launch without --profile, or use a Strata build with Profiles',
        );
      }
      profile = await this.options.profiles(request.profile, env);
      notes.push(...profile.notes);
    }

    // One launch only: the profile and the user's variables go into this child's environment, nothing global changes.
    const additions: Record<string, string | null> = { ...(profile?.env ?? {}), ...(request.env ?? {}) };
    if (loaderDebug) additions['VK_LOADER_DEBUG'] = loaderDebug;
    const composed = applyEnvOverrides(env, additions) as NodeJS.ProcessEnv;
    const routing = planValidationRouting({
      env: composed,
      cwd,
      home: env['HOME'] || homedir(),
      enabled: request.routeValidation !== false,
      profileSettings: profile?.settingsText ?? null,
      registeredSettingsFile: process.platform === 'win32' ? await registeredSettingsFileOnWindows() : null,
    });
    if (routing.note) notes.push(routing.note);
    const childEnv: NodeJS.ProcessEnv = { ...composed, ...routing.env };

    const resolvedPath = resolveExecutable(request.command, childEnv['PATH'], cwd);
    let chain: LayerChain | null = null;
    let chainError: string | null = null;
    if (this.options.predictChain !== false) {
      try {
        const loader = this.options.loaderVersion?.();
        chain = await explainChain({ env: childEnv }, { app: { path: resolvedPath, requestedLayers: [] }, ...(loader ? { loader } : {}) });
        notes.push('The predicted chain does not include layers the application enables itself (VkInstanceCreateInfo::ppEnabledLayerNames).');
      } catch (e) {
        chainError = e instanceof Error ? e.message : String(e);
      }
    }

    const set: Record<string, string> = {};
    const unset: string[] = [];
    for (const [k, v] of Object.entries({ ...additions, ...routing.env })) {
      if (v === null) unset.push(k);
      else set[k] = v;
    }
    const inherited = relevantEnvironment(env);
    for (const k of [...Object.keys(set), ...unset]) delete inherited[k];

    const startDate = new Date();
    let writer: SessionWriter | null = null;
    let header: SessionHeader | null = null;
    let file = '';
    for (let attempt = 0; !writer; attempt++) {
      const id = makeSessionId(startDate, request.command, randomBytes(2).toString('hex'));
      file = sessionFile(this.dir, id);
      header = {
        kind: 'header',
        format: SESSION_FORMAT,
        id,
        application: { command: request.command, args: request.args ?? [], cwd, resolvedPath },
        profile: profile ? { name: profile.name, copy: profile.copy } : null,
        chain,
        chainError,
        environment: { set, unset, inherited },
        loaderDebug,
        validationRouting: { mode: routing.mode, note: routing.note },
        timeoutMs: request.timeoutS ? Math.round(request.timeoutS * 1000) : null,
        startedAt: startDate.toISOString(),
        startWall: startDate.getTime(),
        strataVersion: this.options.version,
        strataPid: process.pid,
        notes,
      };
      try {
        writer = SessionWriter.create(file, header);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8) continue;
        routing.cleanup();
        throw usage(
          'sessions/write-failed',
          `Cannot create the session file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
          file,
          `make ${this.dir} writable, or point XDG_STATE_HOME at a writable folder`,
        );
      }
    }
    return this.run(header!, file, writer, childEnv, routing, hooks);
  }

  private run(
    header: SessionHeader,
    file: string,
    writer: SessionWriter,
    childEnv: NodeJS.ProcessEnv,
    routing: ReturnType<typeof planValidationRouting>,
    hooks: StartHooks,
  ): RunningSession {
    const bus = this.options.bus ?? null;
    const id = header.id;
    const parser = new CaptureParser(lazySpecLookup(this.options.env));
    // Batches are built only while someone listens (a window, an event stream); the CLI and benches skip them.
    const batcher = bus
      ? new LiveBatcher((records, dropped) => {
          if (bus.size > 0) bus.emit('session.lines', { id, records, dropped });
        })
      : null;
    const bytes = { stdout: 0, stderr: 0, validation: 0 };
    let writeError: unknown = null;
    const recorder = new CaptureRecorder(parser, {
      write: (buf, length) => {
        if (writeError) return;
        try {
          writer.appendBytes(buf, length);
        } catch (e) {
          // Disk full or the like: the application is stopped, since a run no one records is not a session.
          writeError = e;
          launch.stop('stopped');
        }
      },
      liveRoom: () => (batcher && bus!.size > 0 ? batcher.room() : 0),
      live: (records, dropped) => batcher?.add(records, dropped),
    });
    const launch = new Launch(
      {
        command: header.application.command,
        args: header.application.args,
        cwd: header.application.cwd,
        env: childEnv,
        timeoutMs: header.timeoutMs,
        validationFifo: routing.fifoPath,
        ...(this.options.graceMs !== undefined ? { graceMs: this.options.graceMs } : {}),
        ...(this.options.drainMs !== undefined ? { drainMs: this.options.drainMs } : {}),
      },
      {
        chunk: (stream, chunk, t, wall) => {
          bytes[stream] += chunk.length;
          hooks.raw?.(stream, chunk);
          recorder.chunk(stream, chunk, t, wall);
        },
        ended: (stream, t, wall) => recorder.end(stream, t, wall),
      },
    );
    const ended = launch.done.then(async (result: LaunchResult) => {
      batcher?.flush();
      const footer: SessionFooter = {
        kind: 'footer',
        endedAt: new Date(result.endWall).toISOString(),
        endWall: result.endWall,
        durationMs: Math.round(result.durationMs * 1000) / 1000,
        exit: { reason: result.reason, code: result.code, signal: result.signal, error: result.error },
        counts: { ...parser.counts, bytes },
      };
      routing.cleanup();
      this.running.delete(id);
      if (writeError) {
        throw serviceError(
          'sessions/write-failed',
          `Writing session ${id} failed: ${(writeError as NodeJS.ErrnoException).code ?? String(writeError)}; the application was stopped`,
          {
            where: file,
            fix: 'free space in the sessions folder (or point XDG_STATE_HOME elsewhere) and launch again',
          },
        );
      }
      await writer.finish(footer);
      bus?.emit('session.ended', { id, footer });
      return footer;
    });
    const session: RunningSession = { id, file, header, launch, ended };
    this.running.set(id, session);
    // A failure is reported to whoever awaits `ended`; this keeps it from being an unhandled rejection meanwhile.
    ended.catch(() => undefined);
    bus?.emit('session.started', { summary: this.summary(session) });
    return session;
  }

  summary(session: RunningSession): SessionSummary {
    return summaryOf(session.file, 0, session.header, null, this.store);
  }

  stop(id: string): boolean {
    const s = this.running.get(id);
    if (!s) return false;
    s.launch.stop('stopped');
    return true;
  }

  /** Stops every running application and waits until their sessions are closed (host shutdown). */
  async dispose(): Promise<void> {
    const all = [...this.running.values()];
    for (const s of all) s.launch.stop('stopped');
    await Promise.allSettled(all.map((s) => s.ended));
  }
}

/** Windows: the layer settings file the launched application's layers find through the registry (as elevated as Strata). */
async function registeredSettingsFileOnWindows(): Promise<string | null> {
  const [{ registeredLayerSettingsFile }, { windowsProcessElevated }] = await Promise.all([
    import('../override/windows-override'),
    import('../discovery/windows-registry'),
  ]);
  return registeredLayerSettingsFile((await windowsProcessElevated()) === true);
}
