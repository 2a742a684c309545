import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { strataError, type StrataError } from '../shared/errors/strata-error';
import type { IpcResult } from '../shared/ipc/result';

export interface BridgeClientOptions {
  /** The probe script and the node flags it needs (see app-paths.probeCommand). */
  probe: { file: string; execArgv: string[] };
  cwd: string;
  /** Per-request limit; a probe that overruns it is killed and restarted on the next request. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

interface Pending {
  method: string;
  resolve: (r: IpcResult<unknown>) => void;
  timer: NodeJS.Timeout;
}

/**
 * Talks to native-bridge/probe.ts over JSON lines. A crash (a driver's SIGSEGV), a hang, or garbage
 * on stdout turns into an error value for the requests in flight; the next request starts a new probe.
 */
export class BridgeClient {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';

  constructor(private readonly options: BridgeClientOptions) {}

  /** `params` travels with the request when given; `timeoutMs` overrides the client's limit for this request. */
  request<T = unknown>(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<IpcResult<T>> {
    const child = this.ensureChild();
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
      this.pending.set(id, { method, resolve: resolve as (r: IpcResult<unknown>) => void, timer });
      child.stdin!.write(`${JSON.stringify(params === undefined ? { id, method } : { id, method, params })}\n`);
    });
  }

  dispose(): void {
    const child = this.child;
    this.child = null;
    child?.kill('SIGKILL');
  }

  private ensureChild(): ChildProcess {
    if (this.child) return this.child;
    const { probe, cwd, env } = this.options;
    const child = spawn(process.execPath, [...probe.execArgv, probe.file], {
      cwd,
      // Under Electron, execPath is the Electron binary: this flag makes it behave as plain node.
      env: { ...(env ?? process.env), ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.stderrTail = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(child, line));
    child.on('error', (e) => {
      if (this.child === child) this.fail(strataError('bridge/spawn-failed', `Could not start the Vulkan probe: ${e.message}`, { where: probe.file }));
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const detail = this.stderrTail.trim().split('\n').pop();
      this.fail(
        strataError('bridge/crashed', `The Vulkan probe ${how}${detail ? `: ${detail}` : ''}`, {
          where: 'native-bridge probe',
          fix: 'a layer or driver crashed while loading; run with VK_LOADER_DEBUG=all to see which one',
        }),
        false,
      );
    });
    return child;
  }

  private onLine(child: ChildProcess, line: string) {
    let message: { id?: unknown; ok?: unknown; value?: unknown; error?: StrataError };
    try {
      message = JSON.parse(line);
    } catch {
      if (this.child === child) {
        this.fail(strataError('bridge/garbage', `The Vulkan probe printed something that is not a reply: ${line.slice(0, 200)}`, {
          where: 'native-bridge probe',
          fix: 'a layer or driver writes to stdout while loading; report it to its vendor',
        }));
      }
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id as number);
    clearTimeout(pending.timer);
    pending.resolve(message.ok === true ? { ok: true, value: message.value } : { ok: false, error: message.error ?? strataError('bridge/failed', 'The probe failed without a reason') });
  }

  /** Ends every request in flight with `error` and drops the probe so the next request starts afresh. */
  private fail(error: StrataError, kill = true) {
    const child = this.child;
    this.child = null;
    if (kill) child?.kill('SIGKILL');
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, error: { ...error, data: { method: p.method, stderrTail: this.stderrTail } } });
      this.pending.delete(id);
    }
  }
}
