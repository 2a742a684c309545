import { statSync } from 'node:fs';
import { serviceError } from '../../shared/errors/strata-error';
import { renderSessionHtml } from '../../shared/sessions/session-html';
import type { SessionExport } from '../../shared/sessions/session-ipc';
import { countRecord, emptyCounts, type CaptureRecord, type MessageRecord } from '../../shared/sessions/session-records';
import { readSummary, scanSession, type StoreOptions } from './session-store';

/** An export is built in memory; beyond this the session file itself (already JSON Lines) is the thing to share. */
export const MAX_EXPORT_BYTES = 256 * 1024 * 1024;
/** Output lines in an HTML report; validation messages are always all there. */
export const HTML_LINE_LIMIT = 20_000;

export async function exportSession(options: StoreOptions, id: string, format: 'json' | 'html'): Promise<SessionExport> {
  const summary = readSummary(options, id);
  const size = statSync(summary.file).size;
  if (size > MAX_EXPORT_BYTES) {
    throw serviceError('sessions/too-large', `Session ${id} is ${(size / 1e6).toFixed(0)} MB, more than an export holds`, {
      where: summary.file,
      fix: 'share the session file itself: it is JSON Lines already',
    });
  }
  const counts = emptyCounts();
  const records: CaptureRecord[] = [];
  const messages: MessageRecord[] = [];
  let lines = 0;
  const scan = await scanSession(summary.file, (r) => {
    countRecord(counts, r);
    if (format === 'json') records.push(r);
    else if (r.kind === 'message') messages.push(r);
    else if (lines++ < HTML_LINE_LIMIT) records.push(r);
  });
  const finalCounts = scan.footer ? { ...counts, bytes: scan.footer.counts.bytes } : counts;
  if (format === 'json') {
    const doc = { format: 'strata-session-export/1', header: scan.header, footer: scan.footer, counts: finalCounts, torn: scan.torn, records };
    return { fileName: `${id}.json`, mediaType: 'application/json', text: `${JSON.stringify(doc, null, 1)}\n` };
  }
  const text = renderSessionHtml({
    header: scan.header,
    footer: scan.footer,
    counts: finalCounts,
    messages,
    lines: records,
    linesOmitted: Math.max(0, lines - HTML_LINE_LIMIT),
    generatedAt: new Date().toISOString(),
  });
  return { fileName: `${id}.html`, mediaType: 'text/html', text };
}
