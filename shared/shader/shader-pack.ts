import * as z from 'zod';
import { SpirvDiagnosticSchema } from './shader-disassembly';
import { ShaderBase64Schema } from './shader-inspect-bytes';
import { VbcReflectionSchema } from './vbc-inspection';

/**
 * `shader.pack`: SPIR-V stages in, a VBC file out (docs/vbc.md, "Mapping from SPIR-V"), all as bytes
 * in the messages, so it works where the UI cannot name files (the browser host) and nothing is
 * written on main's side: the renderer offers the result as a download.
 */
export const ShaderPackRequestSchema = z
  .object({
    /** Each present stage's SPIR-V module, base64. At least one. */
    stages: z
      .object({
        vert: ShaderBase64Schema.optional(),
        tesc: ShaderBase64Schema.optional(),
        tese: ShaderBase64Schema.optional(),
        geom: ShaderBase64Schema.optional(),
        frag: ShaderBase64Schema.optional(),
      })
      .strict()
      .refine((s) => Object.values(s).some((v) => v !== undefined), 'name at least one stage (vert, tesc, tese, geom, frag)'),
  })
  .strict();

export const ShaderPackResultSchema = z.object({
  /** False when a stage does not validate, the stages do not link, or VBC cannot describe them. */
  ok: z.boolean(),
  /** The VBC file, base64; null when not ok. */
  base64: z.string().nullable(),
  byteLength: z.number().int(),
  /** The reflection written into the file; null when not ok. */
  reflection: VbcReflectionSchema.nullable(),
  /** A stage's SPIR-V diagnostics keep their word ranges in that stage's module; `data.stage` names the stage. */
  diagnostics: z.array(SpirvDiagnosticSchema),
});
export type ShaderPackResult = z.infer<typeof ShaderPackResultSchema>;
