/**
 * The text `reg query <key>` prints (Windows' reg.exe), parsed into values and subkeys. Pure, so it
 * is tested on Linux from the documented layout; main/discovery/windows-registry.ts runs reg.exe.
 *
 * The layout, one key per query:
 *
 *   (blank line)
 *   HKEY_LOCAL_MACHINE\SOFTWARE\Khronos\Vulkan\ImplicitLayers
 *       C:\Program Files\Tool\tool.json    REG_DWORD    0x0
 *       (Default)    REG_SZ    text
 *   (blank line)
 *   HKEY_LOCAL_MACHINE\SOFTWARE\Khronos\Vulkan\ImplicitLayers\Sub
 *
 * Values are indented four spaces, with four spaces around the type; subkeys follow as full key
 * names. A missing key prints "ERROR: The system was unable to find the specified registry key or
 * value." (on stderr, exit 1), which reads as an empty key.
 */

export type RegistryValue =
  | { name: string; type: 'REG_DWORD' | 'REG_QWORD'; data: number }
  | { name: string; type: 'REG_MULTI_SZ'; data: string[] }
  | {
      name: string;
      type:
        | 'REG_SZ'
        | 'REG_EXPAND_SZ'
        | 'REG_BINARY'
        | 'REG_NONE'
        | 'REG_DWORD_BIG_ENDIAN'
        | 'REG_LINK'
        | 'REG_RESOURCE_LIST'
        | 'REG_FULL_RESOURCE_DESCRIPTOR'
        | 'REG_RESOURCE_REQUIREMENTS_LIST';
      data: string;
    };

export interface RegistryKeyListing {
  /** False when reg.exe says the key does not exist. */
  exists: boolean;
  values: RegistryValue[];
  /** Names (last component only) of the direct subkeys, in reg.exe's order. */
  subkeys: string[];
}

const TYPES = [
  'REG_SZ',
  'REG_EXPAND_SZ',
  'REG_MULTI_SZ',
  'REG_DWORD_BIG_ENDIAN',
  'REG_DWORD',
  'REG_QWORD',
  'REG_BINARY',
  'REG_NONE',
  'REG_LINK',
  'REG_RESOURCE_LIST',
  'REG_FULL_RESOURCE_DESCRIPTOR',
  'REG_RESOURCE_REQUIREMENTS_LIST',
] as const;

// The name is the shortest text before "    REG_<type>": a value's *data* may hold anything, a
// manifest path (the name, for the Khronos keys) holds no run of four spaces before "REG_".
const VALUE_LINE = new RegExp(`^ {4}(.*?) {4}(${TYPES.join('|')})(?: {4}(.*))?$`);
const KEY_LINE = /^HKEY_[A-Z_]+(\\.*)?$/;

const ROOT_NAMES: Record<string, string> = {
  HKLM: 'HKEY_LOCAL_MACHINE',
  HKCU: 'HKEY_CURRENT_USER',
  HKCR: 'HKEY_CLASSES_ROOT',
  HKU: 'HKEY_USERS',
  HKCC: 'HKEY_CURRENT_CONFIG',
};

/** `HKLM\SOFTWARE\…` → `HKEY_LOCAL_MACHINE\SOFTWARE\…`, the spelling reg.exe prints. */
export function longKeyName(key: string): string {
  const at = key.indexOf('\\');
  const root = at < 0 ? key : key.slice(0, at);
  const long = ROOT_NAMES[root.toUpperCase()] ?? root.toUpperCase();
  return at < 0 ? long : long + key.slice(at);
}

function valueOf(name: string, type: (typeof TYPES)[number], raw: string): RegistryValue {
  switch (type) {
    case 'REG_DWORD':
    case 'REG_QWORD':
      // reg.exe prints both as hexadecimal ("0x0", "0x1f").
      return { name, type, data: Number.parseInt(raw.replace(/^0x/i, ''), 16) };
    case 'REG_MULTI_SZ':
      // The strings are joined with a literal "\0" (backslash, zero); an empty list prints nothing.
      return { name, type, data: raw === '' ? [] : raw.split('\\0').filter((s) => s.length > 0) };
    default:
      return { name, type, data: raw };
  }
}

/**
 * `key` is the key that was queried (either spelling, `HKLM\…` or `HKEY_LOCAL_MACHINE\…`). A key
 * without values prints no line of its own, only its subkeys, so the header is recognised by name.
 */
export function parseRegQueryOutput(text: string, key: string): RegistryKeyListing {
  const self = longKeyName(key).replace(/\\+$/, '').toUpperCase();
  const listing: RegistryKeyListing = { exists: true, values: [], subkeys: [] };
  let inKey = false;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    if (line.startsWith('ERROR:')) return { exists: false, values: [], subkeys: [] };
    if (KEY_LINE.test(line)) {
      const upper = line.toUpperCase();
      inKey = upper === self;
      if (upper.startsWith(`${self}\\`)) listing.subkeys.push(line.slice(self.length + 1));
      continue;
    }
    // Values belong to the key line before them; "End of search" and blank lines fall through.
    const m = inKey ? VALUE_LINE.exec(line) : null;
    if (m) listing.values.push(valueOf(m[1]!, m[2] as (typeof TYPES)[number], m[3] ?? ''));
  }
  return listing;
}

/**
 * The size of a value's data as RegEnumValueA reports it, which is the call the loader makes
 * (loader_windows.c windows_get_registry_files, a `char name[2048]` and a DWORD buffer): string
 * types in the ANSI code page with their terminating NUL (one byte per character for the paths
 * this concerns), a REG_MULTI_SZ with its final extra NUL, binary types as stored.
 */
export function ansiDataSize(v: RegistryValue): number {
  switch (v.type) {
    case 'REG_DWORD':
      return 4;
    case 'REG_QWORD':
      return 8;
    case 'REG_SZ':
    case 'REG_EXPAND_SZ':
      return v.data.length + 1;
    case 'REG_MULTI_SZ':
      return v.data.reduce((n, s) => n + s.length + 1, 0) + 1;
    default:
      // reg.exe prints binary data (and the rarer types) as hexadecimal digits, two per byte.
      return Math.floor(v.data.replace(/[^0-9a-f]/gi, '').length / 2);
  }
}

const isZero = (v: RegistryValue) =>
  typeof v.data === 'number' ? v.data === 0 : typeof v.data === 'string' ? /^(00)+$/.test(v.data.replace(/[^0-9a-f]/gi, '')) : false;

/**
 * The manifests a Khronos key names ("Windows Layer Discovery", "ICD discovery / Windows"): each
 * value's *name* is a manifest path (or a folder, or several joined with ";" — see
 * main/discovery/manifest-scanner.ts), used when its data is the DWORD 0.
 *
 * Exactly as loader 1.3.239 … 1.4.359 reads a key (windows_get_registry_files): it enumerates with
 * RegEnumValueA into a 2048-byte name and a 4-byte data buffer and stops at the first value that
 * does not fit (ERROR_MORE_DATA: a REG_SZ path as data, a REG_QWORD, a name of 2048 bytes or more),
 * so every value after that one is ignored. A value counts when its data is 4 bytes that are all
 * zero, whatever its type (a REG_BINARY 00 00 00 00 counts as much as the DWORD 0).
 */
export function enabledManifestNames(values: readonly RegistryValue[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const size = ansiDataSize(v);
    if (size > 4 || v.name.length + 1 > 2048) break;
    if (size === 4 && isZero(v)) out.push(v.name);
  }
  return out;
}

/**
 * The manifests a display adapter's or software component's key names: the *data* of one value
 * (VulkanDriverName, VulkanImplicitLayers …), REG_SZ for one path, REG_MULTI_SZ for several.
 */
export function pnpManifestPaths(values: readonly RegistryValue[], valueName: string): string[] {
  const v = values.find((x) => x.name.toLowerCase() === valueName.toLowerCase());
  if (!v) return [];
  if (v.type === 'REG_MULTI_SZ') return v.data;
  if (v.type === 'REG_SZ' || v.type === 'REG_EXPAND_SZ') return v.data === '' ? [] : [v.data];
  return [];
}
