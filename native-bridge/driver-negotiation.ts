/**
 * The probe's side of drivers.negotiate: for each driver manifest, read it, check the library's ELF
 * header against this process, dlopen the library, look up the loader–driver entry points and
 * negotiate the interface version the way the real loader does (LoaderDriverInterface.md, "Loader
 * and Driver Interface Negotiation"; vk_icd.h). Runs only inside a probe process: main starts one
 * probe per driver, so a driver that crashes or hangs here takes only that probe down.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { callPointer, NativeArena, openLibrary, type NativeLibrary } from './ffi';
import { mappedPath } from './loader-library';
import { resolveManifestLibrary } from './library-resolver';
import { announce } from './probe-stage';
import { strataError, type StrataError } from '../shared/errors/strata-error';
import { describeElf, expectedElf, parseElfIdentity } from '../shared/vulkan/elf-header';
import {
  emptyNegotiation,
  DRIVER_ENTRY_POINTS,
  driverLabel,
  LOADER_ICD_INTERFACE_VERSION,
  type DriverEntryPoint,
  type DriverNegotiation,
} from '../shared/vulkan/driver-negotiation';

import { VK_ERROR_INCOMPATIBLE_DRIVER, VK_SUCCESS, vkResultName as resultName } from '../shared/vulkan/vk-result';

interface Manifest {
  libraryPath: string;
  apiVersion: string | null;
}

function readManifest(path: string): Manifest | StrataError {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return strataError('driver/manifest-unreadable', `Driver manifest ${path} cannot be read (${code ?? String(e)})`, {
      where: path,
      fix: code === 'ENOENT' ? 'check the path; list installed drivers with `strata driver negotiate`' : 'check the file permissions',
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return strataError('driver/manifest-invalid', `Driver manifest ${path} is not valid JSON: ${(e as Error).message}`, {
      where: path,
      fix: 'fix the JSON; `strata lint` shows where',
    });
  }
  const icd = (json as { ICD?: { library_path?: unknown; api_version?: unknown } } | null)?.ICD;
  if (typeof icd?.library_path !== 'string' || icd.library_path === '') {
    return strataError('driver/manifest-invalid', `Driver manifest ${path} has no "ICD.library_path" string`, {
      where: path,
      fix: 'a driver manifest needs {"file_format_version": "1.0.0", "ICD": {"library_path": …, "api_version": …}}',
    });
  }
  return { libraryPath: icd.library_path, apiVersion: typeof icd.api_version === 'string' ? icd.api_version : null };
}

/**
 * Where library_path points (LoaderDriverInterface.md, "Driver Manifest File Format"): a path with a
 * directory separator is absolute or relative to the manifest's folder; a bare file name is left to
 * the dynamic linker's search (null here).
 */
export function resolveLibraryPath(manifestPath: string, libraryPath: string): string | null {
  if (!libraryPath.includes('/')) return null;
  return isAbsolute(libraryPath) ? libraryPath : resolve(dirname(manifestPath), libraryPath);
}

/** The ELF check: null when the library can load into this process (or the platform does not use ELF). */
function checkElf(manifest: string, file: string): StrataError | null {
  if (process.platform !== 'linux' && process.platform !== 'freebsd') return null;
  const head = Buffer.alloc(20);
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    readSync(fd, head, 0, 20, 0);
  } catch (e) {
    return strataError(
      'driver/library-unreadable',
      `Driver ${driverLabel(manifest, file)}: the library cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      {
        where: file,
        fix: 'check the file permissions',
      },
    );
  } finally {
    if (fd !== null) closeSync(fd);
  }
  const id = parseElfIdentity(head);
  if (!id) {
    return strataError('driver/not-elf', `Driver ${driverLabel(manifest, file)}: the library is not an ELF shared object`, {
      where: file,
      fix: "the manifest's library_path points at something that is not a driver library (a text file, a linker script, a truncated download); reinstall the driver",
    });
  }
  const want = expectedElf(process.arch);
  if (want && (id.bits !== want.bits || id.machine !== want.machine)) {
    return strataError(
      'driver/wrong-architecture',
      `Driver ${driverLabel(manifest, file)} is built for ${describeElf(id)}, but this process is ${describeElf(want)}`,
      {
        where: file,
        fix: `install the ${describeElf(want)} build of the driver; a manifest for another architecture belongs in a manifest named for it (the loader skips it too)`,
      },
    );
  }
  return null;
}

function symbolExported(lib: NativeLibrary, symbol: DriverEntryPoint): boolean {
  return lib.func(symbol, 'void', []) !== null;
}

/** One driver, start to end; never throws (every failure is this driver's error value). */
export function negotiateDriver(manifest: string, requestedVersion = LOADER_ICD_INTERFACE_VERSION): DriverNegotiation {
  const started = performance.now();
  const partial = emptyNegotiation(manifest, requestedVersion);
  const done = (error: StrataError | null): DriverNegotiation => ({ ...partial, ok: error === null, error, elapsedMs: performance.now() - started });

  const m = readManifest(manifest);
  if ('code' in m) return done(m);
  partial.libraryPath = m.libraryPath;
  partial.apiVersion = m.apiVersion;
  // Where the dynamic linker will find it: $LIB expanded, a bare name searched (LD_LIBRARY_PATH, ld.so.cache, default folders).
  partial.resolution = resolveManifestLibrary(manifest, m.libraryPath);
  // Windows: the resolver answers for exactly the paths the loader joins to the manifest's folder
  // (".\x.dll", "x\y.dll") or takes as they are (absolute), and null for a bare name, which goes to
  // LoadLibrary as is (windows-library-path.ts; layer inspection opens layer DLLs the same way).
  const file =
    process.platform === 'win32'
      ? (partial.resolution?.path ?? null)
      : m.libraryPath.includes('/')
        ? (partial.resolution?.path ?? resolveLibraryPath(manifest, m.libraryPath))
        : null;
  partial.library = file ?? m.libraryPath;

  if (file) {
    if (!existsSync(file)) {
      return done(
        strataError('driver/library-not-found', `Driver ${driverLabel(manifest, file)}: the library does not exist`, {
          where: manifest,
          fix: `reinstall the driver, or correct "library_path" in ${manifest}${isAbsolute(m.libraryPath) ? '' : " (a relative path is relative to the manifest's folder)"}`,
        }),
      );
    }
    const elf = checkElf(manifest, file);
    if (elf) return done(elf);
  }

  let lib: NativeLibrary;
  announce(`dlopen of ${partial.library}`);
  try {
    lib = openLibrary(file ?? m.libraryPath);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const missing = /No such file|cannot open shared object/i.test(message);
    return done(
      strataError(
        missing ? 'driver/library-not-found' : 'driver/load-failed',
        `Driver ${driverLabel(manifest, partial.library)} cannot be loaded: ${message}`,
        {
          where: manifest,
          fix: missing
            ? file
              ? 'install the libraries the driver depends on (see `ldd` on the library)'
              : `the bare library name is searched by the dynamic linker (LD_LIBRARY_PATH, ld.so.cache, default folders${partial.resolution?.tried.length ? `; looked at ${partial.resolution.tried.map((t) => t.path).join(', ')}` : ''}); install the driver, run ldconfig, or give a full path in "library_path"`
            : 'install the libraries the driver depends on (see `ldd` on the library), or reinstall the driver',
        },
      ),
    );
  }
  if (!file) partial.library = mappedPath(m.libraryPath) ?? m.libraryPath;

  const exported = DRIVER_ENTRY_POINTS.filter((s) => symbolExported(lib, s));
  partial.exports = exported;
  const label = driverLabel(manifest, partial.library);

  const arena = new NativeArena();
  try {
    const name = (s: string) => arena.cString(s).address;
    const gipa = lib.func('vk_icdGetInstanceProcAddr', 'u64', ['u64', 'u64']);
    const legacyGipa = lib.func('vkGetInstanceProcAddr', 'u64', ['u64', 'u64']);
    if (!gipa && !legacyGipa) {
      return done(
        strataError('driver/missing-symbol', `Driver ${label} exports neither vk_icdGetInstanceProcAddr nor vkGetInstanceProcAddr`, {
          where: partial.library ?? manifest,
          fix: 'this library is not a Vulkan driver, or it was built without its Vulkan entry points (on Linux they need default visibility); reinstall the driver',
        }),
      );
    }

    if (gipa) {
      // Interface 2+: negotiate first, before any other call (vk_icd.h); since 7 it may only be reachable through vk_icdGetInstanceProcAddr.
      const negotiateExport = lib.func('vk_icdNegotiateLoaderICDInterfaceVersion', 'i32', ['u64']);
      let negotiate: ((p: bigint) => number) | null = negotiateExport ? (p) => negotiateExport(p) as number : null;
      if (negotiate) partial.negotiateFrom = 'export';
      else {
        announce('vk_icdGetInstanceProcAddr(NULL, "vk_icdNegotiateLoaderICDInterfaceVersion")');
        const address = gipa(0n, name('vk_icdNegotiateLoaderICDInterfaceVersion'));
        if (address !== 0n) {
          negotiate = (p) => callPointer(address, 'i32', ['u64'], [p]);
          partial.negotiateFrom = 'vk_icdGetInstanceProcAddr';
        }
      }
      if (negotiate) {
        const version = arena.alloc(4);
        version.bytes.writeUInt32LE(requestedVersion, 0);
        announce('vk_icdNegotiateLoaderICDInterfaceVersion');
        const result = negotiate(version.address);
        partial.negotiateResult = resultName(result);
        if (result !== VK_SUCCESS) {
          return done(
            result === VK_ERROR_INCOMPATIBLE_DRIVER
              ? strataError(
                  'driver/unsupported-interface',
                  `Driver ${label} refuses loader–driver interface version ${requestedVersion} (VK_ERROR_INCOMPATIBLE_DRIVER): it needs a newer Vulkan loader`,
                  {
                    where: partial.library ?? manifest,
                    fix: 'update the Vulkan loader (libvulkan1), or install a build of the driver that supports this loader; the loader skips this driver',
                  },
                )
              : strataError('driver/negotiation-failed', `Driver ${label}: vk_icdNegotiateLoaderICDInterfaceVersion returned ${resultName(result)}`, {
                  where: partial.library ?? manifest,
                  fix: 'the loader skips this driver; reinstall or update it',
                }),
          );
        }
        const agreed = version.bytes.readUInt32LE(0);
        partial.interfaceVersion = agreed;
        if (agreed > requestedVersion) {
          // The driver must answer with at most the loader's version (LoaderDriverInterface.md, "Loader and Driver Interface Negotiation").
          return done(
            strataError('driver/bad-negotiation', `Driver ${label} answered interface version ${agreed}, above the ${requestedVersion} the loader offered`, {
              where: partial.library ?? manifest,
              fix: 'the driver breaks the negotiation rules; report it to its vendor',
            }),
          );
        }
      } else {
        // No negotiation: a version 1 driver (vk_icdGetInstanceProcAddr only).
        partial.interfaceVersion = 1;
      }
    } else {
      partial.interfaceVersion = 0;
    }

    const via = gipa ? 'vk_icdGetInstanceProcAddr' : 'vkGetInstanceProcAddr';
    announce(`${via}(NULL, "vkCreateInstance")`);
    const createInstance = (gipa ?? legacyGipa)!(0n, name('vkCreateInstance'));
    partial.createInstanceFound = createInstance !== 0n;
    if (createInstance === 0n) {
      return done(
        strataError('driver/no-create-instance', `Driver ${label}: ${via}(NULL, "vkCreateInstance") returned NULL`, {
          where: partial.library ?? manifest,
          fix: 'the driver must return its global commands for a NULL instance (LoaderDriverInterface.md, "Driver Vulkan Entry Point Discovery"); the loader cannot use it. Report it to its vendor',
        }),
      );
    }
    return done(null);
  } finally {
    arena.free();
    // The library stays mapped: the probe exits after this request, and unloading drivers (Mesa's
    // LLVM among them) at exit is a known way to crash.
  }
}

/** The probe method: each manifest in turn. Main sends one manifest per probe process. */
export function negotiateDrivers(params: unknown): DriverNegotiation[] {
  const p = params as { manifests?: unknown; requestedVersion?: unknown } | null;
  const manifests = Array.isArray(p?.manifests) ? p.manifests.filter((m): m is string => typeof m === 'string') : [];
  const requested = typeof p?.requestedVersion === 'number' ? p.requestedVersion : LOADER_ICD_INTERFACE_VERSION;
  return manifests.map((m) => negotiateDriver(m, requested));
}
