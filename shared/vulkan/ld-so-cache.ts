import type { LdCacheEntry } from './library-search';

/**
 * /etc/ld.so.cache read directly, as the dynamic linker reads it (glibc elf/dl-cache.c), instead of
 * starting `ldconfig -p` to print it: the process cost ~5–15 ms of every command that resolves a
 * bare library name, `strata explain` included (issue #19). The entries are the same, in the same
 * order, with `flags` in ldconfig's words for the library type and the architecture it requires
 * ("libc6,x86-64"), which is what library-search.ts's ldCacheEntryFits reads; what ldconfig prints
 * after those (hwcap, OS ABI) is left out. tests/unit/ld-so-cache.test.ts compares the two on this
 * machine's cache.
 *
 * Layout (glibc's "new" format, the only one glibc ≥ 2.32 writes: every distribution Strata's loader
 * matrix names; an older glibc's compatibility format, the old entries first, is left to ldconfig):
 * a 48-byte header, "glibc-ld.so.cache" "1.1", the
 * entry count (u32), the string table's length (u32), an endianness byte (2 little, 3 big, 0 the
 * writer's own), then 24-byte entries {i32 flags, u32 key, u32 value, u32 osversion, u64 hwcap},
 * key and value being offsets of NUL-terminated strings from the header's start.
 */

const NEW_MAGIC = 'glibc-ld.so.cache1.1';
const HEADER_BYTES = 48;
const ENTRY_BYTES = 24;

/** ldconfig's names for the library type (flags & 0xff) and the required architecture (flags & 0xff00), from its print_entry. */
const TYPE: Record<number, string> = { 0: 'libc4', 1: 'ELF', 2: 'libc5', 3: 'libc6' };
const REQUIRED: Record<number, string> = {
  0x0100: '64bit',
  0x0200: 'IA-64',
  0x0300: 'x86-64',
  0x0400: '64bit',
  0x0500: '64bit',
  0x0600: 'N32',
  0x0700: '64bit',
  0x0800: 'x32',
  0x0900: 'hard-float',
  0x0a00: 'AArch64',
  0x0b00: 'soft-float',
  0x0c00: 'nan2008',
  0x0d00: 'N32,nan2008',
  0x0e00: '64bit,nan2008',
  0x0f00: 'soft-float',
  0x1000: 'double-float',
  0x1100: 'soft-float',
  0x1200: 'double-float',
};

function flagsText(flags: number): string {
  const type = TYPE[flags & 0xff] ?? 'unknown';
  const required = flags & 0xff00;
  return required === 0 ? type : `${type},${REQUIRED[required] ?? String(required)}`;
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** Bytes `start` to `end`, a character each, without a host's help: a chunk at a time (apply's arguments are bounded). */
function latin1Of(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let at = start; at < end; at += 8192) text += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(at + 8192, end)) as unknown as number[]);
  return text;
}

/**
 * An ld.so.cache file read for lookups by name: the header checked and the string table decoded once,
 * each entry's name compared where it lies, and an entry made only for the names asked for. A command
 * asks for one or two names (libvulkan.so.1, a layer's bare library name), and building all of a
 * cache's ~1,000 entries, run cold, was ~2 ms of `strata explain` (issue #19).
 */
export interface LdSoCache {
  /** The entries named `name`, in the file's order (the linker takes the first that fits). */
  entriesNamed(name: string): LdCacheEntry[];
  /** Every entry, in the file's order (what `ldconfig -p` prints); null when one names a string outside the table. */
  all(): LdCacheEntry[] | null;
}

/**
 * The cache in an ld.so.cache file's bytes; null when they are not a cache in that format or hold a
 * name that is not ASCII (the caller asks ldconfig then). `latin1`, where the host has one, makes a
 * character of each byte of `bytes` from `start` to `end` natively (Node's Buffer: ~0.02 ms for the
 * ~45 KB of a distribution's cache, where String.fromCharCode over its bytes took ~0.8 ms, run cold;
 * issue #19).
 */
export function readLdSoCache(
  bytes: Uint8Array,
  latin1: (start: number, end: number) => string = (start, end) => latin1Of(bytes, start, end),
): LdSoCache | null {
  if (bytes.length < HEADER_BYTES || ascii(bytes, 0, NEW_MAGIC.length) !== NEW_MAGIC) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = bytes[28];
  // 0: the writer's own order, which is this machine's; 3: big-endian.
  const little = order === 3 ? false : order === 2 ? true : new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const count = view.getUint32(20, little);
  const strings = HEADER_BYTES + count * ENTRY_BYTES;
  // The string table; what follows it (glibc 2.33's extensions) is binary.
  const stringsEnd = strings + view.getUint32(24, little);
  if (stringsEnd > bytes.length) return null;
  // The whole file as one string, a character per byte, and then each name is a slice of it: a few
  // native calls instead of a loop over ~30,000 bytes that a one-shot command runs uncompiled.
  // ASCII, as every library name and path in a distribution's cache is: another byte makes this
  // reader give up (null), and ldconfig prints the cache instead.
  const text = latin1(0, stringsEnd);
  if (/[^\x00-\x7f]/.test(text.slice(strings))) return null;
  /** The NUL-terminated string at `at`, or null where no string of the table starts there. */
  const string = (at: number): string | null => {
    const end = at < strings ? -1 : text.indexOf('\0', at);
    return end < 0 ? null : text.slice(at, end);
  };
  /** Entry `i`; null when it names a string outside the table (a damaged file). */
  const entry = (i: number): LdCacheEntry | null => {
    const e = HEADER_BYTES + i * ENTRY_BYTES;
    const name = string(view.getUint32(e + 4, little));
    const path = string(view.getUint32(e + 8, little));
    return name === null || path === null ? null : { name, flags: flagsText(view.getInt32(e, little)), path };
  };
  return {
    entriesNamed(name) {
      const found: LdCacheEntry[] = [];
      for (let i = 0; i < count; i++) {
        const key = view.getUint32(HEADER_BYTES + i * ENTRY_BYTES + 4, little);
        if (key < strings || !text.startsWith(name, key) || text.charCodeAt(key + name.length) !== 0) continue;
        // As the linker, which takes an entry it can read and goes on past one it cannot.
        const e = entry(i);
        if (e) found.push(e);
      }
      return found;
    },
    all() {
      const found: LdCacheEntry[] = [];
      for (let i = 0; i < count; i++) {
        const e = entry(i);
        if (!e) return null;
        found.push(e);
      }
      return found;
    },
  };
}
