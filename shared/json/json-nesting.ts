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

/** Characters that neither open, close nor quote; a string's rest after its opening quote, escapes included (to its end when unterminated). */
const PLAIN = /[^"[\]{}]*/y;
const STRING_REST = /(?:[^"\\]|\\[\s\S])*"?/y;

/**
 * The offset of the first `[` or `{` that opens container number `limit + 1` on the current path,
 * or null when the text never nests that deep. One linear pass, no recursion, strings skipped
 * (escapes included), so it is safe on any input; malformed JSON is left to the parser. The runs
 * between brackets and the strings are skipped by the regular-expression engine, compiled on first
 * use: a one-shot command checks each manifest once, with its code still uncompiled (issue #19).
 */
export function excessiveNesting(text: string, limit: number = JSON_NESTING_LIMIT): number | null {
  let depth = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Both expressions match (at worst empty) wherever they start, up to the end: never a failed
    // match, which would rewind a sticky expression to 0.
    PLAIN.lastIndex = i;
    PLAIN.test(text);
    i = PLAIN.lastIndex;
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === 34) {
      STRING_REST.lastIndex = i + 1;
      STRING_REST.test(text);
      i = STRING_REST.lastIndex;
      continue;
    }
    if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (depth > 0) depth--;
    i++;
  }
  return null;
}

/** The message for a file that nests too deep, naming where. */
export function nestingMessage(what: string, offset: number, limit: number = JSON_NESTING_LIMIT): string {
  return `${what} nests JSON arrays/objects deeper than ${limit} levels (at offset ${offset}); the Vulkan loader's cJSON (1.4.309 and later) refuses such a file, and Strata does not read it further`;
}
