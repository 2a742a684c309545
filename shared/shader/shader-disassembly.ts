import * as z from 'zod';

/** What `shader.disassemble` answers: spirv-dis-identical text (friendly names, or raw ids) plus the reader's LSP diagnostics. */
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
    /** `%12` for every id, like `spirv-dis --raw-id`; by default friendly names, like plain `spirv-dis`. */
    rawIds: z.boolean().optional(),
    /**
     * The text of a SPIR-V module as UTF-8 bytes in `utf8`, `text` then empty: for a host that writes
     * it out as it is (the CLI). A large module's text is megabytes, which made into a string and
     * encoded back for the write cost more than printing it (issue #19). A VBC file's text stays in `text`.
     */
    utf8: z.boolean().optional(),
  })
  .strict();

export const ShaderDisassemblySchema = z.object({
  path: z.string(),
  /** False when the module has errors: `text` is then Strata's best effort (spirv-dis would refuse it). */
  ok: z.boolean(),
  text: z.string(),
  /** The text as UTF-8 bytes, when the request asked for them (`text` is then empty). */
  utf8: z.instanceof(Uint8Array).optional(),
  /** Ranges are on line 0 and count 32-bit words from the start of the module (a VBC file: bytes from the start of the file). */
  diagnostics: z.array(SpirvDiagnosticSchema),
  /** 'vbc' for a VBC file: `text` is each stage's disassembly after a `; Stage …` comment line. Absent for SPIR-V. */
  format: z.enum(['spirv', 'vbc']).optional(),
});
export type ShaderDisassembly = z.infer<typeof ShaderDisassemblySchema>;
