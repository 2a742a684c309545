import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { CaptureStreamSchema, LineSourceSchema, SeveritySchema, type CaptureRecord, type LineSource } from './session-records';

/** What to look for in sessions: every given condition must hold (absent ones match everything). */
export const SessionQuerySchema = z
  .object({
    /** Case-insensitive substring of a line's text, or of a message's text, id or object names. */
    text: z.string().min(1).optional(),
    /** A message id (VUID-… or UNASSIGNED-…); a trailing "*" matches any id that starts with the rest. */
    vuid: z.string().min(1).optional(),
    severity: z.array(SeveritySchema).min(1).max(REQUEST_LIMITS.queryValues, tooMany('severities', REQUEST_LIMITS.queryValues)).optional(),
    source: z.array(LineSourceSchema).min(1).max(REQUEST_LIMITS.queryValues, tooMany('sources', REQUEST_LIMITS.queryValues)).optional(),
    stream: z.array(CaptureStreamSchema).min(1).max(REQUEST_LIMITS.queryValues, tooMany('streams', REQUEST_LIMITS.queryValues)).optional(),
    kind: z
      .array(z.enum(['line', 'message']))
      .min(1)
      .max(REQUEST_LIMITS.queryValues, tooMany('kinds', REQUEST_LIMITS.queryValues))
      .optional(),
  })
  .strict();
export type SessionQuery = z.infer<typeof SessionQuerySchema>;

export function recordSource(record: CaptureRecord): LineSource {
  return record.kind === 'message' ? 'validation' : (record.src ?? 'app');
}

function vuidMatches(pattern: string, vuid: string): boolean {
  return pattern.endsWith('*') ? vuid.startsWith(pattern.slice(0, -1)) : vuid === pattern;
}

/** A query with its text lower-cased once, for scanning millions of records. */
export function compileQuery(query: SessionQuery): (record: CaptureRecord) => boolean {
  const text = query.text?.toLowerCase();
  const severity = query.severity ? new Set(query.severity) : null;
  const source = query.source ? new Set(query.source) : null;
  const stream = query.stream ? new Set(query.stream) : null;
  const kind = query.kind ? new Set(query.kind) : null;
  return (r) => {
    if (kind && !kind.has(r.kind)) return false;
    if (stream && !stream.has(r.stream)) return false;
    if (source && !source.has(recordSource(r))) return false;
    if (severity) {
      const level = r.kind === 'message' ? r.severity : r.level;
      if (!level || !severity.has(level)) return false;
    }
    if (query.vuid) {
      // Lines carry no id of their own; a VUID search finds the messages.
      if (r.kind !== 'message' || !vuidMatches(query.vuid, r.vuid)) return false;
    }
    if (text) {
      if (r.kind === 'line') return r.text.toLowerCase().includes(text);
      return (
        r.text.toLowerCase().includes(text) ||
        r.vuid.toLowerCase().includes(text) ||
        r.objects.some((o) => (o.name ?? '').toLowerCase().includes(text) || o.handle.toLowerCase() === text)
      );
    }
    return true;
  };
}
