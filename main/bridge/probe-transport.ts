/**
 * How the probe process (native-bridge/probe.ts) is started and spoken to, behind one interface so
 * main/bridge/bridge-client.ts does not care: under plain Node (CLI, browser host, tests) a child process
 * of the same node binary, requests on its stdin; inside Electron ≥ 22 an Electron utility process
 * (utilityProcess.fork: a Node child that Electron manages, the recommended way to run native code
 * outside the main process), which has no stdin, so requests go as messages. Either way the probe
 * answers one JSON line per request on stdout and announces its stages on stderr.
 */
import { lazyBuiltin } from '../platform/lazy-builtin';
import { createRequire } from 'node:module';

const childProcess = lazyBuiltin<typeof import('node:child_process')>('node:child_process');

export interface ProbeSpec {
  file: string;
  execArgv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** How a probe ended: a signal where the platform reports one (a utility process reports only a code). */
export interface ProbeExit {
  code: number | null;
  signal: string | null;
}

export type ProbeTransportKind = 'child-process' | 'utility-process';

/** A started probe, whoever started it. */
export interface ProbeProcess {
  readonly kind: ProbeTransportKind;
  readonly stdout: NodeJS.ReadableStream;
  readonly stderr: NodeJS.ReadableStream;
  /** Sends one request: a JSON text without the newline. */
  send(line: string): void;
  onExit(listener: (exit: ProbeExit) => void): void;
  onError(listener: (error: Error) => void): void;
  kill(): void;
  /**
   * Lets this process end without waiting for the probe's exit (a child process only). A probe that
   * was sent SIGKILL dies anyway; a one-shot command that waited to reap it ended 10–20 ms after its
   * answer while the kernel tore down the probe's mappings (the drivers, LLVM). Issue #19.
   */
  unref?(): void;
}

export interface ProbeLauncher {
  readonly kind: ProbeTransportKind;
  launch(spec: ProbeSpec): ProbeProcess;
}

/** One request as the probe reads it (a line on stdin, or one utility-process message). */
export function encodeProbeRequest(id: number, method: string, params?: unknown): string {
  return JSON.stringify(params === undefined ? { id, method } : { id, method, params });
}

export type ProbeReply = { id: unknown; ok: true; value: unknown } | { id: unknown; ok: false; error: unknown };

/** One stdout line of the probe, or null when it is not a reply (a driver or layer printing to stdout). */
export function parseProbeReply(line: string): ProbeReply | null {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null || !('id' in message) || !('ok' in message)) return null;
  const m = message as { id: unknown; ok: unknown; value?: unknown; error?: unknown };
  return m.ok === true ? { id: m.id, ok: true, value: m.value } : { id: m.id, ok: false, error: m.error };
}

/**
 * The environment the probe's Node starts with: `env` (what the loader is to see) without
 * NODE_EXTRA_CA_CERTS, which Node 20 reads and parses at every start (~50 ms for a system bundle,
 * issue #19) for TLS the probe never makes; the loader, drivers and layers do not read it. Nor under
 * the name bin/strata gives it for the CLI's own start (main/hosts/cli/node-environment.ts), which a
 * probe started before the CLI put it back (early-probe.ts) would otherwise see.
 */
export function probeNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _unused, STRATA_NODE_EXTRA_CA_CERTS: _setAside, ...rest } = env;
  return rest;
}

/** The probe as a child process of this very binary (under Electron, made to act as plain node). */
export const childProcessLauncher: ProbeLauncher = {
  kind: 'child-process',
  launch(spec) {
    const child = childProcess().spawn(process.execPath, [...spec.execArgv, spec.file], {
      cwd: spec.cwd,
      // Under Electron, execPath is the Electron binary: this flag makes it behave as plain node.
      env: { ...probeNodeEnv(spec.env), ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Once the probe is gone, its pipes must not keep this process alive: a process that outlives it
    // may still hold a write end. Under Wine the probe's stderr never reached EOF after it ended (Wine
    // starts services.exe and the Plug and Play service when the loader first asks for adapters), so
    // `strata info` answered and then never exited; a driver's helper process can do the same on
    // Windows. Unreferenced, they are still read while anything else keeps this process running.
    const release = () => {
      for (const s of [child.stdout, child.stderr]) (s as { unref?: () => void } | null)?.unref?.();
    };
    child.on('exit', release);
    return {
      kind: 'child-process',
      stdout: child.stdout!,
      stderr: child.stderr!,
      send: (line) => {
        child.stdin!.write(`${line}\n`);
      },
      onExit: (listener) => child.on('exit', (code, signal) => listener({ code, signal })),
      onError: (listener) => child.on('error', listener),
      kill: () => {
        child.kill('SIGKILL');
        release();
      },
      unref: () => {
        release();
        child.stdin?.destroy();
        child.unref();
      },
    };
  },
};

/** The part of Electron's utilityProcess module the probe needs (electron.d.ts, "UtilityProcess"). */
export interface UtilityProcessLike {
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (type: string, location: string) => void): unknown;
}
export interface UtilityProcessApi {
  fork(
    modulePath: string,
    args?: string[],
    options?: { env?: NodeJS.ProcessEnv; execArgv?: string[]; cwd?: string; stdio?: 'pipe' | ('pipe' | 'ignore' | 'inherit')[]; serviceName?: string },
  ): UtilityProcessLike;
}

/** The probe as an Electron utility process: stdin is not available there, so requests are messages. */
export function utilityProcessLauncher(api: UtilityProcessApi): ProbeLauncher {
  return {
    kind: 'utility-process',
    launch(spec) {
      const child = api.fork(spec.file, [], {
        env: probeNodeEnv(spec.env),
        execArgv: spec.execArgv,
        cwd: spec.cwd,
        // stdin must be 'ignore' for a utility process; stdout carries the replies, stderr the stages.
        stdio: ['ignore', 'pipe', 'pipe'],
        serviceName: 'Strata Vulkan probe',
      });
      if (!child.stdout || !child.stderr) throw new Error('utilityProcess.fork gave no stdout/stderr pipes');
      return {
        kind: 'utility-process',
        stdout: child.stdout,
        stderr: child.stderr,
        send: (line) => child.postMessage(line),
        onExit: (listener) => child.on('exit', (code) => listener({ code, signal: null })),
        onError: (listener) => child.on('error', (type, location) => listener(new Error(`${type} at ${location}`))),
        kill: () => {
          child.kill();
        },
      };
    },
  };
}

/** Electron's major version from process.versions.electron ("38.2.0" → 38); null outside Electron. */
export function electronMajor(electronVersion: string | undefined): number | null {
  if (!electronVersion) return null;
  const major = Number.parseInt(electronVersion, 10);
  return Number.isFinite(major) ? major : null;
}

export interface ProbeRuntime {
  /** process.versions.electron. */
  electronVersion: string | undefined;
  /** Electron's utilityProcess module; asked only inside Electron ≥ 22. */
  utilityProcess: () => UtilityProcessApi | null;
}

/** utilityProcess.fork inside Electron ≥ 22 (where it exists), a child process everywhere else. */
export function selectProbeLauncher(runtime: ProbeRuntime): ProbeLauncher {
  const major = electronMajor(runtime.electronVersion);
  if (major === null || major < 22) return childProcessLauncher;
  const api = runtime.utilityProcess();
  return api ? utilityProcessLauncher(api) : childProcessLauncher;
}

/**
 * Electron's module, looked up at run time and only inside Electron: main/ outside main/hosts/electron/
 * must not import electron (the layering rule), because the CLI and the browser host run under
 * plain Node, where the electron package is only the path of a binary.
 */
function electronUtilityProcess(): UtilityProcessApi | null {
  try {
    const electron = createRequire(import.meta.url)('electron') as { utilityProcess?: UtilityProcessApi };
    return electron.utilityProcess ?? null;
  } catch {
    return null;
  }
}

let defaultLauncher: ProbeLauncher | null = null;

/** The launcher for this process, chosen once. */
export function defaultProbeLauncher(): ProbeLauncher {
  defaultLauncher ??= selectProbeLauncher({ electronVersion: process.versions.electron, utilityProcess: electronUtilityProcess });
  return defaultLauncher;
}
