import * as z from 'zod';

/** vscode-languageserver-types' Diagnostic as a runtime schema, for diagnostics crossing IPC. */
const PositionSchema = z.object({ line: z.number().int().nonnegative(), character: z.number().int().nonnegative() });
export const RangeSchema = z.object({ start: PositionSchema, end: PositionSchema });
export const DiagnosticSchema = z.object({
  range: RangeSchema,
  severity: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
  code: z.union([z.string(), z.number()]).optional(),
  source: z.string().optional(),
  // LSP 3.18 allows Markdown messages; Strata writes plain strings.
  message: z.union([z.string(), z.object({ kind: z.enum(['plaintext', 'markdown']), value: z.string() })]),
  data: z.unknown().optional(),
});

/** The lint answer for one file: its URI (a path here) and what is wrong with it. */
export const FileDiagnosticsSchema = z.object({ uri: z.string(), diagnostics: z.array(DiagnosticSchema) });
export type FileDiagnostics = z.infer<typeof FileDiagnosticsSchema>;
