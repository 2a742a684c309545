import * as z from 'zod';
import { ShaderInspectionSchema } from './shader-inspection';
import { VBC_STAGES } from './vbc-enums';
import { SHADER_BYTES_LIMIT } from './shader-bytes-limit';

/**
 * `shader.inspectBytes`: the module travels in the request, for hosts where the renderer cannot name
 * a file main can read (the browser host: a dropped or picked file has no path). Same answer as
 * `shader.inspect`, plus the disassembly, so one call fills the Shaders panel. At most
 * SHADER_BYTES_LIMIT bytes (defined without schemas in shader-bytes-limit.ts).
 */
/** Base64 of SHADER_BYTES_LIMIT bytes, padded. */
const BASE64_LIMIT = Math.ceil(SHADER_BYTES_LIMIT / 3) * 4;

/** A file's bytes, standard base64 (RFC 4648 § 4) with padding, no line breaks, at most SHADER_BYTES_LIMIT bytes. */
export const ShaderBase64Schema = z
  .string()
  .max(BASE64_LIMIT, `The file is larger than ${SHADER_BYTES_LIMIT / (1024 * 1024)} MiB`)
  .refine((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'not padded standard base64');

export const ShaderInspectBytesRequestSchema = z
  .object({
    /** The file's name as the user chose it; shown, never opened. */
    name: z.string().min(1).max(1024),
    base64: ShaderBase64Schema,
  })
  .strict();

/**
 * Both texts spirv-dis can print for a module, so the panel switches between them without asking
 * main again, and the names that link each `%name` of the friendly text to its id.
 */
const DisassemblyTextsSchema = z.object({
  /** Plain `spirv-dis` text, with friendly names (Strata's best effort when the module has errors; empty without a header). */
  disassembly: z.string(),
  /** `spirv-dis --raw-id` text. */
  rawDisassembly: z.string(),
  /** [id, name] for every id whose friendly name is not its number (every other `%N` is id N). */
  idNames: z.array(z.tuple([z.number().int(), z.string()])),
});
export type DisassemblyTexts = z.infer<typeof DisassemblyTextsSchema>;

export const ShaderInspectBytesSchema = ShaderInspectionSchema.extend(DisassemblyTextsSchema.shape).extend({
  /** VBC only: each stage's texts, in the order of `stages` (the file's own texts are then empty). */
  stageDisassemblies: z.array(DisassemblyTextsSchema.extend({ stage: z.enum(VBC_STAGES) })).optional(),
});
export type ShaderInspectBytes = z.infer<typeof ShaderInspectBytesSchema>;
