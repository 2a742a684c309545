import { PassThrough } from 'node:stream';
import type { ProbeExit, ProbeLauncher, ProbeProcess, ProbeSpec } from './probe-transport';

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
 */
export function prelaunchProbe(base: ProbeLauncher, spec: ProbeSpec): PrelaunchedProbe {
  const child = base.launch(spec);
  let taken = false;
  let exited: ProbeExit | null = null;
  let failed: Error | null = null;
  const exitListeners: ((exit: ProbeExit) => void)[] = [];
  const errorListeners: ((error: Error) => void)[] = [];
  // Read from the start: Node throws away what an exited child wrote on a pipe nobody reads
  // (child_process flushStdio), and a crash report needs the probe's last stderr line. Kept here,
  // with back-pressure, until the client reads it.
  const stdout = child.stdout.pipe(new PassThrough());
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
    send: (line) => child.send(line),
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
