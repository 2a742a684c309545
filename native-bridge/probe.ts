/**
 * The probe process: the only place Strata maps libvulkan, driver and layer libraries. It answers
 * one request per line with one JSON line on stdout: {"id", "ok", "value"|"error"}. Requests come
 * on stdin (a Node child process), or as messages on process.parentPort when Electron started it
 * with utilityProcess.fork (a utility process has no stdin); each message is the same JSON line.
 * Main talks to it through main/bridge/bridge-client.ts, which restarts it if a driver crashes it.
 * A probe answers for the environment it was started with (the loader reads VK_DRIVER_FILES,
 * HOME, … at load and instance creation), so requests carry no environment: the client keeps one
 * probe per environment.
 */
import { readSync, writeSync } from 'node:fs';
import { queryLoaderVersion } from './loader-library';
import { queryLoaderInfo, VkError } from './loader-queries';

export const PROBE_PROTOCOL_VERSION = 1;

type Handler = (params: unknown) => unknown;
/**
 * The loader's own answers are loaded with the probe; devices, negotiation and layer inspection
 * (with the device tables and zod they bring) when first asked, so that `strata loader show` pays for
 * none of them (issue #19); scripts/build.mjs makes each a chunk of its own.
 */
const lazy = {
  devices: () => import('./vulkan-queries'),
  'drivers.negotiate': () => import('./driver-negotiation'),
  'layers.inspect': () => import('./layer-inspection'),
};
const handlers: Record<string, Handler> = {
  'loader.version': () => queryLoaderVersion(),
  'loader.info': () => queryLoaderInfo(),
  devices: async (params) => (await lazy.devices()).queryDevices(params),
  // Maps nothing: lets main tell a slow start from a driver that hangs (main/bridge/bridge-pool.ts
  // runIsolated). `prepare` names the method about to be timed: its code is loaded now, as part of
  // the start, so that a library's time limit is the library's alone.
  ping: async (params) => {
    const prepare = (params as { prepare?: unknown } | undefined)?.prepare;
    if (typeof prepare === 'string' && Object.hasOwn(lazy, prepare)) await lazy[prepare as keyof typeof lazy]();
    return { pid: process.pid };
  },
  'drivers.negotiate': async (params) => (await lazy['drivers.negotiate']()).negotiateDrivers(params),
  'layers.inspect': async (params) => (await lazy['layers.inspect']()).inspectLayers(params),
};

/**
 * Under plain Node on Linux and macOS the probe reads its requests from descriptor 0 and writes its
 * answers to descriptor 1 itself: process.stdin and process.stdout on a pipe are net.Sockets, and
 * loading node:net, the streams and readline for them was ~11 ms of every probe's start, on the way to
 * `strata loader show`'s answer (issue #19). Its read blocks the probe's one thread, and is made only
 * once every request read so far is answered, so nothing waits for it. (Not in libuv's thread pool: a
 * read blocked there held the process at its exit, which waits for those threads.) A pipe a child's
 * standard streams are made of is blocking (libuv's spawn); should one not be (EAGAIN), the probe goes
 * back to Node's streams for good, reading and writing, so that answers keep their order. Windows and
 * Electron's utility process use Node's streams.
 */
const FD_IO = process.platform !== 'win32';
let viaStream = !FD_IO;

function reply(message: object) {
  const line = `${JSON.stringify(message)}\n`;
  if (viaStream) {
    process.stdout.write(line);
    return;
  }
  const bytes = Buffer.from(line, 'utf8');
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(1, bytes, at);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    viaStream = true;
    process.stdout.write(bytes.subarray(at));
  }
}

/**
 * Each line read from descriptor 0, in order, then `end()` at its end (or when it cannot be read);
 * `fallback(unread)` when it would block, or once answers go through Node's streams, with what was
 * read of a line not yet ended. `idle()` settles when every line handed out so far has been answered:
 * the next read waits for it.
 */
function readLines(onLine: (line: string) => void, idle: () => Promise<unknown>, end: () => void, fallback: (unread: Buffer) => void) {
  const chunk = Buffer.allocUnsafe(64 * 1024);
  let pending: Buffer[] = [];
  const next = () => {
    if (viaStream) return fallback(Buffer.concat(pending));
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EINTR') return setImmediate(next);
      if (code === 'EAGAIN') return fallback(Buffer.concat(pending));
      return end();
    }
    if (n === 0) return end();
    let from = 0;
    // A request is one line of UTF-8; a newline byte is never part of a multi-byte character.
    for (let nl = chunk.indexOf(10, 0); nl >= 0 && nl < n; nl = chunk.indexOf(10, from)) {
      pending.push(chunk.subarray(from, nl));
      onLine(Buffer.concat(pending).toString('utf8'));
      pending = [];
      from = nl + 1;
    }
    if (from < n) pending.push(Buffer.from(chunk.subarray(from, n)));
    const again = () => void setImmediate(next);
    void idle().then(again, again);
  };
  setImmediate(next);
}

async function answer(line: string) {
  let id: unknown = null;
  try {
    const request = JSON.parse(line) as { id?: unknown; method?: unknown; params?: unknown };
    id = request.id ?? null;
    const handler = typeof request.method === 'string' ? handlers[request.method] : undefined;
    if (!handler) {
      reply({ id, ok: false, error: { code: 'bridge/unknown-method', message: `Unknown probe method ${String(request.method)}` } });
      return;
    }
    reply({ id, ok: true, value: await handler(request.params) });
  } catch (e) {
    const { code, fix } = e instanceof VkError ? e : { code: 'bridge/failed', fix: undefined };
    reply({ id, ok: false, error: { code, message: e instanceof Error ? e.message : String(e), where: 'native-bridge probe', ...(fix ? { fix } : {}) } });
  }
}

/** Electron's utility-process port (absent under plain Node). */
interface ParentPort {
  on(event: 'message', listener: (message: { data: unknown }) => void): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

// One request at a time, in the order they came (a handler may wait for its module): the loader is
// never asked two things at once, and the probe ends only once every request read is answered.
let answered: Promise<void> = Promise.resolve();
const enqueue = (line: string) => (answered = answered.then(() => answer(line)));
// Windows: a driver or layer DLL that crashes ends the probe at once with its exception code, as it
// would end an application, instead of leaving it to a debugger (windows-native.ts). Before any request.
if (process.platform === 'win32')
  answered = import('./windows-native')
    .then((w) => w.exitOnUnhandledException())
    .catch((e: unknown) => {
      process.stderr.write(`strata probe: no exception filter (${e instanceof Error ? e.message : String(e)})\n`);
    });

if (parentPort) {
  viaStream = true;
  parentPort.on('message', (message) => enqueue(typeof message.data === 'string' ? message.data : JSON.stringify(message.data)));
} else {
  const end = () => void answered.then(() => process.exit(0));
  // Loaded only here: node:readline brings node:net's internals with it.
  const viaReadline = (unread?: Buffer) => {
    viaStream = true;
    void import('node:readline').then(({ createInterface }) => {
      if (unread?.length) process.stdin.unshift(unread);
      const rl = createInterface({ input: process.stdin });
      rl.on('line', enqueue);
      rl.on('close', end);
    });
  };
  if (FD_IO) readLines(enqueue, () => answered, end, viaReadline);
  else viaReadline();
}
