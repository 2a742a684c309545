import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { promises as fsPromises } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { excessiveNesting, nestingMessage } from '../../shared/json/json-nesting';
import { READ_LIMITS } from '../../shared/files/read-limits';

export { READ_LIMITS };

/**
 * The one way Strata reads a file a user (or a folder the loader searches) names: regular files
 * only, and never more than a cap per kind of file.
 *
 * - Opened with O_NONBLOCK, then fstat on the open descriptor (not stat before open, which a swap
 *   between the two would defeat): a FIFO is refused instead of blocking a thread-pool thread until
 *   someone writes to it, and a device (/dev/zero), socket or folder is refused before any read.
 * - The size check uses fstat, and the read stops at cap + 1 bytes anyway (a file can grow, and
 *   /proc files report size 0), so memory is bounded by the cap whatever the file does.
 *
 * The caps per kind of file are in shared/files/read-limits.ts.
 */
export type ReadKind = keyof typeof READ_LIMITS;

const NAMES: Record<ReadKind, string> = {
  manifest: 'manifests',
  profile: 'profiles',
  shader: 'shaders',
  config: 'configurations',
  settings: 'settings files',
  sessionLine: 'session file lines',
};

export type GuardedReadReason = 'not-a-file' | 'too-large' | 'too-deep';

/** A refusal of the guarded reader: what, where, and the fix. `errno` reads (ENOENT …) are thrown as they are. */
export class GuardedReadError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly reason: GuardedReadReason,
    readonly path: string,
    message: string,
    readonly fix: string,
    /** For 'not-a-file': whether it is a folder (the loader's EISDIR) rather than a device, FIFO or socket. */
    readonly folder = false,
  ) {
    super(message);
    this.name = 'GuardedReadError';
    // What read(2) of a folder says, for callers that handle errno codes.
    if (folder) this.code = 'EISDIR';
  }
}

function typeName(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

const notAFile = (st: Stats, path: string) =>
  new GuardedReadError('not-a-file', path, `${path} is ${typeName(st)}, not a regular file`, 'name a regular file', st.isDirectory());

const mib = (n: number) => `${n} bytes (${(n / (1 << 20)).toFixed(n % (1 << 20) ? 1 : 0)} MiB)`;

function tooLarge(path: string, kind: ReadKind, size: number | null): GuardedReadError {
  const what = size === null ? `is over ${READ_LIMITS[kind]} bytes` : `is ${size} bytes`;
  return new GuardedReadError(
    'too-large',
    path,
    `${path} ${what}; Strata reads ${NAMES[kind]} up to ${mib(READ_LIMITS[kind])}`,
    `check that this is the file you meant`,
  );
}

// O_NOCTTY: opening a terminal device must not make it our controlling terminal. Neither flag exists on Windows.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** open(2) of a socket fails with ENXIO before we can fstat it: say what it is instead. */
function openFailure(e: unknown, st: Stats | null, path: string): unknown {
  if ((e as NodeJS.ErrnoException).code === 'ENXIO' && st && !st.isFile()) return notAFile(st, path);
  return e;
}

/**
 * How much to read next: the first read takes the size fstat gave (+ 1, to see a file that grew),
 * later ones (a growing file, /proc's size 0, the read that finds the end) start small and double.
 * Sized to the file, not to a fixed 1 MiB: 10,000 small manifests no longer allocate 20 GB for the
 * garbage collector to clear (issue #19, `strata layer list` on 10,000 manifests).
 */
function chunkSize(size: number, total: number, limit: number): number {
  const want = total === 0 ? size + 1 : Math.max(4096, total);
  return Math.min(1 << 20, limit + 1 - total, want);
}

/*
 * shortReadIsEnd: both readers stop at a read that returns less than it asked for, when fstat gave
 * the file a size. It is a regular file (openRegularFile checked the descriptor), and read(2) on a
 * regular file returns fewer bytes than asked only at its end (POSIX read(); Linux's disk file reads
 * are not cut short by signals): the read that would return 0 is one syscall per file saved, 10,000
 * of them for `strata layer list` on 10,000 manifests (issue #19). A file that grew since fstat fills
 * its first chunk (its size + 1) and is read on. procfs files have size 0 and return a page at a
 * time: they are read until a read returns 0, as before.
 */
const joined = (chunks: Buffer[], total: number): Buffer => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));

/** Whether `path` is a regular file (links followed), without opening it: what the layers' GetFileAttributes / stat checks ask. */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/**
 * Opens a file for a reader that streams it (session files: gigabytes, read line by line, each line
 * capped by its reader): the same open and type check as the whole-file readers below, no size cap.
 * Throws GuardedReadError for a device, FIFO, socket or folder, or the open's own error (ENOENT …).
 * The caller closes the descriptor.
 */
export function openRegularFileSync(path: string): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    throw openFailure(e, statSync(path, { throwIfNoEntry: false }) ?? null, path);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notAFile(st, path);
    return { fd, size: st.size };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** As openRegularFileSync, for async readers: a FileHandle (read it with handle.createReadStream()), which the caller closes. */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  // node:fs/promises through fs.promises, read when called: as an import it loaded that module and
  // the stream and readline internals behind it (~12 of Node's modules) for every command, the many
  // that only read synchronously included, into every CLI startup snapshot (issue #19).
  const handle = await fsPromises.open(path, FLAGS).catch(async (e: unknown) => {
    throw openFailure(e, await fsPromises.stat(path).catch(() => null), path);
  });
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notAFile(st, path);
    return { handle, size: st.size };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** The file's bytes; throws GuardedReadError for anything but a regular file within the cap, or the open's own error (ENOENT …). */
export function readGuardedSync(path: string, kind: ReadKind): Buffer {
  const { fd, size } = openRegularFileSync(path);
  try {
    const limit = READ_LIMITS[kind];
    if (size > limit) throw tooLarge(path, kind, size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize(size, total, limit));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > limit) throw tooLarge(path, kind, null);
      if (size > 0 && n < chunk.length) break; // see shortReadIsEnd
    }
    return joined(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** As readGuardedSync, through the thread pool; no step can block on a FIFO or an endless device. */
export async function readGuarded(path: string, kind: ReadKind): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path);
  try {
    const limit = READ_LIMITS[kind];
    if (size > limit) throw tooLarge(path, kind, size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkSize(size, total, limit));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) throw tooLarge(path, kind, null);
      if (size > 0 && bytesRead < chunk.length) break; // see shortReadIsEnd
    }
    return joined(chunks, total);
  } finally {
    await handle.close();
  }
}

export const readTextGuardedSync = (path: string, kind: ReadKind): string => readGuardedSync(path, kind).toString('utf8');
export const readTextGuarded = async (path: string, kind: ReadKind): Promise<string> => (await readGuarded(path, kind)).toString('utf8');

/**
 * JSON.parse for text from a user's file, refusing nesting past the loader's cJSON limit first
 * (JSON.parse itself copes, but everything that walks the value afterwards recurses: zod,
 * JSON.stringify, the IPC copy).
 */
export function parseJsonGuarded(text: string, path: string): unknown {
  const at = excessiveNesting(text);
  if (at !== null)
    throw new GuardedReadError(
      'too-deep',
      path,
      nestingMessage(path, at),
      'no Strata file needs more than a few levels; check that this is the file you meant',
    );
  return JSON.parse(text) as unknown;
}
