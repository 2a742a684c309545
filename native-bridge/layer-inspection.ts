/**
 * The probe's side of layers.inspect: dlopen one layer library (its constructors run here), dlsym
 * the functions the loader and the manifest name, and call vkNegotiateLoaderLayerInterfaceVersion
 * the way loader 1.3.239 does (LoaderLayerInterface, "Layer Version Negotiation"). Runs only inside
 * a probe process of its own: main starts one per layer, so a library that crashes or hangs takes
 * only that probe down.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { NativeArena, openLibrary, type NativeLibrary } from './ffi';
import { mappedPath } from './loader-library';
import { loadedModulePath } from './windows-native';
import { announce } from './probe-stage';
import { LAYER_LAYOUT, LAYER_NEGOTIATE_INTERFACE_STRUCT } from './vulkan-layouts';
import { strataError } from '../shared/errors/strata-error';
import { parsePeHeader } from '../shared/vulkan/pe-header';
import {
  emptyInspection,
  layerLabel,
  MIN_LAYER_INTERFACE_VERSION,
  type LayerInspectJob,
  type LayerInspection,
  type LayerNegotiation,
} from '../shared/vulkan/layer-inspection';

import { VK_SUCCESS, vkResultName as resultName } from '../shared/vulkan/vk-result';

function isJob(value: unknown): value is LayerInspectJob {
  const j = value as Partial<LayerInspectJob> | null;
  return (
    !!j &&
    typeof j.manifest === 'string' &&
    typeof j.open === 'string' &&
    typeof j.libraryPath === 'string' &&
    Array.isArray(j.symbols) &&
    typeof j.offeredVersion === 'number'
  );
}

/**
 * Calls the negotiate function with a VkNegotiateLayerInterface filled as
 * loader_get_layer_interface_version does: sType, pNext NULL, the loader's current version.
 */
function negotiate(lib: NativeLibrary, symbol: string, offered: number): LayerNegotiation {
  const fn = lib.func(symbol, 'i32', ['u64'])!;
  const L = LAYER_LAYOUT.VkNegotiateLayerInterface;
  const arena = new NativeArena();
  try {
    const s = arena.alloc(L.sizeof);
    s.bytes.writeUInt32LE(LAYER_NEGOTIATE_INTERFACE_STRUCT, L.sType);
    s.bytes.writeUInt32LE(offered, L.loaderLayerInterfaceVersion);
    announce(symbol === 'vkNegotiateLoaderLayerInterfaceVersion' ? symbol : `${symbol} (vkNegotiateLoaderLayerInterfaceVersion)`);
    const result = fn(s.address) as number;
    const ok = result === VK_SUCCESS;
    return {
      offered,
      result: resultName(result),
      interfaceVersion: ok ? s.bytes.readUInt32LE(L.loaderLayerInterfaceVersion) : null,
      getInstanceProcAddr: ok && s.bytes.readBigUInt64LE(L.pfnGetInstanceProcAddr) !== 0n,
      getDeviceProcAddr: ok && s.bytes.readBigUInt64LE(L.pfnGetDeviceProcAddr) !== 0n,
      getPhysicalDeviceProcAddr: ok && s.bytes.readBigUInt64LE(L.pfnGetPhysicalDeviceProcAddr) !== 0n,
    };
  } finally {
    arena.free();
  }
}

/** A DLL larger than this is not read for its export table (a layer DLL is a few MiB at most). */
const PE_READ_LIMIT = 256 << 20;

/**
 * LoadLibrary failed on Windows. The file itself was checked before (main/vulkan/layer-inspect-service.ts:
 * present, a DLL of this machine), so what is missing is almost always a DLL it imports ("Module not
 * found", ERROR_MOD_NOT_FOUND, names no file). Its export table, read from the PE file without loading
 * it (shared/vulkan/pe-header.ts), still tells which entry points the loader would find once it loads.
 */
function windowsLoadFailure(job: LayerInspectJob, report: LayerInspection, label: string, message: string, done: () => LayerInspection): LayerInspection {
  let exports: string[] | null = null;
  try {
    if (statSync(job.open).size <= PE_READ_LIMIT) exports = parsePeHeader(readFileSync(job.open))?.exports ?? null;
  } catch {
    // Unreadable, or a bare name LoadLibrary searched for: no export table to show.
  }
  if (exports) {
    const names = new Set(exports);
    report.symbols = job.symbols.map((s) => ({ ...s, exported: names.has(s.symbol) }));
  }
  const notFound = /not found|could not be found/i.test(message);
  // A bare name (no "\\" or ":") went to LoadLibrary's own search; anything else is a file that is there.
  const bare = !/[\\/:]/.test(job.open);
  report.error = strataError(
    bare && notFound ? 'layer/library-not-found' : 'layer/load-failed',
    `Layer ${label}: ${job.libraryPath} cannot be loaded: ${message}${exports ? ` (its export table, read from the file, lists ${exports.length} functions)` : ''}`,
    {
      where: job.manifest,
      fix:
        bare && notFound
          ? 'a bare DLL name is searched by LoadLibrary (the application\'s folder, system32, the Windows folder, the current folder, PATH); install the layer there, or give "library_path" as an absolute path or one relative to the manifest (".\\name.dll")'
          : notFound
            ? 'a DLL it imports is missing or of another architecture: list them (`dumpbin /dependents`, or `objdump -p` and its "DLL Name" lines) and install them next to the layer DLL or in the system folder'
            : "reinstall the layer; its DllMain may have failed (run the application with VK_LOADER_DEBUG=all to see the loader's message)",
    },
  );
  return done();
}

/** One layer library, start to end; never throws (every failure is this layer's error value). */
export function inspectLayerLibrary(job: LayerInspectJob): LayerInspection {
  const started = performance.now();
  const report = emptyInspection(job);
  const label = layerLabel(job.name, job.manifest);
  const done = (): LayerInspection => ({ ...report, ok: report.error === null, elapsedMs: performance.now() - started });

  let lib: NativeLibrary;
  announce(`dlopen of ${job.open}`);
  try {
    lib = openLibrary(job.open);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (process.platform === 'win32') return windowsLoadFailure(job, report, label, message, done);
    const missing = /No such file|cannot open shared object/i.test(message);
    report.error = strataError(missing ? 'layer/library-not-found' : 'layer/load-failed', `Layer ${label}: ${job.libraryPath} cannot be loaded: ${message}`, {
      where: job.manifest,
      fix: missing
        ? job.libraryPath.includes('/')
          ? 'install the libraries the layer depends on (see `ldd` on the library)'
          : 'a bare library name is searched by the dynamic linker (LD_LIBRARY_PATH, ld.so.cache, /lib, /usr/lib); install the layer, run ldconfig, or give a path in "library_path"'
        : 'install the libraries the layer depends on (see `ldd` on the library), or reinstall the layer',
    });
    return done();
  }
  // The file that was mapped: /proc/self/maps on Linux; on Windows the module's own file name (LoadLibrary's search included).
  report.library = process.platform === 'win32' ? loadedModulePath(job.open) : (mappedPath(basename(job.open)) ?? (job.open.includes('/') ? job.open : null));

  report.symbols = job.symbols.map((s) => ({ ...s, exported: lib.func(s.symbol, 'void', []) !== null }));
  const exported = (role: string) => report.symbols.find((s) => s.role === role);
  const negotiateSymbol = exported('negotiate');
  const gipa = exported('get-instance-proc-addr');

  const where = report.library ?? job.manifest;
  // What loader 1.3.239 does (loader_create_instance_chain, loader_get_layer_interface_version):
  // negotiate when the function is exported; a result other than VK_SUCCESS, or an answer below
  // MIN_SUPPORTED_LOADER_LAYER_INTERFACE_VERSION, counts as "no negotiation". With interface 2+ it
  // takes vkGetInstanceProcAddr from the struct; otherwise it dlsyms vkGetInstanceProcAddr (or the
  // manifest's rename) and skips the layer when that is missing ("Failed to find
  // 'vkGetInstanceProcAddr' in layer").
  let negotiationFailed: string | null = null;
  let usesInterfaceFunctions = false;
  if (negotiateSymbol?.exported) {
    const n = negotiate(lib, negotiateSymbol.symbol, job.offeredVersion);
    report.negotiation = n;
    if (n.interfaceVersion === null) negotiationFailed = `${negotiateSymbol.symbol} returned ${n.result} for interface version ${job.offeredVersion}`;
    else if (n.interfaceVersion < MIN_LAYER_INTERFACE_VERSION)
      negotiationFailed = `${negotiateSymbol.symbol} answered interface version ${n.interfaceVersion}, below the ${MIN_LAYER_INTERFACE_VERSION} the loader still supports`;
    else {
      if (n.interfaceVersion > job.offeredVersion) {
        report.warnings.push(
          strataError(
            'layer/bad-negotiation',
            `Layer ${label} answered interface version ${n.interfaceVersion}, above the ${job.offeredVersion} the loader offered`,
            {
              where,
              fix: 'the layer must answer at most the loader\'s version (LoaderLayerInterface, "Layer Version Negotiation"); report it to its authors',
            },
          ),
        );
      }
      usesInterfaceFunctions = n.interfaceVersion > 1 && n.getInstanceProcAddr;
      report.interfaceVersion = n.interfaceVersion;
    }
  } else {
    report.warnings.push(
      strataError(
        'layer/no-negotiate',
        `Layer ${label} does not export ${negotiateSymbol?.symbol ?? 'vkNegotiateLoaderLayerInterfaceVersion'}: the loader falls back to interface version 1 (exported vkGetInstanceProcAddr)`,
        {
          where,
          fix: 'a layer should export vkNegotiateLoaderLayerInterfaceVersion (LLP_LAYER_4); fine for old layers, report it to its authors',
        },
      ),
    );
  }

  if (!usesInterfaceFunctions) {
    if (!gipa?.exported) {
      report.interfaceVersion = null;
      const renamed = gipa && gipa.symbol !== gipa.function;
      report.error = negotiationFailed
        ? strataError(
            'layer/negotiation-failed',
            `Layer ${label}: ${negotiationFailed}, and it exports no ${gipa?.symbol ?? 'vkGetInstanceProcAddr'} to fall back to: the loader skips it`,
            {
              where,
              fix: 'install a build of the layer that supports this loader (loader–layer interface 2), or a newer loader',
            },
          )
        : strataError(
            'layer/missing-symbol',
            `Layer ${label} exports no ${gipa?.symbol ?? 'vkGetInstanceProcAddr'}${report.negotiation ? ' and its negotiation gave none' : ''}: the loader cannot call into it and skips it`,
            {
              where,
              fix: renamed
                ? `the manifest's "functions" renames vkGetInstanceProcAddr to "${gipa.symbol}", which the library does not export; correct the name or reinstall the layer`
                : 'this library is not a Vulkan layer, or it was built without default visibility for its entry points; reinstall the layer',
            },
          );
      return done();
    }
    report.interfaceVersion = negotiationFailed || !report.negotiation ? 1 : report.interfaceVersion;
    if (negotiationFailed) {
      report.warnings.push(
        strataError(
          'layer/negotiation-failed',
          `Layer ${label}: ${negotiationFailed}; loader 1.3.239 still loads it through its exported ${gipa.symbol} (interface 1), though the specification says to skip it`,
          {
            where,
            fix: 'install a build of the layer that supports this loader (LLP_LAYER_5); newer loaders may refuse it',
          },
        ),
      );
    }
  }

  for (const s of report.symbols.filter((x) => x.role === 'pre-instance' && !x.exported)) {
    // LoaderLayerInterface, "Pre-Instance Functions": the layer must export each intercepted function.
    report.warnings.push(
      strataError(
        'layer/missing-pre-instance-function',
        `Layer ${label}: pre_instance_functions names "${s.symbol}" for ${s.function}, but the library does not export it; the loader does not intercept ${s.function} through this layer`,
        {
          where: job.manifest,
          fix: `export ${s.symbol} from the layer, or remove it from "pre_instance_functions"`,
        },
      ),
    );
  }
  // The library stays mapped: the probe exits after this request, and unloading at exit is a known way to crash.
  return done();
}

/** The probe method: one job per request (main starts a probe per layer). */
export function inspectLayers(params: unknown): LayerInspection[] {
  const jobs = (params as { jobs?: unknown } | null)?.jobs;
  if (!Array.isArray(jobs) || !jobs.every(isJob)) throw new Error('layers.inspect needs {jobs: LayerInspectJob[]}');
  return jobs.map(inspectLayerLibrary);
}
