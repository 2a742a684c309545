import { parseLoaderLogLine } from './loader-log-line';
import { countRecord, emptyCounts, type CaptureRecord, type CaptureStream, type LineRecord, type MessageRecord, type SessionCounts } from './session-records';
import type { SpecReference } from './valid-usage';
import { finishObjects, messageComplete, parseValidationHeader, startMessage, stepValidation, type PendingMessage } from './validation-message';

/** A line as the launcher read it, before Strata knows who said it. */
export interface CapturedLine {
  stream: CaptureStream;
  t: number;
  wall: number;
  text: string;
  cr?: boolean;
  partial?: boolean;
  lossy?: boolean;
}

/**
 * Turns captured lines into session records: every line stays a `line` record (nothing is
 * dropped), loader lines get their level and categories, and validation messages — which span
 * several lines — also become one `message` record after their last line. Pure and synchronous,
 * so the launcher, the tests and a re-read of an old file all classify alike.
 */
export class CaptureParser {
  private seq = 0;
  private readonly pending: Record<CaptureStream, { pending: PendingMessage | null }> = {
    stdout: { pending: null },
    stderr: { pending: null },
    validation: { pending: null },
  };
  readonly counts: SessionCounts = emptyCounts();

  constructor(private readonly spec: (vuid: string) => SpecReference) {}

  /** Appends the records for one line to `out`: a finished earlier message (if this line ends it), the line, a message it completes. */
  push(line: CapturedLine, out: CaptureRecord[]): void {
    const state = this.pending[line.stream];
    const seq = ++this.seq;
    const record: LineRecord = { kind: 'line', seq, stream: line.stream, t: line.t, wall: line.wall, text: line.text };
    if (line.cr) record.cr = true;
    if (line.partial) record.partial = true;
    if (line.lossy) record.lossy = true;

    let completed: PendingMessage | null = null;
    if (state.pending) {
      const step = stepValidation(state, line.text, seq, line.t, line.wall);
      if (step.kind === 'part') {
        record.src = 'validation';
        record.level = state.pending.header.severity;
        if (step.done) {
          completed = state.pending;
          state.pending = null;
        }
      } else {
        // The message ended without (all of) its object list: keep what was read.
        this.flush(line.stream, out);
      }
    }
    if (!record.src) this.classify(record, state);
    this.emit(record, out);
    if (completed) this.emitMessage(completed, line.stream, out);
  }

  /** A validation message on `stream` is still being read: its next lines must go through push(). */
  reading(stream: CaptureStream): boolean {
    return this.pending[stream].pending !== null;
  }

  /**
   * Numbers and counts an application line the caller has established is neither the loader's nor
   * the validation layer's (nothing pending on its stream, no message header, no loader tag), so a
   * writer can serialize it from bytes without building a record. Returns its seq.
   */
  plainLine(stream: CaptureStream): number {
    this.counts.lines[stream]++;
    return ++this.seq;
  }

  /** The seq the next record gets. */
  get nextSeq(): number {
    return this.seq + 1;
  }

  /** `count` plain lines at once, numbered from nextSeq on (see plainLine). */
  plainLines(stream: CaptureStream, count: number): void {
    this.counts.lines[stream] += count;
    this.seq += count;
  }

  /** The stream ended: a message still being read is written as it is, marked incomplete. */
  end(stream: CaptureStream, out: CaptureRecord[]): void {
    this.flush(stream, out);
  }

  private classify(record: LineRecord, state: { pending: PendingMessage | null }): void {
    const header = parseValidationHeader(record.text);
    if (header) {
      record.src = 'validation';
      record.level = header.severity;
      state.pending = startMessage(header, record.seq, record.t, record.wall);
      return;
    }
    // The loader logs to stderr (loader 1.3.239 log.c writes with fputs(…, stderr)).
    if (record.stream === 'stderr') {
      const loader = parseLoaderLogLine(record.text);
      if (loader) {
        record.src = 'loader';
        if (loader.level) record.level = loader.level;
        if (loader.categories.length) record.cat = loader.categories;
      }
    }
  }

  private flush(stream: CaptureStream, out: CaptureRecord[]): void {
    const state = this.pending[stream];
    if (!state.pending) return;
    const p = state.pending;
    state.pending = null;
    this.emitMessage(p, stream, out);
  }

  private emit(record: CaptureRecord, out: CaptureRecord[]): void {
    countRecord(this.counts, record);
    out.push(record);
  }

  private emitMessage(p: PendingMessage, stream: CaptureStream, out: CaptureRecord[]): void {
    const text = p.textLines.join('\n');
    const ref = this.spec(p.header.vuid);
    const message: MessageRecord = {
      kind: 'message',
      seq: ++this.seq,
      stream,
      t: p.t,
      wall: p.wall,
      lines: [p.firstSeq, p.lastSeq],
      severity: p.header.severity,
      types: p.header.types,
      vuid: p.header.vuid,
      messageId: p.header.messageId,
      objects: finishObjects(p, text),
      text,
      specUrl: ref.url,
      specText: ref.text,
      complete: messageComplete(p),
    };
    this.emit(message, out);
  }
}
