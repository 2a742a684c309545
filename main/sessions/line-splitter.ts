/**
 * Bytes of one stream → lines, as byte ranges (no decoding here, so the hot path can copy bytes
 * straight into the session file): LF ends a line (a CR before it is reported, not included), the
 * bytes after the last LF wait for the next chunk, and a line longer than `maxLineBytes` is cut into
 * pieces at a UTF-8 character boundary (each piece but the last is `partial`: no line break follows
 * it). Joining the pieces back with their line breaks gives the original bytes.
 */
export type LineSink = (buf: Buffer, start: number, end: number, cr: boolean, partial: boolean) => void;

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  private carry: Buffer[] = [];
  private carryBytes = 0;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {
    if (maxLineBytes < 4) throw new RangeError('maxLineBytes must hold one UTF-8 character (4 bytes)');
  }

  /** Bytes held for a line not yet ended. */
  get pendingBytes(): number {
    return this.carryBytes;
  }

  /**
   * Splits `chunk`. With `block`, the complete lines after the first line break are offered as one
   * block, buf[start, lastLf) with their line breaks inside (the caller may handle them in one pass
   * when it knows none is too long); `block` returns false to have them split line by line.
   */
  push(chunk: Buffer, sink: LineSink, block?: (buf: Buffer, start: number, lastLf: number) => boolean): void {
    let start = 0;
    let lf = chunk.indexOf(LF);
    if (lf === -1) {
      this.hold(chunk, sink);
      return;
    }
    if (this.carryBytes > 0) {
      this.carry.push(chunk.subarray(0, lf));
      const line = Buffer.concat(this.carry, this.carryBytes + lf);
      this.carry = [];
      this.carryBytes = 0;
      this.line(line, 0, line.length, false, sink);
      start = lf + 1;
      lf = chunk.indexOf(LF, start);
    }
    const lastLf = chunk.lastIndexOf(LF);
    if (block && lf !== -1 && block(chunk, start, lastLf)) {
      start = lastLf + 1;
    } else {
      while (lf !== -1) {
        this.line(chunk, start, lf, false, sink);
        start = lf + 1;
        lf = chunk.indexOf(LF, start);
      }
    }
    if (start < chunk.length) this.hold(chunk.subarray(start), sink);
  }

  /** The stream ended: what is held is the last line, without a line break. */
  end(sink: LineSink): void {
    if (this.carryBytes === 0) return;
    const rest = Buffer.concat(this.carry, this.carryBytes);
    this.carry = [];
    this.carryBytes = 0;
    this.line(rest, 0, rest.length, true, sink);
  }

  /** One line's bytes buf[start, end) (no LF); `last` when the stream ended without a line break. */
  private line(buf: Buffer, start: number, end: number, last: boolean, sink: LineSink): void {
    while (end - start > this.maxLineBytes) {
      const cut = utf8Boundary(buf, start + this.maxLineBytes, start);
      sink(buf, start, cut, false, true);
      start = cut;
    }
    if (last) sink(buf, start, end, false, true);
    else if (end > start && buf[end - 1] === CR) sink(buf, start, end - 1, true, false);
    else sink(buf, start, end, false, false);
  }

  private hold(bytes: Buffer, sink: LineSink): void {
    // Copy: a small tail must not keep the whole chunk it came from alive.
    this.carry.push(Buffer.from(bytes));
    this.carryBytes += bytes.length;
    if (this.carryBytes > this.maxLineBytes) {
      // Emit full pieces now, so a line with no end in sight never grows memory without bound.
      const all = Buffer.concat(this.carry, this.carryBytes);
      let start = 0;
      while (all.length - start > this.maxLineBytes) {
        const cut = utf8Boundary(all, start + this.maxLineBytes, start);
        sink(all, start, cut, false, true);
        start = cut;
      }
      this.carry = start < all.length ? [Buffer.from(all.subarray(start))] : [];
      this.carryBytes = all.length - start;
    }
  }
}

/** The largest cut ≤ limit (and > floor) that does not fall inside a UTF-8 sequence (continuation bytes are 10xxxxxx). */
export function utf8Boundary(bytes: Buffer, limit: number, floor = 0): number {
  let cut = limit;
  // At most 3 continuation bytes precede a character's start; invalid input falls back to the limit.
  for (let back = 0; back < 4 && cut > floor; back++, cut--) {
    if ((bytes[cut]! & 0xc0) !== 0x80) return cut;
  }
  return limit;
}
