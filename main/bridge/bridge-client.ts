import { lazyBuiltin } from '../platform/lazy-builtin';
import { strataError, type StrataError } from '../../shared/errors/strata-error';
import type { IpcResult } from '../../shared/ipc/result';
import { PROBE_STAGE_PREFIX } from '../../shared/vulkan/probe-stage-prefix';
import { defaultProbeLauncher, encodeProbeRequest, parseProbeReply, type ProbeExit, type ProbeLauncher, type ProbeProcess } from './probe-transport';

/** The probe's replies are read line by line; loaded when a probe starts (a client often never starts one). */
const readline = lazyBuiltin<typeof import('node:readline')>('node:readline');

export interface BridgeClientOptions {
  /** The probe script and the node flags it needs (see app-paths.probeCommand). */
  probe: { file: string; execArgv: string[] };
  cwd: string;
  /** Per-request limit; a probe that overruns it is killed and restarted on the next request. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** How the probe is started (main/bridge/probe-transport.ts); default: utilityProcess in Electron, a child process elsewhere. */
  launcher?: ProbeLauncher;
  /**
   * Answers `loader.version` in this process when that maps no library but the loader's, instead of
   * starting the probe (main/bridge/loader-version-in-process.ts); the CLI sets it, a long-lived host
   * pays the probe's start once and keeps it.
   */
  loaderVersionInProcess?: boolean;
}

interface Pending {
  method: string;
  resolve: (r: IpcResult<unknown> & { stderr?: string }) => void;
  timer: NodeJS.Timeout;
  /** What the probe wrote to stderr while this request was out (the loader's VK_LOADER_DEBUG log); null: not kept. */
  stderr: string | null;
}

/** Enough for VK_LOADER_DEBUG=all on a machine with many layers; the rest is cut. */
const STDERR_CAPTURE_LIMIT = 1 << 20;

/**
 * Windows ends a process that faulted with the exception's NTSTATUS as its exit code (ntstatus.h);
 * the ones a broken driver or layer DLL ends a probe with.
 */
const NTSTATUS_NAMES: Readonly<Record<number, string>> = {
  0x80000003: 'EXCEPTION_BREAKPOINT',
  0xc0000005: 'EXCEPTION_ACCESS_VIOLATION',
  0xc000001d: 'EXCEPTION_ILLEGAL_INSTRUCTION',
  0xc0000094: 'EXCEPTION_INT_DIVIDE_BY_ZERO',
  0xc00000fd: 'EXCEPTION_STACK_OVERFLOW',
  0xc0000374: 'STATUS_HEAP_CORRUPTION',
  0xc0000409: 'STATUS_STACK_BUFFER_OVERRUN',
};

/** "was killed by SIGSEGV", "exited with code 139", on Windows "exited with code 0xC0000005 (EXCEPTION_ACCESS_VIOLATION)". */
export function probeExitText({ code, signal }: ProbeExit): string {
  if (signal) return `was killed by ${signal}`;
  const status = code === null ? null : code >>> 0;
  const name = status === null ? undefined : NTSTATUS_NAMES[status];
  if (status !== null && (name || status >= 0xc0000000))
    return `exited with code 0x${status.toString(16).toUpperCase().padStart(8, '0')}${name ? ` (${name})` : ''}`;
  return `exited with code ${code}`;
}

/** How a probe died, from its error's message ("killed by SIGSEGV", "exited with code 139" or "… 0xC0000005 (EXCEPTION_ACCESS_VIOLATION)"); null when it does not say. */
export function probeDeathDetail(message: string): string | null {
  return /killed by \w+|exited with code (?:0x[0-9A-F]{8}(?: \(\w+\))?|-?\d+)/.exec(message)?.[0] ?? null;
}

/** The last stage a probe announced before it died (native-bridge/probe-stage.ts), from an error's stderr tail. */
export function lastProbeStage(error: StrataError): string | null {
  const tail = (error.data as { stderrTail?: unknown } | undefined)?.stderrTail;
  if (typeof tail !== 'string') return null;
  const lines = tail.split('\n').filter((l) => l.startsWith(PROBE_STAGE_PREFIX));
  return lines.length ? lines[lines.length - 1]!.slice(PROBE_STAGE_PREFIX.length) : null;
}

/**
 * Talks to native-bridge/probe.ts over JSON lines. A crash (a driver's SIGSEGV), a hang, or garbage
 * on stdout turns into an error value for the requests in flight; the next request starts a new probe.
 */
export class BridgeClient {
  private child: ProbeProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';

  constructor(private readonly options: BridgeClientOptions) {}

  /** How this client starts its probe. */
  get transport(): ProbeLauncher['kind'] {
    return (this.options.launcher ?? defaultProbeLauncher()).kind;
  }

  /**
   * `params` travels with the request when given; `timeoutMs` overrides the client's limit for this
   * request; `captureStderr` returns what the probe wrote to stderr meanwhile (the loader's log).
   */
  request<T = unknown>(
    method: string,
    params?: unknown,
    options: { timeoutMs?: number; captureStderr?: boolean } = {},
  ): Promise<IpcResult<T> & { stderr?: string }> {
    if (method === 'loader.version' && this.options.loaderVersionInProcess && !this.child) return this.loaderVersion(params, options);
    return this.requestProbe(method, params, options);
  }

  private async loaderVersion<T>(params: unknown, options: { timeoutMs?: number; captureStderr?: boolean }): Promise<IpcResult<T> & { stderr?: string }> {
    const { loaderVersionInProcess } = await import('./loader-version-in-process');
    const value = loaderVersionInProcess(this.options.env ?? process.env);
    return value ? { ok: true, value: value as T, ...(options.captureStderr ? { stderr: '' } : {}) } : this.requestProbe('loader.version', params, options);
  }

  private requestProbe<T = unknown>(
    method: string,
    params?: unknown,
    options: { timeoutMs?: number; captureStderr?: boolean } = {},
  ): Promise<IpcResult<T> & { stderr?: string }> {
    let child: ProbeProcess;
    try {
      child = this.ensureChild();
    } catch (e) {
      return Promise.resolve({
        ok: false,
        error: strataError('bridge/spawn-failed', `Could not start the Vulkan probe: ${e instanceof Error ? e.message : String(e)}`, {
          where: this.options.probe.file,
        }),
      });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 5000;
      const timer = setTimeout(() => {
        this.fail(
          strataError('bridge/timeout', `The Vulkan probe did not answer "${method}" within ${timeoutMs} ms`, {
            where: 'native-bridge probe',
            fix: 'a layer or driver is probably hanging; run with VK_LOADER_DEBUG=all to see which one',
          }),
        );
      }, timeoutMs);
      this.pending.set(id, { method, resolve: resolve as Pending['resolve'], timer, stderr: options.captureStderr ? '' : null });
      child.send(encodeProbeRequest(id, method, params));
    });
  }

  dispose(): void {
    const child = this.child;
    this.child = null;
    child?.kill();
  }

  private ensureChild(): ProbeProcess {
    if (this.child) return this.child;
    const { probe, cwd, env } = this.options;
    const child = (this.options.launcher ?? defaultProbeLauncher()).launch({ file: probe.file, execArgv: probe.execArgv, cwd, env: env ?? process.env });
    this.child = child;
    this.stderrTail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
      for (const p of this.pending.values()) if (p.stderr !== null && p.stderr.length < STDERR_CAPTURE_LIMIT) p.stderr += chunk;
    });
    readline()
      .createInterface({ input: child.stdout })
      .on('line', (line) => this.onLine(child, line));
    child.onError((e) => {
      if (this.child === child) this.fail(strataError('bridge/spawn-failed', `Could not start the Vulkan probe: ${e.message}`, { where: probe.file }));
    });
    child.onExit((exit) => {
      if (this.child !== child) return;
      const detail = this.stderrTail.trim().split('\n').pop();
      this.fail(
        strataError('bridge/crashed', `The Vulkan probe ${probeExitText(exit)}${detail ? `: ${detail}` : ''}`, {
          where: 'native-bridge probe',
          fix: 'a layer or driver crashed while loading; run with VK_LOADER_DEBUG=all to see which one',
        }),
        false,
      );
    });
    return child;
  }

  private onLine(child: ProbeProcess, line: string) {
    const message = parseProbeReply(line);
    if (!message) {
      if (this.child === child) {
        this.fail(
          strataError('bridge/garbage', `The Vulkan probe printed something that is not a reply: ${line.slice(0, 200)}`, {
            where: 'native-bridge probe',
            fix: 'a layer or driver writes to stdout while loading; report it to its vendor',
          }),
        );
      }
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id as number);
    clearTimeout(pending.timer);
    const stderr = pending.stderr !== null ? { stderr: pending.stderr } : {};
    pending.resolve(
      message.ok
        ? { ok: true, value: message.value, ...stderr }
        : { ok: false, error: (message.error as StrataError | undefined) ?? strataError('bridge/failed', 'The probe failed without a reason'), ...stderr },
    );
  }

  /** Ends every request in flight with `error` and drops the probe so the next request starts afresh. */
  private fail(error: StrataError, kill = true) {
    const child = this.child;
    this.child = null;
    if (kill) child?.kill();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, error: { ...error, data: { method: p.method, stderrTail: this.stderrTail } } });
      this.pending.delete(id);
    }
  }
}
