/**
 * The largest module Strata inspects (`shader.inspectBytes` carries its base64 in the request). Apart
 * from the schemas in shader-inspect-bytes.ts, so that main/shaders/shader-service.ts checks it
 * without building them: `strata shader dis` loads only the schemas it answers with (issue #19).
 */
export const SHADER_BYTES_LIMIT = 16 * 1024 * 1024;
