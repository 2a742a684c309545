/**
 * How deep JSON may nest before Strata refuses to read it further.
 *
 * The loader parses manifests with cJSON. The cJSON in loader 1.4.309 and later stops at
 * CJSON_NESTING_LIMIT = 1000 (loader/cJSON.h; parse_array/parse_object fail once 1000 containers are
 * open), so such a file is refused there and the loader goes on with the other manifests. The older
 * cJSON of loaders 1.3.239 and 1.3.275 has no limit (it recurses until the stack runs out). Strata
 * matches the newer loaders: deeper than 1000 is a diagnostic for that one file, never a stack
 * overflow that takes all of discovery with it. No real manifest nests deeper than about 6.
 */
export const JSON_NESTING_LIMIT = 1000;

/**
 * The offset of the first `[` or `{` that opens container number `limit + 1` on the current path,
 * or null when the text never nests that deep. One linear pass, no recursion, strings skipped
 * (escapes included), so it is safe on any input; malformed JSON is left to the parser.
 */
export function excessiveNesting(text: string, limit: number = JSON_NESTING_LIMIT): number | null {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: up to the next unescaped quote (or the end, for a truncated file).
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    }
  }
  return null;
}

/** The message for a file that nests too deep, naming where. */
export function nestingMessage(what: string, offset: number, limit: number = JSON_NESTING_LIMIT): string {
  return `${what} nests JSON arrays/objects deeper than ${limit} levels (at offset ${offset}); the Vulkan loader's cJSON (1.4.309 and later) refuses such a file, and Strata does not read it further`;
}
