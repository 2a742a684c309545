import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants as fsConstants, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { constants as osConstants } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CaptureStream, ExitReason } from '../../shared/sessions/session-records';

/**
 * Starts an application and reads what it says, per stream, in order: stdout, stderr, and (when a
 * FIFO is given) the validation layer's log. Each read is handed over synchronously with its
 * arrival time, so nothing is reordered within a stream and nothing waits in a queue that could
 * grow: when a consumer cannot keep up it calls pause(), the pipes fill, and the application
 * blocks in write() — the same back-pressure a terminal gives.
 */
export interface LaunchSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The application's whole environment (the caller composes it). */
  env: NodeJS.ProcessEnv;
  /** Stop the application after this long (SIGTERM, then SIGKILL); null for no limit. */
  timeoutMs?: number | null;
  /** Between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** After the application exited, how long to wait without new output for descendants that still hold its pipes. */
  drainMs?: number;
  /** A FIFO the validation layer writes to (khronos_validation.log_filename), read as the `validation` stream. */
  validationFifo?: string | null;
}

export interface LaunchHandlers {
  /** The bytes of one read, in order, with the monotonic (ms since launch) and wall-clock time it arrived. */
  chunk(stream: CaptureStream, bytes: Buffer, t: number, wall: number): void;
  /** The stream ended (after its last bytes). */
  ended(stream: CaptureStream, t: number, wall: number): void;
}

export interface LaunchResult {
  reason: ExitReason;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the application did not start. */
  error: string | null;
  /** Monotonic milliseconds from start to the end of capture. */
  durationMs: number;
  startWall: number;
  endWall: number;
}

const DEFAULT_GRACE_MS = 5000;
const DEFAULT_DRAIN_MS = 2000;

export class Launch {
  readonly startWall = Date.now();
  private readonly t0 = performance.now();
  readonly done: Promise<LaunchResult>;
  private child: ChildProcess | null = null;
  private readonly readers: Readable[] = [];
  private stopReason: 'stopped' | 'timeout' | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  private exited = false;

  constructor(
    private readonly spec: LaunchSpec,
    private readonly handlers: LaunchHandlers,
  ) {
    this.done = this.run();
  }

  /** Milliseconds since the launch, on the monotonic clock. */
  now(): number {
    return performance.now() - this.t0;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** SIGTERM to the application's process group, SIGKILL after the grace period if it is still there. */
  stop(reason: 'stopped' | 'timeout' = 'stopped'): void {
    if (this.exited || !this.child?.pid || this.stopReason) return;
    this.stopReason = reason;
    this.signal('SIGTERM');
    this.killTimer = setTimeout(() => this.signal('SIGKILL'), this.spec.graceMs ?? DEFAULT_GRACE_MS);
    this.killTimer.unref();
  }

  pause(): void {
    for (const r of this.readers) r.pause();
  }

  resume(): void {
    for (const r of this.readers) r.resume();
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid || this.exited) return;
    try {
      // detached: the application leads its own process group, so its helpers get the signal too.
      process.kill(-pid, signal);
    } catch {
      try {
        this.child?.kill(signal);
      } catch {
        // already gone
      }
    }
  }

  private async run(): Promise<LaunchResult> {
    const spec = this.spec;
    // Output still flowing after exit (descendants holding the pipes) keeps the drain clock reset.
    let lastData = performance.now();
    const touch = () => (lastData = performance.now());
    // The reader exists before the application does, so the layer's open of the FIFO never waits.
    const fifo = this.openFifo(touch);
    let child: ChildProcess;
    try {
      child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (e) {
      fifo?.socket.destroy();
      return this.failed(e);
    }
    this.child = child;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    const started = await new Promise<Error | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (e) => resolve(e));
    });
    if (started) {
      fifo?.socket.destroy();
      return this.failed(started);
    }

    let timeout: NodeJS.Timeout | null = null;
    if (spec.timeoutMs && spec.timeoutMs > 0) timeout = setTimeout(() => this.stop('timeout'), spec.timeoutMs);

    const outputs = Promise.all([this.read('stdout', child.stdout!, touch), this.read('stderr', child.stderr!, touch)]);

    const exit = await exited;
    this.exited = true;
    if (timeout) clearTimeout(timeout);
    if (this.killTimer) clearTimeout(this.killTimer);

    await this.drain(outputs, () => lastData, [child.stdout!, child.stderr!]);
    if (fifo) {
      fifo.finish();
      await this.drain(fifo.ended, () => lastData, [fifo.socket]);
    }
    return {
      reason: this.stopReason ?? 'exited',
      code: exit.code,
      signal: exit.signal,
      error: null,
      durationMs: this.now(),
      startWall: this.startWall,
      endWall: Date.now(),
    };
  }

  /** Waits for `ended`, giving up (and closing the streams) once nothing arrived for drainMs. */
  private async drain(ended: Promise<unknown>, lastData: () => number, streams: Readable[]): Promise<void> {
    const drainMs = this.spec.drainMs ?? DEFAULT_DRAIN_MS;
    let done = false;
    void ended.then(() => (done = true));
    await new Promise<void>((resolve) => {
      const check = () => {
        if (done) return resolve();
        if (performance.now() - lastData() >= drainMs) {
          for (const s of streams) s.destroy();
          return resolve();
        }
        setTimeout(check, Math.min(100, drainMs)).unref();
      };
      void ended.then(() => resolve());
      setTimeout(check, Math.min(100, drainMs)).unref();
    });
  }

  private read(stream: CaptureStream, readable: Readable, onData: () => void, filter?: (chunk: Buffer) => Buffer | null): Promise<void> {
    this.readers.push(readable);
    return new Promise<void>((resolve) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        this.handlers.ended(stream, this.now(), Date.now());
        resolve();
      };
      readable.on('data', (chunk: Buffer) => {
        if (finished) return;
        onData();
        const bytes = filter ? filter(chunk) : chunk;
        if (bytes && bytes.length) this.handlers.chunk(stream, bytes, this.now(), Date.now());
      });
      readable.once('end', finish);
      // A destroyed stream (drain gave up, or the FIFO's sentinel arrived) ends with what was read.
      readable.once('close', finish);
      readable.on('error', () => undefined);
    });
  }

  /**
   * The FIFO is opened read-write: holding a writer ourselves means the reader never sees end-of-file
   * when the layer closes and reopens its log (one instance after another). The end is a sentinel
   * Strata writes after the application exited; a FIFO keeps order, so everything the application
   * wrote is read before it, and nothing comes after it.
   */
  private openFifo(onData: () => void): { socket: Socket; ended: Promise<void>; finish(): void } | null {
    const path = this.spec.validationFifo;
    if (!path) return null;
    const fd = openSync(path, fsConstants.O_RDWR | fsConstants.O_NONBLOCK);
    const socket = new Socket({ fd, readable: true, writable: false });
    const sentinel = Buffer.from(`\u0000strata-end-${randomBytes(8).toString('hex')}\n`);
    let held: Buffer | null = null;
    const ended = this.read('validation', socket, onData, (chunk) => {
      const data: Buffer = held ? Buffer.concat([held, chunk]) : chunk;
      held = null;
      const at = data.indexOf(sentinel);
      if (at !== -1) {
        setImmediate(() => socket.destroy());
        return data.subarray(0, at);
      }
      // A read may end inside the sentinel: hold back a tail that could be its beginning (it starts
      // with NUL, which the layer's text never holds, so this almost never delays anything).
      const nul = data.indexOf(0, Math.max(0, data.length - sentinel.length + 1));
      if (nul !== -1 && sentinel.subarray(0, data.length - nul).equals(data.subarray(nul))) {
        held = Buffer.from(data.subarray(nul));
        return data.subarray(0, nul);
      }
      return data;
    });
    return {
      socket,
      ended,
      finish: () => {
        // Written through a second descriptor (the socket owns `fd`); a full pipe answers EAGAIN
        // while the reader catches up, so the write is retried until the drain gives up.
        const attempt = () => {
          if (socket.destroyed) return;
          let writer: number | null = null;
          try {
            writer = openSync(path, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK);
            writeSync(writer, sentinel);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code === 'EAGAIN') setTimeout(attempt, 5).unref();
            else setImmediate(() => socket.destroy());
          } finally {
            if (writer !== null) closeSync(writer);
          }
        };
        attempt();
      },
    };
  }

  private failed(e: unknown): LaunchResult {
    const err = e as NodeJS.ErrnoException;
    const now = Date.now();
    return {
      reason: 'failed-to-start',
      code: null,
      signal: null,
      error: err.code ? `${err.code}: ${err.message}` : String(err.message ?? e),
      durationMs: this.now(),
      startWall: this.startWall,
      endWall: now,
    };
  }
}

/** The shell's convention for an exit: the code, or 128 + the signal's number. */
export function exitStatus(result: { code: number | null; signal: string | null }): number {
  if (result.code !== null) return result.code;
  if (result.signal) return 128 + ((osConstants.signals as Record<string, number>)[result.signal] ?? 0);
  return 1;
}
