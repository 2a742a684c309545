import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM, CHROMIUM_ARGS, chromiumHome } from '../tests/helpers/e2e-harness';

/**
 * Debian's Chromium driven through the DevTools protocol by hand (`--remote-debugging-pipe`: commands
 * on fd 3, answers and events on fd 4, each message JSON ended by a NUL), for page loads measured as a
 * user's browser makes them (issue #19: first render).
 *
 * Why not playwright-core here: it attaches to every page before it loads and enables the Runtime
 * domain there, and with the inspector's Runtime agent on V8 records a detailed stack for every Error
 * the page creates. React creates five at module initialisation (its sentinel errors), so V8 parsed
 * the renderer's 590 KB first script a second time for its source positions: 30-60 ms of the first
 * view's module evaluation on 2 cores (V8.CollectSourcePositions in a trace), which no browser without
 * DevTools open spends (a startup trace of the same page with nothing attached shows none of it).
 * Playwright also builds its own script world in each page. Here a page is opened, then a session
 * attaches to it and only calls Runtime.evaluate, which enables no domain.
 */
export interface PipePage {
  /** Evaluates an expression in the page (awaiting a promise it returns) and answers its value; fails after `timeoutMs`. */
  evaluate<T>(expression: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export interface PipeBrowser {
  /** A new tab showing `url` in a viewport of `width` × `height` (as playwright-core's `viewport`). */
  open(url: string, viewport: { width: number; height: number }): Promise<PipePage>;
  close(): Promise<void>;
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

export async function launchChromiumPipe(): Promise<PipeBrowser> {
  const home = chromiumHome();
  const child: ChildProcess = spawn(CHROMIUM, [...CHROMIUM_ARGS, '--remote-debugging-pipe', `--user-data-dir=${home.dir}/profile`, 'about:blank'], {
    env: home.env,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  const commands = child.stdio[3] as Writable;
  const answers = child.stdio[4] as Readable;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let buffer = '';
  let gone: Error | null = null;
  answers.setEncoding('utf8');
  answers.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(buffer.slice(0, end)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
      buffer = buffer.slice(end + 1);
      const waiting = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiting) continue; // an event: nothing here subscribes to any
      pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result ?? {});
    }
  });
  const end = (error: Error) => {
    if (gone) return;
    gone = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    home.dispose();
  };
  child.once('error', (e) => end(new Error(`${CHROMIUM} did not start: ${e.message}`)));
  child.once('exit', (code, signal) => end(new Error(`Chromium exited (${signal ?? code})`)));
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      commands.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  await send('Browser.getVersion');

  return {
    async open(url, viewport) {
      const { targetId } = (await send('Target.createTarget', { url: 'about:blank', newWindow: true })) as { targetId: string };
      const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      await send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false }, sessionId);
      await send('Page.navigate', { url }, sessionId);
      return {
        async evaluate<T>(expression: string, timeoutMs = 30_000) {
          const deadline = Date.now() + timeoutMs;
          // Sent early, an evaluation can land in the about:blank the tab starts with and die with it
          // when the page's document replaces it (or the expression can throw to say it is not there
          // yet, with "navigating" in its message): asked again in the page's own context.
          for (let attempt = 0; ; attempt++) {
            try {
              const asked = send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
              asked.catch(() => undefined); // it may settle after the timeout below: never an unhandled rejection
              let timer: NodeJS.Timeout | undefined;
              const late = new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new Error(`the page gave no answer within ${timeoutMs} ms`)), Math.max(1, deadline - Date.now()));
              });
              const answer = (await Promise.race([asked, late]).finally(() => clearTimeout(timer))) as {
                result: { value?: T };
                exceptionDetails?: { text: string; exception?: { description?: string } };
              };
              if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
              return answer.result.value as T;
            } catch (e) {
              if (attempt >= 50 || Date.now() >= deadline || !/context|destroyed|navigat/i.test(String(e))) throw e;
              await new Promise((r) => setTimeout(r, 50));
            }
          }
        },
        async close() {
          await send('Target.closeTarget', { targetId });
        },
      };
    },
    async close() {
      if (gone) return;
      const exited = new Promise((r) => child.once('exit', r));
      await send('Browser.close').catch(() => undefined);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (!gone) child.kill('SIGKILL');
    },
  };
}
