import { writeSync } from 'node:fs';
import { lazyBuiltin } from '../../platform/lazy-builtin';

/**
 * Every byte the CLI prints goes through here. On Linux and macOS a command writes to its file
 * descriptors 1 and 2 itself (`writeSync`), and Node's `process.stdout` / `process.stderr` are not made:
 * on a pipe each is a `net.Socket`, with node:net and the stream internals loaded and compiled for a
 * command that prints its answer whole at the end (issue #19, paired on 2 cores: shader dis 0.97,
 * explain 0.99). Node's streams are still used where they have to be:
 * - on Windows, where a console wants UTF-16 (libuv writes it) and a pipe's bytes would be the same;
 * - where the descriptor is non-blocking (EAGAIN: a terminal or pipe another process set so): the rest,
 *   and everything after it on that stream, goes through Node's stream, in order;
 * - where a command streams another process's output (`strata launch`: `nodeStream`), which needs
 *   back-pressure.
 * A reader that went away (`strata … | head`, EPIPE) ends the command quietly with exit 0, as other
 * command-line tools do; a closed descriptor (EBADF: `>&-`) takes nothing, as Node's stream for it does.
 */
export type StandardStream = 'stdout' | 'stderr';

const FD: Record<StandardStream, number> = { stdout: 1, stderr: 2 };

/** Where every write goes instead, while set (divertStandardStreams). */
let divertedTo: ((name: StandardStream, text: string) => void) | null = null;

/**
 * Sends every write to `to` instead of the descriptors, until called with null: scripts/help-pages.mjs
 * saves each `--help` page (and learns which pages say more on stderr) by running the CLI's main() so.
 */
export function divertStandardStreams(to: ((name: StandardStream, text: string) => void) | null): void {
  divertedTo = to;
}

/** The streams Node made for us (or that must be used): every later write goes there, after what is queued. */
const made: Partial<Record<StandardStream, NodeJS.WriteStream>> = {};
/** The descriptors that take nothing more (EBADF; stderr's reader gone). */
const closed: Partial<Record<StandardStream, true>> = {};

const code = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code;

/** The reader of stdout went away: nobody is left to tell, and a stack trace for EPIPE helps nobody. */
function outputGone(): never {
  process.exit(0);
}

/** Node's stream for `name`, made on first use, from then on used for every write to it. */
export function nodeStream(name: StandardStream): NodeJS.WriteStream {
  let stream = made[name];
  if (!stream) {
    stream = made[name] = process[name];
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      if (name === 'stdout') outputGone();
      closed[name] = true;
    });
  }
  return stream;
}

/**
 * Writes `text` (a string, or UTF-8 bytes: a large text made as bytes is written as it is) to `name`;
 * true when more can be written at once, false when Node's stream holds it in memory until its
 * reader takes it (then `drained` says when).
 */
export function write(name: StandardStream, text: string | Uint8Array): boolean {
  if (divertedTo) {
    divertedTo(name, typeof text === 'string' ? text : new TextDecoder().decode(text));
    return true;
  }
  if (closed[name] || text.length === 0) return true;
  if (made[name] || process.platform === 'win32') return nodeStream(name).write(text);
  let bytes: Uint8Array | null = null;
  let at = 0;
  try {
    if (typeof text !== 'string') bytes = text;
    else {
      // The string as it is: Node encodes it in C++ on its way to write(2), where Buffer.from would
      // make a copy in JavaScript first (~70 ms of the 26 MB `strata layer list --json` prints on
      // 10,000 manifests). A blocking pipe takes all of it, waiting while its reader is slow, as the
      // stream's back-pressure did; a signal can cut a write short, and the rest is written as bytes.
      at = writeSync(FD[name], text);
      if (at === Buffer.byteLength(text)) return true;
      bytes = Buffer.from(text, 'utf8');
    }
    while (at < bytes.length) at += writeSync(FD[name], bytes, at);
    return true;
  } catch (e) {
    switch (code(e)) {
      case 'EAGAIN':
        return nodeStream(name).write((bytes ?? Buffer.from(text as string, 'utf8')).subarray(at));
      case 'EPIPE':
        if (name === 'stdout') outputGone();
        closed[name] = true;
        return true;
      case 'EBADF':
        closed[name] = true;
        return true;
      default:
        throw e;
    }
  }
}

export const writeOut = (text: string | Uint8Array): boolean => write('stdout', text);
export const writeErr = (text: string): boolean => write('stderr', text);

/** Resolves when `name` can take more: at once, unless a write through Node's stream returned false. */
export function drained(name: StandardStream): Promise<void> {
  const stream = made[name];
  if (!stream || !stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

/** node:tty loads node:net and the stream internals: only `strata serve` asks (isTerminal). */
const tty = lazyBuiltin<typeof import('node:tty')>('node:tty');

/** Whether `name` is a terminal, asked of its descriptor (no stream made). */
export const isTerminal = (name: StandardStream): boolean => (made[name] ? made[name].isTTY === true : tty().isatty(FD[name]));

/**
 * Resolves once what Node's streams hold is written (none made: at once), for a process that ends
 * with `process.exit()` (bin/cli-snapshot.cjs): an asynchronous pipe would otherwise lose its tail.
 */
export function streamsFlushed(): Promise<void> {
  return Promise.all(
    Object.values(made).map((s) => new Promise<void>((written) => (s.destroyed || s.writableEnded ? written() : s.write('', () => written())))),
  ).then(() => undefined);
}

/**
 * Forgets which streams were made or closed: bin/cli-snapshot.cjs calls it after a snapshot's warm-up
 * commands, whose output went to the builder's descriptors, so that no process started from the
 * snapshot inherits the builder's (a closed stdout there must not silence every command here).
 */
export function forgetStandardStreams(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    delete made[name];
    delete closed[name];
  }
}
