/**
 * Windows facts read with the same Win32 calls the Vulkan loader makes (koffi, in Strata's own
 * process: these calls cannot crash on a driver's behalf, unlike the probe's). Only ever imported
 * on win32, lazily (main/discovery/windows-registry.ts), so Linux never loads koffi for discovery.
 *
 * - Elevation: loader_environment.c is_high_integrity() (loader 1.3.239 … 1.4.359): the token's
 *   integrity level RID ≥ SECURITY_MANDATORY_HIGH_RID. An Administrator's elevated process, and
 *   every process under Wine, is high integrity: the loader then skips HKEY_CURRENT_USER and
 *   ignores the VK_* path variables.
 * - The registry: RegOpenKeyExW / RegEnumValueW / RegEnumKeyExW in the 64-bit view (what a 64-bit
 *   loader reads; WOW6432Node is only read when named), and the writes of the override registrar.
 *   reg.exe prints value names in the console code page, which loses any non-ASCII path; these
 *   calls do not.
 */
import { exceptionFilterPointer, NativeArena, openLibrary, type NativeFunction, type NativeLibrary } from './ffi';

const KEY_QUERY_VALUE = 0x1;
const KEY_SET_VALUE = 0x2;
const KEY_ENUMERATE_SUB_KEYS = 0x8;
const KEY_WOW64_64KEY = 0x100;
const ERROR_SUCCESS = 0;
const ERROR_FILE_NOT_FOUND = 2;
const ERROR_MORE_DATA = 234;
const ERROR_NO_MORE_ITEMS = 259;
const TOKEN_QUERY = 0x8;
const TOKEN_INTEGRITY_LEVEL = 25;
const SECURITY_MANDATORY_HIGH_RID = 0x3000;

/** Predefined keys as the 64-bit ABI passes them: (HKEY)(ULONG_PTR)(LONG)0x8000000X, sign-extended. */
const HIVES: Record<string, bigint> = {
  HKEY_CLASSES_ROOT: 0xffffffff80000000n,
  HKEY_CURRENT_USER: 0xffffffff80000001n,
  HKEY_LOCAL_MACHINE: 0xffffffff80000002n,
  HKEY_USERS: 0xffffffff80000003n,
  HKEY_CURRENT_CONFIG: 0xffffffff80000005n,
  HKCR: 0xffffffff80000000n,
  HKCU: 0xffffffff80000001n,
  HKLM: 0xffffffff80000002n,
  HKU: 0xffffffff80000003n,
  HKCC: 0xffffffff80000005n,
};

const TYPE_NAMES = [
  'REG_NONE',
  'REG_SZ',
  'REG_EXPAND_SZ',
  'REG_BINARY',
  'REG_DWORD',
  'REG_DWORD_BIG_ENDIAN',
  'REG_LINK',
  'REG_MULTI_SZ',
  'REG_RESOURCE_LIST',
  'REG_FULL_RESOURCE_DESCRIPTOR',
  'REG_RESOURCE_REQUIREMENTS_LIST',
  'REG_QWORD',
] as const;
export type NativeValueType = (typeof TYPE_NAMES)[number];

/** One value as RegEnumValueW returns it: the raw data bytes (UTF-16LE for the string types). */
export interface NativeRegistryValue {
  name: string;
  type: NativeValueType;
  data: Buffer;
}

export interface NativeRegistryKey {
  exists: boolean;
  values: NativeRegistryValue[];
  subkeys: string[];
}

interface Api {
  RegOpenKeyExW: NativeFunction<'i32'>;
  RegCreateKeyExW: NativeFunction<'i32'>;
  RegEnumValueW: NativeFunction<'i32'>;
  RegEnumKeyExW: NativeFunction<'i32'>;
  RegSetValueExW: NativeFunction<'i32'>;
  RegDeleteValueW: NativeFunction<'i32'>;
  RegCloseKey: NativeFunction<'i32'>;
  OpenProcessToken: NativeFunction<'i32'>;
  GetTokenInformation: NativeFunction<'i32'>;
  GetCurrentProcess: NativeFunction<'u64'>;
  CloseHandle: NativeFunction<'i32'>;
  GetModuleHandleW: NativeFunction<'u64'>;
  GetModuleFileNameW: NativeFunction<'i32'>;
}

let api: Api | null = null;

function need(lib: NativeLibrary, name: string, result: 'i32' | 'u64', args: readonly ('u32' | 'u64')[]) {
  const f = lib.func(name, result, args);
  if (!f) throw new Error(`${lib.name} does not export ${name}`);
  return f;
}

function load(): Api {
  if (api) return api;
  const advapi = openLibrary('advapi32.dll');
  const kernel = openLibrary('kernel32.dll');
  api = {
    RegOpenKeyExW: need(advapi, 'RegOpenKeyExW', 'i32', ['u64', 'u64', 'u32', 'u32', 'u64']),
    RegCreateKeyExW: need(advapi, 'RegCreateKeyExW', 'i32', ['u64', 'u64', 'u32', 'u64', 'u32', 'u32', 'u64', 'u64', 'u64']),
    RegEnumValueW: need(advapi, 'RegEnumValueW', 'i32', ['u64', 'u32', 'u64', 'u64', 'u64', 'u64', 'u64', 'u64']),
    RegEnumKeyExW: need(advapi, 'RegEnumKeyExW', 'i32', ['u64', 'u32', 'u64', 'u64', 'u64', 'u64', 'u64', 'u64']),
    RegSetValueExW: need(advapi, 'RegSetValueExW', 'i32', ['u64', 'u64', 'u32', 'u32', 'u64', 'u32']),
    RegDeleteValueW: need(advapi, 'RegDeleteValueW', 'i32', ['u64', 'u64']),
    RegCloseKey: need(advapi, 'RegCloseKey', 'i32', ['u64']),
    OpenProcessToken: need(advapi, 'OpenProcessToken', 'i32', ['u64', 'u32', 'u64']),
    GetTokenInformation: need(advapi, 'GetTokenInformation', 'i32', ['u64', 'u32', 'u64', 'u32', 'u64']),
    GetCurrentProcess: need(kernel, 'GetCurrentProcess', 'u64', []),
    CloseHandle: need(kernel, 'CloseHandle', 'i32', ['u64']),
    GetModuleHandleW: need(kernel, 'GetModuleHandleW', 'u64', ['u64']),
    GetModuleFileNameW: need(kernel, 'GetModuleFileNameW', 'i32', ['u64', 'u64', 'u32']),
  };
  return api;
}

function wide(arena: NativeArena, text: string) {
  const bytes = Buffer.from(`${text}\0`, 'utf16le');
  const block = arena.alloc(bytes.length);
  bytes.copy(block.bytes);
  return block;
}

/** `HKLM\SOFTWARE\…` → [hive handle, subkey]. */
function splitKey(key: string): [bigint, string] {
  const at = key.indexOf('\\');
  const root = (at < 0 ? key : key.slice(0, at)).toUpperCase();
  const hive = HIVES[root];
  if (hive === undefined) throw new Error(`not a registry key: ${key} (it must start with HKLM\\ or HKCU\\ …)`);
  return [hive, at < 0 ? '' : key.slice(at + 1)];
}

class RegistryError extends Error {
  constructor(
    readonly code: number,
    what: string,
  ) {
    super(`${what} failed with Win32 error ${code}`);
  }
}

function withKey<T>(key: string, access: number, create: boolean, fn: (handle: bigint, a: Api, arena: NativeArena) => T): T | null {
  const a = load();
  const arena = new NativeArena();
  try {
    const [hive, sub] = splitKey(key);
    const out = arena.alloc(8);
    const rc = create
      ? a.RegCreateKeyExW(hive, wide(arena, sub).address, 0, 0n, 0, access | KEY_WOW64_64KEY, 0n, out.address, 0n)
      : a.RegOpenKeyExW(hive, wide(arena, sub).address, 0, access | KEY_WOW64_64KEY, out.address);
    if (rc === ERROR_FILE_NOT_FOUND && !create) return null;
    if (rc !== ERROR_SUCCESS) throw new RegistryError(rc, `${create ? 'RegCreateKeyExW' : 'RegOpenKeyExW'}(${key})`);
    const handle = out.bytes.readBigUInt64LE(0);
    try {
      return fn(handle, a, arena);
    } finally {
      a.RegCloseKey(handle);
    }
  } finally {
    arena.free();
  }
}

/** A key's values (registry order, raw data) and subkey names; `exists: false` when it is missing. */
export function readRegistryKey(key: string): NativeRegistryKey {
  const result = withKey(key, KEY_QUERY_VALUE | KEY_ENUMERATE_SUB_KEYS, false, (handle, a, arena) => {
    const values: NativeRegistryValue[] = [];
    // Names are at most 16383 UTF-16 units; data grows on ERROR_MORE_DATA.
    const name = arena.alloc(2 * 16384);
    const nameLen = arena.alloc(4);
    const type = arena.alloc(4);
    const dataLen = arena.alloc(4);
    let data = arena.alloc(4096);
    for (let index = 0; ;) {
      nameLen.bytes.writeUInt32LE(16384, 0);
      dataLen.bytes.writeUInt32LE(data.bytes.length, 0);
      const rc = a.RegEnumValueW(handle, index, name.address, nameLen.address, 0n, type.address, data.address, dataLen.address);
      if (rc === ERROR_NO_MORE_ITEMS) break;
      if (rc === ERROR_MORE_DATA) {
        data = arena.alloc(Math.max(dataLen.bytes.readUInt32LE(0), 2 * data.bytes.length));
        continue;
      }
      if (rc !== ERROR_SUCCESS) throw new RegistryError(rc, `RegEnumValueW(${key}, ${index})`);
      const t = TYPE_NAMES[type.bytes.readUInt32LE(0)] ?? 'REG_NONE';
      values.push({
        name: name.bytes.toString('utf16le', 0, 2 * nameLen.bytes.readUInt32LE(0)),
        type: t,
        data: Buffer.from(data.bytes.subarray(0, dataLen.bytes.readUInt32LE(0))),
      });
      index++;
    }
    const subkeys: string[] = [];
    for (let index = 0; ; index++) {
      nameLen.bytes.writeUInt32LE(256, 0);
      const rc = a.RegEnumKeyExW(handle, index, name.address, nameLen.address, 0n, 0n, 0n, 0n);
      if (rc === ERROR_NO_MORE_ITEMS) break;
      if (rc !== ERROR_SUCCESS) throw new RegistryError(rc, `RegEnumKeyExW(${key}, ${index})`);
      subkeys.push(name.bytes.toString('utf16le', 0, 2 * nameLen.bytes.readUInt32LE(0)));
    }
    return { exists: true, values, subkeys };
  });
  return result ?? { exists: false, values: [], subkeys: [] };
}

/** Sets `name` = DWORD `data` in `key`, creating the key (RegCreateKeyExW) when missing. */
export function setRegistryDword(key: string, name: string, data: number): void {
  withKey(key, KEY_SET_VALUE, true, (handle, a, arena) => {
    const value = arena.alloc(4);
    value.bytes.writeUInt32LE(data >>> 0, 0);
    const rc = a.RegSetValueExW(handle, wide(arena, name).address, 0, 4 /* REG_DWORD */, value.address, 4);
    if (rc !== ERROR_SUCCESS) throw new RegistryError(rc, `RegSetValueExW(${key}, ${name})`);
  });
}

/** Deletes value `name` of `key`; false when it (or the key) was not there. */
export function deleteRegistryValue(key: string, name: string): boolean {
  const done = withKey(key, KEY_SET_VALUE, false, (handle, a, arena) => {
    const rc = a.RegDeleteValueW(handle, wide(arena, name).address);
    if (rc === ERROR_FILE_NOT_FOUND) return false;
    if (rc !== ERROR_SUCCESS) throw new RegistryError(rc, `RegDeleteValueW(${key}, ${name})`);
    return true;
  });
  return done ?? false;
}

/**
 * The file a module loaded in this process came from (GetModuleHandleW + GetModuleFileNameW), or null
 * when no module of that name is loaded: which vulkan-1.dll answered — under Wine, the real loader
 * or Wine's own (C:\windows\system32\vulkan-1.dll either way, so its version tells them apart).
 */
export function loadedModulePath(name: string): string | null {
  const a = load();
  const arena = new NativeArena();
  try {
    const handle = a.GetModuleHandleW(wide(arena, name).address);
    if (handle === 0n) return null;
    const chars = 32768;
    const buffer = arena.alloc(2 * chars);
    const n = a.GetModuleFileNameW(handle, buffer.address, chars);
    return n > 0 && n < chars ? buffer.bytes.toString('utf16le', 0, 2 * n) : null;
  } finally {
    arena.free();
  }
}

/**
 * This process's integrity level RID (0x2000 medium, 0x3000 high, 0x4000 system) and whether the
 * loader counts it as elevated, read as is_high_integrity() reads it.
 */
export function processIntegrity(): { rid: number; elevated: boolean } | null {
  const a = load();
  const arena = new NativeArena();
  try {
    const token = arena.alloc(8);
    if (!a.OpenProcessToken(a.GetCurrentProcess(), TOKEN_QUERY, token.address)) return null;
    const handle = token.bytes.readBigUInt64LE(0);
    try {
      // TOKEN_MANDATORY_LABEL: { PSID Sid; DWORD Attributes } followed by the SID itself.
      const buffer = arena.alloc(256);
      const size = arena.alloc(4);
      if (!a.GetTokenInformation(handle, TOKEN_INTEGRITY_LEVEL, buffer.address, 256, size.address)) return null;
      const sidAt = Number(buffer.bytes.readBigUInt64LE(0) - buffer.address);
      if (sidAt < 0 || sidAt + 8 > buffer.bytes.length) return null;
      const count = buffer.bytes.readUInt8(sidAt + 1);
      const ridAt = sidAt + 8 + 4 * (count - 1);
      if (count < 1 || ridAt + 4 > buffer.bytes.length) return null;
      const rid = buffer.bytes.readUInt32LE(ridAt);
      return { rid, elevated: rid >= SECURITY_MANDATORY_HIGH_RID };
    } finally {
      a.CloseHandle(handle);
    }
  } finally {
    arena.free();
  }
}

/**
 * Makes an exception that nothing handles end this process at once, with the exception's code as
 * its exit code (0xC0000005 for an access violation), as a crashing driver or layer DLL ends an
 * application. Installed by the probe on Windows (native-bridge/probe.ts), so that main reports the
 * library as crashed (main/bridge/bridge-client.ts names the code) instead of waiting out its
 * time limit: Windows Node's libuv sets SEM_NOGPFAULTERRORBOX, but a debugger registered under
 * AeDebug, or Wine (whose UnhandledExceptionFilter ignores the error mode and starts winedbg, and
 * then, after a fault on koffi's call stack, faulted in a loop instead of ending), would keep a
 * crashed probe alive. Exceptions a library handles itself never reach this filter.
 */
export function exitOnUnhandledException(): void {
  const kernel = openLibrary('kernel32.dll');
  const setFilter = need(kernel, 'SetUnhandledExceptionFilter', 'u64', ['u64']);
  const terminate = need(kernel, 'TerminateProcess', 'i32', ['u64', 'u32']);
  const current = need(kernel, 'GetCurrentProcess', 'u64', []);
  setFilter(
    exceptionFilterPointer((code) => {
      terminate(current(), code >>> 0);
      return 0; // EXCEPTION_CONTINUE_SEARCH, should TerminateProcess ever return
    }),
  );
}
