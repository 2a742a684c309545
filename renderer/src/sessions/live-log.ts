import type { CaptureRecord } from '../../../shared/sessions/session-records';

/**
 * The live view's records: the newest `cap` of them (older ones stay in the session file), and how
 * many the main process left out of its batches to keep the UI responsive.
 */
export interface LiveLog {
  records: CaptureRecord[];
  /** Records received in all (kept or trimmed). */
  received: number;
  /** Left out by main (the file has them) or trimmed here. */
  dropped: number;
}

export const LIVE_LOG_CAP = 100_000;

export function emptyLiveLog(): LiveLog {
  return { records: [], received: 0, dropped: 0 };
}

/** A new log with `batch` appended, trimmed to the newest `cap` records. */
export function appendLive(log: LiveLog, batch: readonly CaptureRecord[], droppedByMain: number, cap = LIVE_LOG_CAP): LiveLog {
  const all = log.records.length + batch.length > cap ? [...log.records, ...batch].slice(-cap) : [...log.records, ...batch];
  const trimmed = log.records.length + batch.length - all.length;
  return { records: all, received: log.received + batch.length, dropped: log.dropped + droppedByMain + trimmed };
}
