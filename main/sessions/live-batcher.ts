import type { CaptureRecord } from '../../shared/sessions/session-records';

/**
 * Gathers a running session's records into one event per interval (50 ms by default): a UI that
 * re-renders twenty times a second stays responsive however fast the application writes. Past
 * `maxRecords` in one interval, lines are counted instead of sent (they are all in the session
 * file); validation messages are always sent.
 */
export class LiveBatcher {
  private records: CaptureRecord[] = [];
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (records: CaptureRecord[], dropped: number) => void,
    private readonly intervalMs = 50,
    private readonly maxRecords = 2000,
  ) {}

  /** How many more records this interval takes. */
  room(): number {
    return Math.max(0, this.maxRecords - this.records.length);
  }

  add(records: readonly CaptureRecord[], dropped = 0): void {
    this.dropped += dropped;
    for (const r of records) {
      if (this.records.length < this.maxRecords || r.kind === 'message') this.records.push(r);
      else this.dropped++;
    }
    if (!this.timer && (this.records.length > 0 || this.dropped > 0)) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.records.length === 0 && this.dropped === 0) return;
    const records = this.records;
    const dropped = this.dropped;
    this.records = [];
    this.dropped = 0;
    this.send(records, dropped);
  }
}
