import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { SessionQuerySchema } from './session-query';
import {
  LineRecordSchema,
  MessageRecordSchema,
  SessionCountsSchema,
  SessionExitSchema,
  SessionFooterSchema,
  SessionHeaderSchema,
  SessionIdSchema,
} from './session-records';

/** The request and response shapes of the `launch.*` and `sessions.*` channels (shared/ipc/contract.ts). */
export const CaptureRecordSchema = z.discriminatedUnion('kind', [LineRecordSchema, MessageRecordSchema]);

export const LaunchStartRequestSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).max(REQUEST_LIMITS.commandArgs, tooMany('arguments', REQUEST_LIMITS.commandArgs)).optional(),
    /** The working folder; default: Strata's. */
    cwd: z.string().min(1).optional(),
    /** Variables to set (a string) or unset (null) for this launch only. */
    env: z.record(z.string().regex(/^[^=\0]+$/), z.string().nullable()).optional(),
    /** A profile by name, applied to this launch only through environment variables. */
    profile: z.string().min(1).optional(),
    /** VK_LOADER_DEBUG for the launch: error, warn, info, debug, perf, layer, driver, validation, all (comma-separated). */
    loaderDebug: z.string().min(1).optional(),
    /** Stop the application after this many seconds. */
    timeoutS: z
      .number()
      .positive()
      .max(7 * 24 * 3600)
      .optional(),
    /** Route the validation layer's messages to Strata (default true). */
    routeValidation: z.boolean().optional(),
  })
  .strict();
export type LaunchStartRequest = z.infer<typeof LaunchStartRequestSchema>;

export const LaunchStartResultSchema = z.object({
  id: SessionIdSchema,
  pid: z.number().int().nullable(),
  file: z.string(),
  header: SessionHeaderSchema,
});
export type LaunchStartResult = z.infer<typeof LaunchStartResultSchema>;

export const SessionIdRequestSchema = z.object({ id: SessionIdSchema }).strict();

export const LaunchStopResultSchema = z.object({ id: z.string(), stopping: z.boolean() });

export const SessionStatusSchema = z.enum(['running', 'ended', 'incomplete']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export const SessionSummarySchema = z.object({
  id: z.string(),
  file: z.string(),
  sizeBytes: z.number().int(),
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string(),
  profile: z.string().nullable(),
  loaderDebug: z.string().nullable(),
  startedAt: z.string(),
  startWall: z.number(),
  /** running: its Strata is still writing it; incomplete: no footer and its Strata is gone (killed or crashed). */
  status: SessionStatusSchema,
  exit: SessionExitSchema.nullable(),
  durationMs: z.number().nullable(),
  /** From the footer; null while running or when the footer is missing. */
  counts: SessionCountsSchema.nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SessionListSchema = z.object({
  dir: z.string(),
  sessions: z.array(SessionSummarySchema),
  /** Files in the folder that are not readable sessions, with why. */
  unreadable: z.array(z.object({ file: z.string(), reason: z.string() })),
});
export type SessionList = z.infer<typeof SessionListSchema>;

export const MAX_OPEN_RECORDS = 50_000;

export const SessionOpenRequestSchema = z
  .object({
    id: SessionIdSchema,
    query: SessionQuerySchema.optional(),
    /** Skip this many matching records. */
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(MAX_OPEN_RECORDS).optional(),
  })
  .strict();

export const SessionOpenSchema = z.object({
  summary: SessionSummarySchema,
  header: SessionHeaderSchema,
  footer: SessionFooterSchema.nullable(),
  records: z.array(CaptureRecordSchema),
  offset: z.number().int(),
  /** Matching records in the whole file. */
  total: z.number().int(),
  /** Counts over the whole file (recomputed when the footer is missing). */
  counts: SessionCountsSchema,
  /** The file's last line was cut short (a crash while writing it) and was skipped. */
  torn: z.boolean(),
});
export type SessionOpen = z.infer<typeof SessionOpenSchema>;

export const SessionSearchRequestSchema = z
  .object({
    query: SessionQuerySchema,
    /** Sessions to search; default: all. */
    ids: z.array(SessionIdSchema).max(REQUEST_LIMITS.sessionIds, tooMany('session ids', REQUEST_LIMITS.sessionIds)).optional(),
    /** Records returned per session (all matches are counted). */
    limit: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();

export const SessionSearchSchema = z.object({
  results: z.array(z.object({ summary: SessionSummarySchema, matches: z.number().int(), records: z.array(CaptureRecordSchema) })),
});
export type SessionSearch = z.infer<typeof SessionSearchSchema>;

export const SessionExportRequestSchema = z.object({ id: SessionIdSchema, format: z.enum(['json', 'html']) }).strict();
export const SessionExportSchema = z.object({ fileName: z.string(), mediaType: z.string(), text: z.string() });
export type SessionExport = z.infer<typeof SessionExportSchema>;

export const SessionDiffRequestSchema = z.object({ a: SessionIdSchema, b: SessionIdSchema }).strict();

export const SessionDeleteResultSchema = z.object({ id: z.string(), deleted: z.boolean() });

/** Live output of a running launch, batched (about every 50 ms) so the UI re-renders a few times a second, not per line. */
export const SessionLinesEventSchema = z.object({
  id: z.string(),
  records: z.array(CaptureRecordSchema),
  /** Records left out of this batch to keep it small; they are in the session file. */
  dropped: z.number().int(),
});
export type SessionLinesEvent = z.infer<typeof SessionLinesEventSchema>;

export const SessionStartedEventSchema = z.object({ summary: SessionSummarySchema });
export const SessionEndedEventSchema = z.object({ id: z.string(), footer: SessionFooterSchema });
