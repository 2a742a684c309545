import { closeSync, readdirSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { serviceError, StrataRequestError } from '../../shared/errors/strata-error';
import { compileQuery, type SessionQuery } from '../../shared/sessions/session-query';
import {
  countRecord,
  emptyCounts,
  LineRecordSchema,
  MessageRecordSchema,
  SessionFooterSchema,
  SessionHeaderSchema,
  SessionIdSchema,
  type CaptureRecord,
  type SessionCounts,
  type SessionFooter,
  type SessionHeader,
} from '../../shared/sessions/session-records';
import type { SessionList, SessionOpen, SessionSearch, SessionStatus, SessionSummary } from '../../shared/sessions/session-ipc';
import type { SessionDigest } from '../../shared/sessions/session-diff';
import { unlinkDurable } from '../platform/atomic-file';
import { strataUserDirs } from '../platform/user-dirs';
import { GuardedReadError, openRegularFile, openRegularFileSync, READ_LIMITS } from '../platform/guarded-read';
import { excessiveNesting, JSON_NESTING_LIMIT } from '../../shared/json/json-nesting';

/**
 * $XDG_STATE_HOME/strata/sessions (default ~/.local/state/strata/sessions; on Windows
 * %LOCALAPPDATA%\Strata\state\sessions: main/platform/user-dirs.ts): run records are state, not configuration.
 */
export function sessionsDir(env: NodeJS.ProcessEnv): string {
  return join(strataUserDirs(env, env['HOME'] || homedir()).state, 'sessions');
}

export const SESSION_EXTENSION = '.jsonl';

export function sessionFile(dir: string, id: string): string {
  if (!SessionIdSchema.safeParse(id).success) throw notFound(id, dir);
  return join(dir, `${id}${SESSION_EXTENSION}`);
}

function notFound(id: string, dir: string): StrataRequestError {
  return serviceError('sessions/not-found', `No session "${id}"`, { where: dir, fix: 'list the sessions with `strata session list`' });
}

/** Is the process that wrote a session still alive? (Its pid in the header; a recycled pid reads as alive — rare, and only delays "incomplete".) */
function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface StoreOptions {
  dir: string;
  /** Sessions this process is writing right now. */
  running?: (id: string) => boolean;
}

function statusOf(header: SessionHeader, footer: SessionFooter | null, options: StoreOptions): SessionStatus {
  if (footer) return 'ended';
  if (options.running?.(header.id)) return 'running';
  return header.strataPid !== process.pid && processAlive(header.strataPid) ? 'running' : 'incomplete';
}

export function summaryOf(file: string, sizeBytes: number, header: SessionHeader, footer: SessionFooter | null, options: StoreOptions): SessionSummary {
  return {
    id: header.id,
    file,
    sizeBytes,
    command: header.application.command,
    args: header.application.args,
    cwd: header.application.cwd,
    profile: header.profile?.name ?? null,
    loaderDebug: header.loaderDebug,
    startedAt: header.startedAt,
    startWall: header.startWall,
    status: statusOf(header, footer, options),
    exit: footer?.exit ?? null,
    durationMs: footer?.durationMs ?? null,
    counts: footer?.counts ?? null,
  };
}

/** A header line, validated, not trusted: a session file is data anyone could have written (exports interpolate it). */
function parseHeaderLine(line: string): SessionHeader {
  // Its profile copy is the one field of any shape: past the loader's nesting limit, JSON.stringify (the export, IPC) would overflow the stack.
  if (excessiveNesting(line) !== null) throw new Error(`the first line nests JSON deeper than ${JSON_NESTING_LIMIT} levels: not a session header`);
  const parsed = SessionHeaderSchema.safeParse(JSON.parse(line));
  if (!parsed.success) throw new Error(`the first line is not a valid session header (${issueText(parsed.error)})`);
  return parsed.data;
}

/**
 * The first line (the header) and, when the file ends with one, the footer — without reading what
 * lies between. Through the guarded open: a FIFO, device or socket in the sessions folder is refused
 * at once (a blocking open here once froze `strata serve`), and the header is read up to the line cap.
 */
export function readEnds(file: string): { header: SessionHeader; footer: SessionFooter | null; size: number } {
  const { fd, size } = openRegularFileSync(file);
  try {
    const limit = READ_LIMITS.sessionLine;
    const chunks: Buffer[] = [];
    let headBytes = 0;
    const buf = Buffer.alloc(64 * 1024);
    for (let pos = 0; pos < size;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      pos += n;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      // Bytes, decoded once: a character cut at a chunk boundary stays whole.
      chunks.push(Buffer.from(buf.subarray(0, nl >= 0 ? nl : n)));
      headBytes += nl >= 0 ? nl : n;
      if (headBytes > limit) throw new Error(`the first line is over ${limit} bytes: not a session header`);
      if (nl >= 0) break;
    }
    const header = parseHeaderLine(Buffer.concat(chunks).toString('utf8'));
    let footer: SessionFooter | null = null;
    const tailLength = Math.min(size, 64 * 1024);
    const n = readSync(fd, buf, 0, tailLength, size - tailLength);
    const tail = buf.toString('utf8', 0, n).replace(/\n$/, '');
    const last = tail.slice(tail.lastIndexOf('\n') + 1);
    if (last.startsWith('{"kind":"footer"')) {
      try {
        const parsed = SessionFooterSchema.safeParse(JSON.parse(last));
        footer = parsed.success ? parsed.data : null;
      } catch {
        footer = null;
      }
    }
    return { header, footer, size };
  } finally {
    closeSync(fd);
  }
}

export function listSessions(options: StoreOptions): SessionList {
  let names: string[];
  try {
    names = readdirSync(options.dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { dir: options.dir, sessions: [], unreadable: [] };
    throw e;
  }
  const sessions: SessionSummary[] = [];
  const unreadable: SessionList['unreadable'] = [];
  for (const name of names.filter((n) => n.endsWith(SESSION_EXTENSION)).sort()) {
    const file = join(options.dir, name);
    try {
      const { header, footer, size } = readEnds(file);
      sessions.push(summaryOf(file, size, header, footer, options));
    } catch (e) {
      unreadable.push({ file, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  // Newest first: what a user looks for after a run.
  sessions.sort((x, y) => y.startWall - x.startWall || y.id.localeCompare(x.id));
  return { dir: options.dir, sessions, unreadable };
}

export interface ScanResult {
  header: SessionHeader;
  footer: SessionFooter | null;
  /** The last line had no line break and did not parse: a write cut short by a crash. */
  torn: boolean;
  /** Lines in the middle that did not parse (damage, not a crash). */
  damaged: number;
  size: number;
}

const issueText = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');

/** Reads a session file record by record, streaming (sessions can be gigabytes). */
export async function scanSession(file: string, visit: (record: CaptureRecord) => void): Promise<ScanResult> {
  let header: SessionHeader | null = null;
  let footer: SessionFooter | null = null;
  let damaged = 0;
  let rest = '';
  // Capture records are numbered by position; a line that does not parse still takes its number,
  // so the records after it keep theirs (and the `lines` ranges of messages stay right).
  let seq = 0;
  const damagedLine = () => {
    // The first line is the header, and a header is never this long: no need to read the rest (gigabytes, maybe).
    if (!header) throw unreadable(file, `the first line is over ${READ_LIMITS.sessionLine} bytes: not a session header`);
    seq++;
    damaged++;
  };
  const handle = (line: string) => {
    if (line === '') return;
    let value: { kind?: string; seq?: number };
    try {
      value = JSON.parse(line) as { kind?: string; seq?: number };
    } catch {
      if (header) seq++;
      damaged++;
      return;
    }
    // Every record is checked against its schema; one that does not match counts as damaged, like a line that does not parse.
    if (value.kind === 'line' || value.kind === 'message') {
      value.seq = ++seq;
      const parsed = (value.kind === 'line' ? LineRecordSchema : MessageRecordSchema).safeParse(value);
      if (parsed.success) visit(parsed.data as CaptureRecord);
      else damaged++;
    } else if (value.kind === 'header' && !header) {
      // As readEnds: a header nested past the limit would overflow the stack of whatever stringifies it next.
      if (excessiveNesting(line) !== null) {
        damaged++;
        return;
      }
      const parsed = SessionHeaderSchema.safeParse(value);
      if (parsed.success) header = parsed.data;
      else damaged++;
    } else if (value.kind === 'footer') {
      const parsed = SessionFooterSchema.safeParse(value);
      if (parsed.success) footer = parsed.data;
      else damaged++;
    }
  };
  let size = 0;
  // Through the guarded open: a FIFO or device in the sessions folder is refused, not waited on or read forever.
  const { handle: fileHandle } = await openRegularFile(file).catch((e: unknown) => {
    throw e instanceof GuardedReadError ? unreadable(file, e.message) : e;
  });
  // A line over the cap (damage: the writer's lines are far shorter) is dropped up to its end and
  // counted as damaged, so memory stays bounded by the cap whatever the file holds.
  const limit = READ_LIMITS.sessionLine;
  let skipping = false;
  for await (const chunk of fileHandle.createReadStream({ encoding: 'utf8', highWaterMark: 1 << 20 })) {
    let text = rest + (chunk as string);
    size += Buffer.byteLength(chunk as string);
    let start = 0;
    if (skipping) {
      const nl = (chunk as string).indexOf('\n');
      if (nl === -1) continue;
      skipping = false;
      text = chunk as string;
      start = nl + 1;
    }
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      if (nl - start > limit) damagedLine();
      else handle(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
    if (rest.length > limit) {
      rest = '';
      skipping = true;
      damagedLine();
    }
  }
  let torn = false;
  if (rest !== '') {
    const before = damaged;
    handle(rest);
    if (damaged > before) {
      damaged--;
      torn = true;
    }
  }
  if (!header) throw unreadable(file, 'The file has no session header');
  return { header, footer, torn, damaged, size };
}

function unreadable(file: string, message: string): StrataRequestError {
  return serviceError('sessions/unreadable', message, {
    where: file,
    fix: 'it is not a Strata session file; move it out of the sessions folder',
  });
}

function existing(options: StoreOptions, id: string): string {
  const file = sessionFile(options.dir, id);
  try {
    statSync(file);
  } catch {
    throw notFound(id, options.dir);
  }
  return file;
}

export async function openSession(options: StoreOptions, id: string, request: { query?: SessionQuery; offset?: number; limit?: number }): Promise<SessionOpen> {
  const file = existing(options, id);
  const match = request.query ? compileQuery(request.query) : () => true;
  const offset = request.offset ?? 0;
  const limit = request.limit ?? 5000;
  const records: CaptureRecord[] = [];
  const counts = emptyCounts();
  let total = 0;
  const result = await scanSession(file, (r) => {
    countRecord(counts, r);
    if (!match(r)) return;
    if (total >= offset && records.length < limit) records.push(r);
    total++;
  });
  // Bytes are known only to the writer; a file without a footer gets them from its lines.
  const finalCounts: SessionCounts = result.footer ? { ...counts, bytes: result.footer.counts.bytes } : counts;
  return {
    summary: summaryOf(file, result.size, result.header, result.footer, options),
    header: result.header,
    footer: result.footer,
    records,
    offset,
    total,
    counts: finalCounts,
    torn: result.torn,
  };
}

export async function searchSessions(options: StoreOptions, query: SessionQuery, ids: readonly string[] | undefined, limit = 100): Promise<SessionSearch> {
  const match = compileQuery(query);
  const summaries = ids ? ids.map((id) => readSummary(options, id)) : listSessions(options).sessions;
  const results: SessionSearch['results'] = [];
  for (const summary of summaries) {
    const records: CaptureRecord[] = [];
    let matches = 0;
    await scanSession(summary.file, (r) => {
      if (!match(r)) return;
      matches++;
      if (records.length < limit) records.push(r);
    });
    if (matches > 0) results.push({ summary, matches, records });
  }
  return { results };
}

export function readSummary(options: StoreOptions, id: string): SessionSummary {
  const file = existing(options, id);
  let ends: ReturnType<typeof readEnds>;
  try {
    ends = readEnds(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(id, options.dir);
    // The guarded open's messages name the file already; readEnds' own say what is wrong with its first line.
    throw unreadable(file, e instanceof GuardedReadError ? e.message : `${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return summaryOf(file, ends.size, ends.header, ends.footer, options);
}

export function deleteSession(options: StoreOptions, id: string): { id: string; deleted: boolean } {
  let summary: SessionSummary;
  try {
    summary = readSummary(options, id);
  } catch (e) {
    // A file that is not a readable session (no header: a running one has written its header first) can be deleted too: the
    // Sessions view lists it with why, and Delete is how a user clears it. unlink removes a link, never what it points at.
    if (!(e instanceof StrataRequestError && e.error.code === 'sessions/unreadable')) throw e;
    unlinkDurable(sessionFile(options.dir, id));
    return { id, deleted: true };
  }
  if (summary.status === 'running') {
    throw serviceError('sessions/running', `Session ${id} is still running`, {
      where: summary.file,
      fix: 'stop it first (Stop in the Launcher, or end `strata launch`)',
    });
  }
  unlinkDurable(summary.file);
  return { id, deleted: true };
}

/** What a diff needs from one session, in one pass over its file. */
export async function digestSession(options: StoreOptions, id: string): Promise<SessionDigest> {
  const file = existing(options, id);
  const counts = emptyCounts();
  const messages: SessionDigest['messages'] = new Map();
  const result = await scanSession(file, (r) => {
    countRecord(counts, r);
    if (r.kind !== 'message') return;
    const m = messages.get(r.vuid);
    if (m) m.count++;
    else messages.set(r.vuid, { severity: r.severity, count: 1, text: r.text });
  });
  return {
    id,
    command: result.header.application.command,
    startedAt: result.header.startedAt,
    chain: result.header.chain,
    exit: result.footer?.exit ?? null,
    counts: result.footer ? { ...counts, bytes: result.footer.counts.bytes } : counts,
    messages,
  };
}
