import { PassThrough, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { ProbeExit, ProbeLauncher, ProbeProcess, ProbeSpec } from './probe-transport';

/** A request sent to a probe started early, before its client asks it (the command's known first call). */
export interface AheadRequest {
  method: string;
  params?: unknown;
}

/**
 * The id of the request sent ahead. A string: the BridgeClient numbers its requests and ignores a
 * reply whose id is not one of its numbers, so this reply can never be taken for another.
 */
const AHEAD_ID = 'ahead';
/** How native-bridge/probe.ts writes that reply: the id first (its reply()). */
const AHEAD_REPLY_PREFIX = `{"id":${JSON.stringify(AHEAD_ID)},`;

function parseRequest(line: string): { id?: unknown; method?: unknown; params?: unknown } | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

const sameRequest = (a: AheadRequest, b: { method?: unknown; params?: unknown }) =>
  a.method === b.method && JSON.stringify(a.params) === JSON.stringify(b.params);

/**
 * The probe's stdout as its client is to read it, when a request was sent ahead: the reply to that
 * request is held until the client sends the same request, then given the client's id (the probe
 * answers in order, so it comes before any reply to a later request); a client whose first request
 * differs never sees it. Every other line passes as the probe wrote it.
 */
class AheadReplies extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private state: 'open' | 'taken' | 'dropped' = 'open';
  private held: string | null = null;
  private clientId: unknown = null;

  constructor(private readonly request: AheadRequest) {
    super();
  }

  /** The client's request line: true when it is the one sent ahead (so it is not sent again). */
  claims(line: string): boolean {
    if (this.state !== 'open') return false;
    const parsed = parseRequest(line);
    if (!parsed || !sameRequest(this.request, parsed)) {
      this.state = 'dropped';
      this.held = null;
      return false;
    }
    this.state = 'taken';
    this.clientId = parsed.id;
    // Held as the probe wrote it: the client's id is known only now.
    if (this.held !== null) this.push(`${this.relabel(this.held)!}\n`);
    this.held = null;
    return true;
  }

  /** The reply to the request sent ahead, under the client's id; a line that is not that reply: null. */
  private relabel(line: string): string | null {
    return line.startsWith(AHEAD_REPLY_PREFIX) ? `{"id":${JSON.stringify(this.clientId)},${line.slice(AHEAD_REPLY_PREFIX.length)}` : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const lines = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = lines.pop()!;
    for (const line of lines) {
      const reply = this.relabel(line);
      if (reply === null) this.push(`${line}\n`);
      else if (this.state === 'taken') this.push(`${reply}\n`);
      else if (this.state === 'open') this.held = line;
      // 'dropped': the client asked something else first; nobody waits for this reply.
    }
    done();
  }

  override _flush(done: () => void): void {
    const rest = this.partial + this.decoder.end();
    if (rest) this.push(rest);
    done();
  }
}

/** A launcher whose first matching launch is a probe already started; `dispose` stops it when nobody took it. */
export interface PrelaunchedProbe {
  launcher: ProbeLauncher;
  dispose(): void;
}

/**
 * Starts the probe now, for a command that will certainly ask it something (`strata loader show`,
 * `strata device list`): its Node starts while this process is still loading the router, the schemas
 * and the service (issue #19: the probe's start was waited for after all of them). The returned
 * launcher hands that probe to the first launch with the same file, flags, folder and environment
 * (the default BridgeClient's); any other launch starts a probe of its own through `base`.
 *
 * Exit and error events that come before the BridgeClient listens are kept and replayed, so a probe
 * that dies at once is reported as it is when started late; what it writes is kept until the
 * client reads it.
 *
 * `ahead`: the request the command's first call will send, sent now: the probe does the loader's
 * work while this process still loads (`strata loader show`: the request went out only once the
 * CLI had loaded, ~110–150 ms in, about when the probe was ready). Its answer is handed to the
 * client's first request when that is the same request (AheadReplies).
 */
export function prelaunchProbe(base: ProbeLauncher, spec: ProbeSpec, ahead: AheadRequest | null = null): PrelaunchedProbe {
  const child = base.launch(spec);
  const replies = ahead ? new AheadReplies(ahead) : null;
  if (ahead) child.send(JSON.stringify({ id: AHEAD_ID, method: ahead.method, ...(ahead.params === undefined ? {} : { params: ahead.params }) }));
  let taken = false;
  let exited: ProbeExit | null = null;
  let failed: Error | null = null;
  const exitListeners: ((exit: ProbeExit) => void)[] = [];
  const errorListeners: ((error: Error) => void)[] = [];
  // Read from the start: Node throws away what an exited child wrote on a pipe nobody reads
  // (child_process flushStdio), and a crash report needs the probe's last stderr line. Kept here,
  // with back-pressure, until the client reads it.
  const stdout = child.stdout.pipe(replies ?? new PassThrough());
  const stderr = child.stderr.pipe(new PassThrough());
  const stderrEnded = new Promise<void>((resolve) => {
    for (const event of ['end', 'close', 'error']) stderr.once(event, () => resolve());
  });
  // An exit is told once the probe's stderr has been read to its end (the client reads it as soon
  // as it listens), or after a second, so the report carries the last line, as for a probe started late.
  const afterStderr = () =>
    new Promise<void>((resolve) => {
      // Unreferenced: a probe whose stderr never ends (a helper process holding it, as under Wine)
      // must not keep this process alive; a request waiting on the exit keeps its own timer.
      const timer = setTimeout(resolve, 1000).unref();
      void stderrEnded.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  child.onExit((exit) => {
    exited = exit;
    void afterStderr().then(() => {
      for (const l of exitListeners) l(exit);
    });
  });
  child.onError((error) => {
    failed = error;
    for (const l of errorListeners) l(error);
  });
  const prelaunched: ProbeProcess = {
    kind: child.kind,
    stdout,
    stderr,
    send: (line) => {
      if (!replies?.claims(line)) child.send(line);
    },
    onExit: (listener) => {
      if (exited) {
        const exit = exited;
        void afterStderr().then(() => listener(exit));
      } else exitListeners.push(listener);
    },
    onError: (listener) => {
      if (failed) {
        const error = failed;
        queueMicrotask(() => listener(error));
      } else errorListeners.push(listener);
    },
    kill: () => child.kill(),
    ...(child.unref ? { unref: () => child.unref!() } : {}),
  };
  const matches = (s: ProbeSpec) =>
    s.file === spec.file &&
    s.cwd === spec.cwd &&
    s.env === spec.env &&
    s.execArgv.length === spec.execArgv.length &&
    s.execArgv.every((a, i) => a === spec.execArgv[i]);
  return {
    launcher: {
      kind: base.kind,
      launch(s) {
        if (taken || !matches(s)) return base.launch(s);
        taken = true;
        return prelaunched;
      },
    },
    dispose() {
      if (!taken) {
        taken = true;
        child.kill();
      }
    },
  };
}
