import * as z from 'zod';
import { LayerChainSchema } from '../loader/chain-schema';
import { LINE_SOURCES, SEVERITIES } from './record-words';

/**
 * A session file is JSON Lines: one `header`, then `line` and `message` records in the order they
 * arrived, then one `footer` when the run ended. A file without a footer is a run whose Strata was
 * killed (or is still running); everything before its last line is still valid.
 *
 * A capture record's `seq` is its position among the capture records (1 for the line after the
 * header). It is not written — readers number the records as they read them — which keeps the
 * writer's hot path free of per-line work (main/sessions/capture-recorder.ts).
 */
export const SESSION_FORMAT = 'strata-session/1';

/** Where a captured line came from: the application's stdout/stderr, or the validation layer's log (routed to Strata). */
export const CaptureStreamSchema = z.enum(['stdout', 'stderr', 'validation']);
export type CaptureStream = z.infer<typeof CaptureStreamSchema>;

/** One scale for the loader's levels and the validation layer's severities, so one filter serves both. */
export const SeveritySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof SeveritySchema>;

/** Who said a line: the application itself, the loader (VK_LOADER_DEBUG), or the validation layer. */
export const LineSourceSchema = z.enum(LINE_SOURCES);
export type LineSource = z.infer<typeof LineSourceSchema>;

export const LoaderCategorySchema = z.enum(['layer', 'driver', 'validation', 'implementation']);
export type LoaderCategory = z.infer<typeof LoaderCategorySchema>;

export const SessionApplicationSchema = z.object({
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string(),
  /** The executable found on PATH (what the override layer's app_keys would be compared with); null when not found. */
  resolvedPath: z.string().nullable(),
});

export const SessionEnvironmentSchema = z.object({
  /** Variables Strata set for this launch only (profile, loader debug, validation routing, --env). */
  set: z.record(z.string(), z.string()),
  /** Variables Strata removed for this launch. */
  unset: z.array(z.string()),
  /**
   * Inherited variables that steer the loader and layers (VK_*, VULKAN_*, XDG_*, HOME, LD_LIBRARY_PATH,
   * DISPLAY…). Not the whole environment: a session is meant to be shared, and tokens must not travel with it.
   */
  inherited: z.record(z.string(), z.string()),
});

export const ValidationRoutingSchema = z.object({
  /** fifo: the layer writes to a pipe Strata reads; stdout: its messages are read from the application's output; off: not touched. */
  mode: z.enum(['fifo', 'stdout', 'off']),
  note: z.string().nullable(),
});
export type ValidationRouting = z.infer<typeof ValidationRoutingSchema>;

export const SessionHeaderSchema = z.object({
  kind: z.literal('header'),
  format: z.literal(SESSION_FORMAT),
  id: z.string(),
  application: SessionApplicationSchema,
  /** A full copy of the profile applied (not a reference: the profile may change or go later). */
  profile: z.object({ name: z.string(), copy: z.unknown() }).nullable(),
  /** The instance layer chain Strata predicted for this launch's environment. */
  chain: LayerChainSchema.nullable(),
  chainError: z.string().nullable(),
  environment: SessionEnvironmentSchema,
  loaderDebug: z.string().nullable(),
  validationRouting: ValidationRoutingSchema,
  timeoutMs: z.number().nullable(),
  startedAt: z.string(),
  startWall: z.number(),
  strataVersion: z.string(),
  /** The Strata process writing the file: while it lives, a file without a footer is a run in progress. */
  strataPid: z.number().int(),
  notes: z.array(z.string()),
});
export type SessionHeader = z.infer<typeof SessionHeaderSchema>;

export const LineRecordSchema = z.object({
  kind: z.literal('line'),
  /** One sequence for lines and messages, in arrival order: the record's position in the file (not written; readers number). */
  seq: z.number().int(),
  stream: CaptureStreamSchema,
  /** Milliseconds since the launch (monotonic clock). */
  t: z.number(),
  /** Wall-clock milliseconds since the epoch when the line arrived. */
  wall: z.number(),
  text: z.string(),
  /** The line ended in CRLF (the CR is not in `text`). */
  cr: z.boolean().optional(),
  /** No line break followed `text`: the stream's last bytes, or a piece of a very long line that the next record continues. */
  partial: z.boolean().optional(),
  /** The bytes were not valid UTF-8; `text` holds U+FFFD where they were. */
  lossy: z.boolean().optional(),
  /** Absent for the application's own lines. */
  src: z.enum(['loader', 'validation']).optional(),
  level: SeveritySchema.optional(),
  cat: z.array(LoaderCategorySchema).optional(),
});
export type LineRecord = z.infer<typeof LineRecordSchema>;

export const MessageObjectSchema = z.object({
  index: z.number().int(),
  handle: z.string(),
  /** VkObjectType as a number, as the layer prints it. */
  type: z.number().int().nullable(),
  /** VkObjectType's name (VK_OBJECT_TYPE_DEVICE), from the message or Strata's table. */
  typeName: z.string().nullable(),
  /** The debug-utils name, null when the object has none. */
  name: z.string().nullable(),
});
export type MessageObject = z.infer<typeof MessageObjectSchema>;

export const MessageRecordSchema = z.object({
  kind: z.literal('message'),
  seq: z.number().int(),
  stream: CaptureStreamSchema,
  t: z.number(),
  wall: z.number(),
  /** First and last `line` seq the message was read from. */
  lines: z.tuple([z.number().int(), z.number().int()]),
  severity: SeveritySchema,
  /** GENERAL / SPEC / PERF (VkDebugUtilsMessageTypeFlagsEXT), as printed. */
  types: z.array(z.string()),
  /** pMessageIdName: a VUID-… or an UNASSIGNED-… id. */
  vuid: z.string(),
  /** messageIdNumber, a signed 32-bit number. */
  messageId: z.number().int(),
  objects: z.array(MessageObjectSchema),
  /** pMessage, its lines joined with "\n". */
  text: z.string(),
  /** The valid-usage entry in the specification, when the VUID is one. */
  specUrl: z.string().nullable(),
  /** The valid-usage statement (plain text) from validusage.json, when known. */
  specText: z.string().nullable(),
  /** false when the stream ended before the message's object list did. */
  complete: z.boolean(),
});
export type MessageRecord = z.infer<typeof MessageRecordSchema>;

export const SeverityCountsSchema = z.object({
  error: z.number().int(),
  warning: z.number().int(),
  info: z.number().int(),
  perf: z.number().int(),
  debug: z.number().int(),
  verbose: z.number().int(),
});
export type SeverityCounts = z.infer<typeof SeverityCountsSchema>;

export const StreamCountsSchema = z.object({ stdout: z.number().int(), stderr: z.number().int(), validation: z.number().int() });

export const SessionCountsSchema = z.object({
  lines: StreamCountsSchema,
  bytes: StreamCountsSchema,
  /** Validation messages by severity. */
  messages: SeverityCountsSchema,
  /** Loader debug lines by level. */
  loader: SeverityCountsSchema,
});
export type SessionCounts = z.infer<typeof SessionCountsSchema>;

export const ExitReasonSchema = z.enum(['exited', 'stopped', 'timeout', 'failed-to-start']);
export type ExitReason = z.infer<typeof ExitReasonSchema>;

export const SessionExitSchema = z.object({
  reason: ExitReasonSchema,
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** The failure to start, when there was one. */
  error: z.string().nullable(),
});
export type SessionExit = z.infer<typeof SessionExitSchema>;

export const SessionFooterSchema = z.object({
  kind: z.literal('footer'),
  endedAt: z.string(),
  endWall: z.number(),
  durationMs: z.number(),
  exit: SessionExitSchema,
  counts: SessionCountsSchema,
});
export type SessionFooter = z.infer<typeof SessionFooterSchema>;

export type CaptureRecord = LineRecord | MessageRecord;

export function emptySeverityCounts(): SeverityCounts {
  return { error: 0, warning: 0, info: 0, perf: 0, debug: 0, verbose: 0 };
}

export function emptyCounts(): SessionCounts {
  return {
    lines: { stdout: 0, stderr: 0, validation: 0 },
    bytes: { stdout: 0, stderr: 0, validation: 0 },
    messages: emptySeverityCounts(),
    loader: emptySeverityCounts(),
  };
}

/** Adds one captured record to running counts (bytes are counted where the bytes are read). */
export function countRecord(counts: SessionCounts, record: CaptureRecord): void {
  if (record.kind === 'message') counts.messages[record.severity]++;
  else {
    counts.lines[record.stream]++;
    if (record.src === 'loader' && record.level) counts.loader[record.level]++;
  }
}

/** Session ids name files: letters, digits, dot, dash, underscore only, so an id can never walk out of the sessions folder. */
export const SessionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a session id: letters, digits, ".", "-" and "_"');

/** `20240612-153012-vkcube-3f9a`: sorts by start time, says what ran, unique within the second. */
export function makeSessionId(start: Date, command: string, random4: string): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${start.getUTCFullYear()}${p(start.getUTCMonth() + 1)}${p(start.getUTCDate())}-${p(start.getUTCHours())}${p(start.getUTCMinutes())}${p(start.getUTCSeconds())}`;
  const base = command.split(/[\\/]/).pop() ?? 'app';
  const name =
    base
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^[_-]+/, '')
      .slice(0, 32) || 'app';
  return `${stamp}-${name}-${random4.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || '0000'}`;
}
