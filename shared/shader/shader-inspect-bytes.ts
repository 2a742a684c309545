import { z } from 'zod';
import { ShaderInspectionSchema } from './shader-inspection';

/**
 * `shader.inspectBytes`: the module travels in the request, for hosts where the renderer cannot name
 * a file main can read (the browser host: a dropped or picked file has no path). Same answer as
 * `shader.inspect`, plus the disassembly, so one call fills the Shaders panel.
 */
export const SHADER_BYTES_LIMIT = 16 * 1024 * 1024;
/** Base64 of SHADER_BYTES_LIMIT bytes, padded. */
const BASE64_LIMIT = Math.ceil(SHADER_BYTES_LIMIT / 3) * 4;

export const ShaderInspectBytesRequestSchema = z
  .object({
    /** The file's name as the user chose it; shown, never opened. */
    name: z.string().min(1).max(1024),
    /** The file's bytes, standard base64 (RFC 4648 § 4) with padding, no line breaks. */
    base64: z
      .string()
      .max(BASE64_LIMIT, `The file is larger than ${SHADER_BYTES_LIMIT / (1024 * 1024)} MiB`)
      .refine((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'not padded standard base64'),
  })
  .strict();

export const ShaderInspectBytesSchema = ShaderInspectionSchema.extend({
  /** spirv-dis --raw-id text (Strata's best effort when `ok` is false; empty when there is no header). */
  disassembly: z.string(),
});
export type ShaderInspectBytes = z.infer<typeof ShaderInspectBytesSchema>;
