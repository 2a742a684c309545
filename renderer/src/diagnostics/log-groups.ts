import { parseLoaderLogLine } from '../../../shared/sessions/loader-log-line';
import type { CaptureRecord, Severity } from '../../../shared/sessions/session-records';

/**
 * The Diagnose tab's log: the loader's lines grouped by what they are about (its own category tags,
 * LAYER, DRIVER, …), each distinct message once with how many times it came, the files it names
 * pulled out so the view can link them, and the severity kept for sorting (errors first). The
 * application's own output is one group of its own. Pure; the records come from a launch.
 */
export interface LogEntry {
  seq: number;
  level: Severity | null;
  message: string;
  count: number;
  /** Manifest and library paths the message names (the loader quotes them), in order. */
  files: string[];
}

export interface LogGroup {
  /** "LAYER", "DRIVER", … ("LOADER" for lines with no category; "APPLICATION" for the program's own output). */
  category: string;
  entries: LogEntry[];
  /** Entries by level, for the group's header. */
  errors: number;
  warnings: number;
}

const FILE = /(?:^|[\s"'(])((?:\/|[A-Za-z]:\\)[^\s"'(),]+\.(?:json|so(?:\.\d+)*|dll))/g;

export function filesIn(message: string): string[] {
  const out: string[] = [];
  for (const m of message.matchAll(FILE)) if (m[1] && !out.includes(m[1])) out.push(m[1]);
  return out;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, perf: 2, info: 3, debug: 4, verbose: 5 };

export function groupLog(records: readonly CaptureRecord[], maxEntries = 5000): { groups: LogGroup[]; dropped: number } {
  const groups = new Map<string, Map<string, LogEntry>>();
  let dropped = 0;
  let kept = 0;
  for (const r of records) {
    if (r.kind !== 'line') continue;
    const parsed = r.src === 'loader' ? parseLoaderLogLine(r.text) : null;
    const category = parsed ? (parsed.categories[0]?.toUpperCase() ?? 'LOADER') : r.src === 'validation' ? 'VALIDATION LAYER' : 'APPLICATION';
    const message = parsed ? parsed.message.trim() : r.text;
    const level = parsed ? (r.level ?? parsed.level) : null;
    let entries = groups.get(category);
    if (!entries) groups.set(category, (entries = new Map()));
    const key = `${level ?? ''}\0${message}`;
    const seen = entries.get(key);
    if (seen) {
      seen.count++;
      continue;
    }
    if (kept >= maxEntries) {
      dropped++;
      continue;
    }
    kept++;
    entries.set(key, { seq: r.seq, level, message, count: 1, files: filesIn(message) });
  }
  const out: LogGroup[] = [...groups].map(([category, entries]) => {
    const list = [...entries.values()].sort((a, b) => (a.level === null ? 9 : RANK[a.level]) - (b.level === null ? 9 : RANK[b.level]) || a.seq - b.seq);
    return { category, entries: list, errors: list.filter((e) => e.level === 'error').length, warnings: list.filter((e) => e.level === 'warning').length };
  });
  // Groups with errors first, then warnings; the application's own output last.
  out.sort(
    (a, b) =>
      Number(a.category === 'APPLICATION') - Number(b.category === 'APPLICATION') ||
      b.errors - a.errors ||
      b.warnings - a.warnings ||
      a.category.localeCompare(b.category),
  );
  return { groups: out, dropped };
}
