import { isUtf8 } from 'node:buffer';
import type { CaptureParser } from '../../shared/sessions/capture-parser';
import type { CaptureRecord, CaptureStream, LineRecord, MessageRecord } from '../../shared/sessions/session-records';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from './line-splitter';

/** Where the recorder's output goes: whole JSON Lines records, and (while a UI listens) live records. */
export interface RecorderSink {
  /** Bytes of whole records, in order; `buf` is reused after the call returns. */
  write(buf: Buffer, length: number): void;
  /** How many more records the live view takes now (0 when nobody listens). */
  liveRoom(): number;
  /** Records for the live view; `dropped` lines did not fit (they are in the file). */
  live(records: CaptureRecord[], dropped: number): void;
}

const HEADER_MARK = Buffer.from('): msgNum: ');
const CR_FLAG = ',"cr":true';
const PARTIAL_FLAG = ',"partial":true';
/** First bytes of the loader's tags (ERROR, WARNING, INFO, DEBUG, PERF, LAYER, DRIVER, VALIDATION, IMPLEMENTATION). */
const LOADER_FIRST = new Uint8Array(256);
for (const c of 'EWIDPLV') LOADER_FIRST[c.charCodeAt(0)] = 1;
/** A line of a block that could be the loader's (parseLoaderLogLine decides, line by line). */
const LOADER_LINE = /^(?:ERROR|WARNING|INFO|DEBUG|PERF|LAYER|DRIVER|VALIDATION|IMPLEMENTATION)(?: \| [A-Z]+)*:/m;
/** Control characters other than CR and LF. */
const CONTROL = /[\x00-\x09\x0b\x0c\x0e-\x1f]/;
const BACKSLASH = /\\/g;
const QUOTE = /"/g;
const CRLF = /\r\n/g;
const LONE_CR = /\r/g;
const LF = /\n/g;
/** Stands for CRLF between the replacements; never in their input (CONTROL rules it out). */
const CRLF_MARK = '\u0000';
const CRLF_MARKS = /\u0000/g;
/** Everything JSON escapes in a string (the general path). */
const ESCAPE = /[\x00-\x1f"\\]/g;
const ESCAPES: string[] = [];
for (let c = 0; c < 0x20; c++) ESCAPES[c] = `\\u${c.toString(16).padStart(4, '0')}`;
Object.assign(ESCAPES, { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' });
/** Serialized records gather in one Latin-1 string and are written out together (fewer, larger native calls). */
const PENDING_TEXT_MAX = 256 * 1024;
const OUT_BYTES = 1 << 20;

/**
 * Captured bytes → session records, fast. Most lines an application prints are its own ("plain"):
 * they are counted by the parser and serialized in blocks, straight from their bytes: the bytes are
 * read as Latin-1 (one char per byte, a native copy), escaped with a few native replacements over
 * the whole block (backslashes and quotes; each line break becomes the end of one record and the
 * start of the next: see serialize), and written back as Latin-1 — so the UTF-8 text comes out byte for byte,
 * never decoded, and no JavaScript runs per byte or per line. A record's seq is its position in
 * the file (readers number them), which is what lets a line break be a constant replacement.
 *
 * Lines that may be the loader's or the validation layer's, lines that are not valid UTF-8 and
 * every line of the validation stream go through the CaptureParser as strings one by one, so the
 * records are exactly what CaptureParser makes of the same lines.
 */
export class CaptureRecorder {
  private readonly splitters: Record<CaptureStream, LineSplitter>;
  private out = Buffer.allocUnsafe(OUT_BYTES);
  private pos = 0;
  private pendingText = '';
  private readonly scratch: CaptureRecord[] = [];
  private liveRecords: CaptureRecord[] = [];
  private liveDropped = 0;
  // The chunk being split: its checks are made once per chunk, not once per line.
  private stream: CaptureStream = 'stdout';
  private chunkBuf: Buffer | null = null;
  private lastLf = -1;
  private chunkValid = false;
  private hasHeader = false;
  private t = 0;
  private wall = 0;
  /** `{"kind":"line","stream":…,"t":…,"wall":…,"text":"` for this chunk. */
  private open = '';
  /** Ends a record's text and opens the next record's: `"}\n` + open, and the same with the CR flag. */
  private lineBreak = '';
  private crLineBreak = '';
  // A run of plain lines not yet written: buf[runStart, runEnd), the next line expected at runNext.
  private runBuf: Buffer | null = null;
  private runStart = 0;
  private runEnd = 0;
  private runNext = -1;
  private runCr = false;
  private runPartial = false;

  constructor(
    private readonly parser: CaptureParser,
    private readonly sink: RecorderSink,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    this.splitters = { stdout: new LineSplitter(maxLineBytes), stderr: new LineSplitter(maxLineBytes), validation: new LineSplitter(maxLineBytes) };
  }

  chunk(stream: CaptureStream, buf: Buffer, t: number, wall: number): void {
    this.begin(stream, buf, t, wall);
    this.lastLf = buf.lastIndexOf(0x0a);
    // Complete lines are whole characters: one validation of them all covers every line of the chunk.
    this.chunkValid = this.lastLf >= 0 && isUtf8(buf.subarray(0, this.lastLf));
    this.hasHeader = buf.indexOf(HEADER_MARK) !== -1;
    this.splitters[stream].push(buf, this.line, this.block);
    this.finishChunk();
  }

  /** The stream ended: its last partial line, and a validation message still being read. */
  end(stream: CaptureStream, t: number, wall: number): void {
    this.begin(stream, null, t, wall);
    this.splitters[stream].end(this.line);
    this.parser.end(stream, this.scratch);
    this.emitRecords();
    this.finishChunk();
  }

  private begin(stream: CaptureStream, buf: Buffer | null, t: number, wall: number): void {
    this.stream = stream;
    this.chunkBuf = buf;
    this.lastLf = -1;
    this.chunkValid = false;
    this.hasHeader = false;
    this.t = Math.round(t * 1000) / 1000;
    this.wall = wall;
    this.open = `{"kind":"line","stream":"${stream}","t":${this.t},"wall":${wall},"text":"`;
    this.lineBreak = `"}\n${this.open}`;
    this.crLineBreak = `"${CR_FLAG}}\n${this.open}`;
  }

  /**
   * The fast path: the complete lines of a chunk, buf[start, lastLf), in one pass, when they are
   * all plain — valid UTF-8, no validation message header among them or pending on the stream, not
   * the validation stream, on stderr none shaped like a loader line — and none can be longer than
   * a record holds. Otherwise (false) they go line by line.
   */
  private readonly block = (buf: Buffer, start: number, lastLf: number): boolean => {
    const stream = this.stream;
    if (stream === 'validation' || lastLf - start > this.maxLineBytes || !this.chunkValid || this.parser.reading(stream)) return false;
    if (this.hasHeader) {
      const at = buf.indexOf(HEADER_MARK, start);
      if (at !== -1 && at < lastLf) return false;
    }
    let end = lastLf;
    const cr = end > start && buf[end - 1] === 0x0d;
    if (cr) end--;
    const text = buf.toString('latin1', start, end);
    if (stream === 'stderr' && LOADER_LINE.test(text)) return false;
    this.flushRun();
    const first = this.parser.nextSeq;
    this.parser.plainLines(stream, this.serialize(text, cr, false));
    this.liveBlock(buf, start, lastLf, first);
    return true;
  };

  private readonly line = (buf: Buffer, s: number, e: number, cr: boolean, partial: boolean): void => {
    const stream = this.stream;
    const inChunk = buf === this.chunkBuf;
    const valid = inChunk && e <= this.lastLf && this.chunkValid ? true : isUtf8(buf.subarray(s, e));
    let header = false;
    if (!inChunk || this.hasHeader) {
      const at = buf.indexOf(HEADER_MARK, s);
      header = at !== -1 && at + HEADER_MARK.length <= e;
    }
    const slow = !valid || header || stream === 'validation' || this.parser.reading(stream) || (stream === 'stderr' && e > s && LOADER_FIRST[buf[s]!] === 1);
    if (slow) {
      const text = buf.toString('utf8', s, e);
      this.parser.push(
        { stream, t: this.t, wall: this.wall, text, ...(cr ? { cr } : {}), ...(partial ? { partial } : {}), ...(valid ? {} : { lossy: true }) },
        this.scratch,
      );
      this.emitRecords();
      return;
    }
    const seq = this.parser.plainLine(stream);
    if (!partial && buf === this.runBuf && s === this.runNext) {
      // The next line of a run of plain lines: only remember where it ends.
      this.runEnd = e;
      this.runCr = cr;
      this.runNext = e + (cr ? 2 : 1);
    } else {
      this.flushRun();
      this.runBuf = buf;
      this.runStart = s;
      this.runEnd = e;
      this.runCr = cr;
      this.runPartial = partial;
      this.runNext = e + (cr ? 2 : 1);
      // A piece of a long line stands alone (it is flagged; the lines inside a run are not).
      if (partial) this.flushRun();
    }
    if (this.sink.liveRoom() > this.liveRecords.length) {
      const record: LineRecord = { kind: 'line', seq, stream, t: this.t, wall: this.wall, text: buf.toString('utf8', s, e) };
      if (cr) record.cr = true;
      if (partial) record.partial = true;
      this.liveRecords.push(record);
    } else this.liveDropped++;
  };

  private flushRun(): void {
    const buf = this.runBuf;
    if (!buf) return;
    this.runBuf = null;
    this.serialize(buf.toString('latin1', this.runStart, this.runEnd), this.runCr, this.runPartial);
  }

  /**
   * Line records for `text` — Latin-1 of one or more plain lines (valid UTF-8) with their line
   * breaks inside — appended to the pending output; the last line gets the `cr` and `partial` flags
   * given. Returns how many lines there were.
   *
   * The escaping is a few global replacements with constant strings, which V8 runs natively over
   * the whole block (a callback or a "$&" pattern would cost a JavaScript call per match): backslash,
   * then quote, then each line break becomes the end of one record and the start of the next. The
   * growth of the string says how many line breaks there were. Control characters other than CR and
   * LF are rare; a block holding one takes the general escaping.
   */
  private serialize(text: string, lastCr: boolean, lastPartial: boolean): number {
    let body: string;
    let lines = 1;
    if (!CONTROL.test(text)) {
      body = text.replace(BACKSLASH, '\\\\').replace(QUOTE, '\\"');
      let crlfs = 0;
      if (body.includes('\r')) {
        const marked = body.replace(CRLF, CRLF_MARK);
        crlfs = body.length - marked.length;
        body = marked.replace(LONE_CR, '\\r');
      }
      const broken = body.replace(LF, this.lineBreak);
      lines += (broken.length - body.length) / (this.lineBreak.length - 1) + crlfs;
      body = crlfs ? broken.replace(CRLF_MARKS, this.crLineBreak) : broken;
    } else {
      let crAt = -2;
      body = text.replace(ESCAPE, (m: string, at: number, all: string) => {
        const c = m.charCodeAt(0);
        if (c === 0x0a) {
          lines++;
          return at === crAt + 1 ? this.lineBreak.slice(1) : this.lineBreak;
        }
        if (c === 0x0d && all.charCodeAt(at + 1) === 0x0a) {
          crAt = at;
          return `"${CR_FLAG}`;
        }
        return ESCAPES[c]!;
      });
    }
    this.pendingText += `${this.open}${body}"${lastCr ? CR_FLAG : ''}${lastPartial ? PARTIAL_FLAG : ''}}\n`;
    if (this.pendingText.length >= PENDING_TEXT_MAX) this.flushText();
    return lines;
  }

  /** Live records for a block's lines, as many as the live view has room for. */
  private liveBlock(buf: Buffer, start: number, lastLf: number, first: number): void {
    const count = this.parser.nextSeq - first;
    const room = this.sink.liveRoom() - this.liveRecords.length;
    if (room <= 0) {
      this.liveDropped += count;
      return;
    }
    const lines = buf.toString('utf8', start, lastLf).split('\n');
    const take = Math.min(room, lines.length);
    for (let i = 0; i < take; i++) {
      const text = lines[i]!;
      const record: LineRecord = { kind: 'line', seq: first + i, stream: this.stream, t: this.t, wall: this.wall, text };
      if (text.endsWith('\r')) {
        record.text = text.slice(0, -1);
        record.cr = true;
      }
      this.liveRecords.push(record);
    }
    this.liveDropped += count - take;
  }

  /** Records from the parser: serialized with JSON.stringify's escaping (they are few), and offered to the live view. */
  private emitRecords(): void {
    // Plain lines gathered so far come first: the file keeps arrival order.
    if (this.scratch.length) {
      this.flushRun();
      this.flushText();
    }
    for (const r of this.scratch) {
      const json = r.kind === 'line' ? lineJson(r) : messageJson(r);
      this.ensure(Buffer.byteLength(json));
      this.pos += this.out.write(json, this.pos, 'utf8');
      // Messages always go live; lines while there is room.
      if (r.kind === 'message' || this.sink.liveRoom() > this.liveRecords.length) this.liveRecords.push(r);
      else this.liveDropped++;
    }
    this.scratch.length = 0;
  }

  private finishChunk(): void {
    if (this.liveRecords.length || this.liveDropped) {
      this.sink.live(this.liveRecords, this.liveDropped);
      this.liveRecords = [];
      this.liveDropped = 0;
    }
    this.flushRun();
    this.flushText();
    this.flushOut();
  }

  private flushText(): void {
    if (this.pendingText.length === 0) return;
    this.ensure(this.pendingText.length);
    this.pos += this.out.write(this.pendingText, this.pos, 'latin1');
    this.pendingText = '';
  }

  private flushOut(): void {
    if (this.pos === 0) return;
    this.sink.write(this.out, this.pos);
    this.pos = 0;
  }

  /** Room for `bytes` more in the output buffer (what is there is written first when needed). */
  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.out.length) return;
    this.flushOut();
    if (bytes > this.out.length) this.out = Buffer.allocUnsafe(bytes);
  }
}

/** A message record as JSON text, without seq (its position in the file). */
export function messageJson(r: MessageRecord): string {
  const { seq: _seq, ...rest } = r;
  return `${JSON.stringify(rest)}\n`;
}

/**
 * A line record as JSON text, keys in LineRecordSchema's order and without seq (a record's seq is
 * its position in the file), as the block path above writes them.
 */
export function lineJson(r: LineRecord): string {
  let s = `{"kind":"line","stream":"${r.stream}","t":${r.t},"wall":${r.wall},"text":${JSON.stringify(r.text)}`;
  if (r.cr) s += CR_FLAG;
  if (r.partial) s += PARTIAL_FLAG;
  if (r.lossy) s += ',"lossy":true';
  if (r.src) s += `,"src":"${r.src}"`;
  if (r.level) s += `,"level":"${r.level}"`;
  if (r.cat) s += `,"cat":${JSON.stringify(r.cat)}`;
  return `${s}}\n`;
}
