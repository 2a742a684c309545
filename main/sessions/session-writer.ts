import { closeSync, fdatasync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SessionFooter, SessionHeader } from '../../shared/sessions/session-records';
import { fsyncDir } from '../platform/atomic-file';

/**
 * Appends a session's records to its JSON Lines file as they arrive. Each batch is one write()
 * of whole lines, so a Strata killed at any moment leaves a file that ends at a record boundary
 * (the kernel finishes a write it started); the data is fdatasync'ed every second, so a crash of
 * the machine loses at most that last second.
 */
export class SessionWriter {
  private fd: number | null;
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  private dirty = false;
  bytesWritten = 0;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates the file (never replaces one) and writes the header, durably. */
  static create(path: string, header: SessionHeader, syncEveryMs = 1000): SessionWriter {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // 0600: a session holds the application's output and environment, which may be private.
    const fd = openSync(path, 'wx', 0o600);
    const writer = new SessionWriter(path, fd);
    writer.write(`${JSON.stringify(header)}\n`);
    fsyncSync(fd);
    fsyncDir(dirname(path));
    if (syncEveryMs > 0) {
      writer.syncTimer = setInterval(() => writer.syncSoon(), syncEveryMs);
      writer.syncTimer.unref();
    }
    return writer;
  }

  /** Whole records, already serialized (CaptureRecorder): one write() call. */
  appendBytes(buf: Buffer, length: number): void {
    if (this.fd === null) throw new Error(`session file ${this.path} is closed`);
    let off = 0;
    while (off < length) off += writeSync(this.fd, buf, off, length - off);
    this.bytesWritten += length;
    this.dirty = true;
  }

  /** Writes the footer and closes the file; waits for a sync in flight so the descriptor is never closed under it. */
  async finish(footer: SessionFooter): Promise<void> {
    if (this.fd === null) return;
    if (this.syncTimer) clearInterval(this.syncTimer);
    await this.syncing;
    this.write(`${JSON.stringify(footer)}\n`);
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }

  private write(text: string): void {
    const buffer = Buffer.from(text, 'utf8');
    this.appendBytes(buffer, buffer.length);
  }

  private syncSoon(): void {
    if (this.syncing || !this.dirty || this.fd === null) return;
    this.dirty = false;
    const fd = this.fd;
    this.syncing = new Promise<void>((resolve) =>
      fdatasync(fd, () => {
        this.syncing = null;
        resolve();
      }),
    );
  }
}
