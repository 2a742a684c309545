import { lazyBuiltin } from '../platform/lazy-builtin';
import type { SearchLocation } from '../../shared/loader/search-paths';
import { enabledManifestNames, parseRegQueryOutput, pnpManifestPaths, type RegistryValue } from '../../shared/discovery/registry-output';
import { machineFact } from '../../shared/app/machine-facts';

export type { RegistryValue } from '../../shared/discovery/registry-output';

/** reg.exe is started only on Windows: elsewhere node:child_process need not load with discovery. */
const childProcess = lazyBuiltin<typeof import('node:child_process')>('node:child_process');

/**
 * The Windows registry as discovery needs it, behind an interface so the scanner is tested on
 * Linux with a fake (tests/unit/windows-registry.test.ts) and runs `reg query` on Windows.
 */
export interface RegistryReader {
  /** The values of `key` (`HKLM\…` or `HKEY_LOCAL_MACHINE\…`) in registry order; [] when the key does not exist. */
  values(key: string): Promise<RegistryValue[]>;
  /** The names of `key`'s direct subkeys; [] when it has none or does not exist. */
  subkeys(key: string): Promise<string[]>;
}

/** `reg query <key>` through reg.exe; only on win32 (systemRegistryReader answers null elsewhere). */
export class RegQueryReader implements RegistryReader {
  private readonly cache = new Map<string, Promise<ReturnType<typeof parseRegQueryOutput>>>();

  private query(key: string) {
    let pending = this.cache.get(key);
    if (!pending) {
      pending = new Promise((resolve) => {
        // /reg:64: the 64-bit view even from a 32-bit Node, so WOW6432Node is only read when named.
        childProcess().execFile('reg', ['query', key, '/reg:64'], { windowsHide: true, timeout: 10_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => {
          // A missing key is exit 1 with "ERROR: …" on stderr: the parser reads that as an empty key.
          resolve(parseRegQueryOutput(error ? `${stdout}\n${stderr || 'ERROR: reg query failed'}` : stdout, key));
        });
      });
      this.cache.set(key, pending);
    }
    return pending;
  }

  async values(key: string): Promise<RegistryValue[]> {
    return (await this.query(key)).values;
  }

  async subkeys(key: string): Promise<string[]> {
    return (await this.query(key)).subkeys;
  }
}

type WindowsNative = typeof import('../../native-bridge/windows-native');

/**
 * native-bridge/windows-native.ts (koffi → advapi32), loaded on first use only: Linux never loads
 * koffi for discovery. Null when koffi's Windows binary is missing (then reg.exe answers).
 */
const nativeModule = machineFact(() =>
  import('../../native-bridge/windows-native').then(
    (m): WindowsNative | null => m,
    () => null,
  ),
);

export function windowsNative(): Promise<WindowsNative | null> {
  return nativeModule();
}

/** RegistryValue from RegEnumValueW's raw data (UTF-16LE strings), in reg.exe's shapes. */
function fromNative(v: { name: string; type: RegistryValue['type']; data: Buffer }): RegistryValue {
  const text = (b: Buffer) => b.toString('utf16le').replace(/\0+$/, '');
  switch (v.type) {
    case 'REG_DWORD':
      return { name: v.name, type: v.type, data: v.data.length >= 4 ? v.data.readUInt32LE(0) : 0 };
    case 'REG_QWORD':
      return { name: v.name, type: v.type, data: v.data.length >= 8 ? Number(v.data.readBigUInt64LE(0)) : 0 };
    case 'REG_MULTI_SZ':
      return {
        name: v.name,
        type: v.type,
        data: text(v.data)
          .split('\0')
          .filter((s) => s.length > 0),
      };
    case 'REG_SZ':
    case 'REG_EXPAND_SZ':
      return { name: v.name, type: v.type, data: text(v.data) };
    default:
      return { name: v.name, type: v.type, data: v.data.toString('hex').toUpperCase() };
  }
}

/**
 * The registry through RegEnumValueW (the loader's own kind of call), in the 64-bit view: exact
 * value names whatever their characters (reg.exe prints the console code page) and no process per key.
 */
export class NativeRegistryReader implements RegistryReader {
  constructor(private readonly native: WindowsNative) {}

  async values(key: string): Promise<RegistryValue[]> {
    return this.native.readRegistryKey(key).values.map(fromNative);
  }

  async subkeys(key: string): Promise<string[]> {
    return this.native.readRegistryKey(key).subkeys;
  }
}

/** Reads through koffi when its Windows binary loads, else through reg.exe. */
class SystemRegistryReader implements RegistryReader {
  private reader: Promise<RegistryReader> | null = null;

  private get(): Promise<RegistryReader> {
    this.reader ??= windowsNative().then((n) => (n ? new NativeRegistryReader(n) : new RegQueryReader()));
    return this.reader;
  }

  async values(key: string): Promise<RegistryValue[]> {
    return (await this.get()).values(key);
  }

  async subkeys(key: string): Promise<string[]> {
    return (await this.get()).subkeys(key);
  }
}

/** The registry of this machine, or null off Windows. */
export function systemRegistryReader(platform: NodeJS.Platform = process.platform): RegistryReader | null {
  return platform === 'win32' ? new SystemRegistryReader() : null;
}

const elevation = machineFact(() =>
  windowsNative().then((n) => {
    try {
      return n?.processIntegrity()?.elevated ?? null;
    } catch {
      return null;
    }
  }),
);

/**
 * Whether this Windows process is elevated as the loader decides it (is_high_integrity: the
 * token's integrity level is High or above); null off Windows or when it cannot be read. Under
 * Wine every process is: the loader then skips HKCU and ignores the VK_* path variables.
 */
export function windowsProcessElevated(platform: NodeJS.Platform = process.platform): Promise<boolean | null> {
  return platform === 'win32' ? elevation() : Promise.resolve(null);
}

/**
 * The device setup classes of the spec's "{Adapter GUID}" and "{Software Component GUID}": the
 * Display class and the SoftwareComponent class (both fixed by Windows).
 */
const CLASS_GUIDS: Record<string, string> = {
  '{Adapter GUID}': '{4d36e968-e325-11ce-bfc1-08002be10318}',
  '{Software Component GUID}': '{5c4c3332-344d-483c-8739-259e934c9cc8}',
};

const PNP_LOCATION = /^(HKLM\\System\\CurrentControlSet\\Control\\Class)\\(\{[^}]*\})\\000X\\(\w+)$/;

export interface RegistryManifests {
  /** True when the key had anything to say; null when it is missing or empty (reg.exe cannot tell those apart cheaply). */
  exists: boolean | null;
  /** Manifest paths, in the order the loader reads them. */
  paths: string[];
}

/**
 * The manifests one registry location of shared/loader/search-paths.ts names. Khronos keys
 * ("Windows Layer Discovery", "ICD discovery / Windows"): each value's name, when its DWORD data
 * is 0. Display adapter / software component keys: the data (REG_SZ or REG_MULTI_SZ) of the named
 * value in each numbered device key `000X`. The loader finds those keys through the PnP
 * Configuration Manager (present devices only); the registry also keeps keys of removed devices,
 * so Strata may list a manifest of an adapter that is no longer installed.
 */
export async function registryManifests(location: SearchLocation, reader: RegistryReader): Promise<RegistryManifests> {
  const pnp = PNP_LOCATION.exec(location.path);
  if (pnp) {
    const classKey = `${pnp[1]}\\${CLASS_GUIDS[pnp[2]!] ?? pnp[2]}`;
    const devices = (await reader.subkeys(classKey)).filter((k) => /^\d{4}$/.test(k));
    const perDevice = await Promise.all(devices.map(async (d) => pnpManifestPaths(await reader.values(`${classKey}\\${d}`), pnp[3]!)));
    const paths = perDevice.flat();
    return { exists: paths.length > 0 ? true : null, paths };
  }
  const values = await reader.values(location.path);
  return { exists: values.length > 0 ? true : null, paths: enabledManifestNames(values) };
}
