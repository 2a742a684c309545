import { z } from 'zod';

/** What `shader.disassemble` answers: spirv-dis-identical text plus the reader's LSP diagnostics. */
const PositionSchema = z.object({ line: z.number().int(), character: z.number().int() });
export const SpirvDiagnosticSchema = z.object({
  range: z.object({ start: PositionSchema, end: PositionSchema }),
  severity: z.number().int().min(1).max(4).optional(),
  code: z.union([z.string(), z.number()]).optional(),
  source: z.string().optional(),
  message: z.string(),
  data: z.unknown().optional(),
});

export const ShaderDisassembleRequestSchema = z
  .object({
    /** A SPIR-V module on the machine that runs main/ (read there, never in the renderer). */
    path: z.string().min(1),
  })
  .strict();

export const ShaderDisassemblySchema = z.object({
  path: z.string(),
  /** False when the module has errors: `text` is then Strata's best effort (spirv-dis would refuse it). */
  ok: z.boolean(),
  text: z.string(),
  /** Ranges are on line 0 and count 32-bit words from the start of the module. */
  diagnostics: z.array(SpirvDiagnosticSchema),
});
export type ShaderDisassembly = z.infer<typeof ShaderDisassemblySchema>;
