import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { strataError, type StrataError } from '../errors/strata-error';
import { StrataErrorSchema } from '../errors/strata-error-schema';
import { LibraryResolutionSchema } from './library-resolution-schema';
import { ProbeEnvironmentSchema } from './loader-info';

/**
 * layers.inspect: a layer's library loaded on its own, in a probe of its own, and taken through what
 * the loader does with it (LoaderLayerInterface, "Layer Version Negotiation"): which of the functions
 * the loader and the manifest name it exports, and — when it exports
 * vkNegotiateLoaderLayerInterfaceVersion (or the name its manifest's "functions" gives) — the
 * interface version it agrees to.
 */

/**
 * CURRENT_LOADER_LAYER_INTERFACE_VERSION of vk_layer.h (libvulkan-dev 1.3.239; the layer-inspect
 * test reads the installed header): the version the loader offers in
 * VkNegotiateLayerInterface.loaderLayerInterfaceVersion.
 */
export const LOADER_LAYER_INTERFACE_VERSION = 2;
/** MIN_SUPPORTED_LOADER_LAYER_INTERFACE_VERSION: an answer below it makes the loader skip the layer. */
export const MIN_LAYER_INTERFACE_VERSION = 1;

export const DEFAULT_INSPECT_TIMEOUT_MS = 5000;

/** What a symbol is to the loader. */
export const LAYER_SYMBOL_ROLES = ['negotiate', 'get-instance-proc-addr', 'get-device-proc-addr', 'pre-instance', 'extension-entrypoint'] as const;
export type LayerSymbolRole = (typeof LAYER_SYMBOL_ROLES)[number];

export const LayerSymbolSchema = z.object({
  role: z.enum(LAYER_SYMBOL_ROLES),
  /** The Vulkan function it stands for (vkGetInstanceProcAddr, vkEnumerateInstanceVersion, vkCmdDebugMarkerBeginEXT). */
  function: z.string(),
  /** The name looked up with dlsym: the manifest's rename ("functions", "pre_instance_functions"), else the function's own name. */
  symbol: z.string(),
  /** dlsym found it; null when the library was not opened. */
  exported: z.boolean().nullable(),
});

export const LayerNegotiationSchema = z.object({
  /** The version offered (the loader's current one). */
  offered: z.number().int().nonnegative(),
  /** VK_SUCCESS, VK_ERROR_INITIALIZATION_FAILED …; null when the call never returned. */
  result: z.string().nullable(),
  /** loaderLayerInterfaceVersion as the layer left it; null when the call failed. */
  interfaceVersion: z.number().int().nonnegative().nullable(),
  /** The function pointers the layer filled in (interface 2: the loader uses these, not dlsym). */
  getInstanceProcAddr: z.boolean(),
  getDeviceProcAddr: z.boolean(),
  getPhysicalDeviceProcAddr: z.boolean(),
});
export type LayerNegotiation = z.infer<typeof LayerNegotiationSchema>;

export const LayerInspectionSchema = z.object({
  /** The layer's "name"; null when the manifest has none. */
  name: z.string().nullable(),
  manifest: z.string(),
  kind: z.enum(['implicit', 'explicit']),
  /** "library_path" as written; null for a meta-layer or a manifest without one. */
  libraryPath: z.string().nullable(),
  /** Where that leads (relative to the manifest, or the dynamic linker's search for a bare name). */
  resolution: LibraryResolutionSchema.nullable(),
  /** The file dlopen really mapped, read back from the probe process. */
  library: z.string().nullable(),
  symbols: z.array(LayerSymbolSchema),
  /** The call to the negotiate function; null when the layer has none (or was not opened). */
  negotiation: LayerNegotiationSchema.nullable(),
  /** The interface the loader would use: the negotiated one, or 1 for a layer that exports vkGetInstanceProcAddr without negotiation; null when it cannot use the layer. */
  interfaceVersion: z.number().int().nonnegative().nullable(),
  /** The loader could load this layer (no error). */
  ok: z.boolean(),
  /** Why the loader skips the layer (or would crash or hang on it). */
  error: StrataErrorSchema.nullable(),
  /** What the loader tolerates but the specification asks otherwise (LLP_LAYER_4 …). */
  warnings: z.array(StrataErrorSchema),
  /** Wall time of this layer's inspect request (its probe's start excluded). */
  elapsedMs: z.number().nonnegative(),
});
export type LayerInspection = z.infer<typeof LayerInspectionSchema>;

export const LayersInspectRequestSchema = z
  .object({
    /** Layer names; absent: every layer discovered (implicit and explicit) that names a library. */
    names: z.array(z.string().min(1)).max(REQUEST_LIMITS.inspectLayers, tooMany('layer names', REQUEST_LIMITS.inspectLayers)).optional(),
    /** The environment to discover and load in, on top of Strata's own (null unsets). */
    env: ProbeEnvironmentSchema.optional(),
    /** Per-layer limit; a library that hangs longer is reported as timed out and its probe killed. */
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
  })
  .strict();
export type LayersInspectRequest = z.infer<typeof LayersInspectRequestSchema>;

export const LayersInspectReportSchema = z.object({
  offeredInterfaceVersion: z.number().int().nonnegative(),
  layers: z.array(LayerInspectionSchema),
  /** Names asked for that no discovered manifest defines. */
  notFound: z.array(z.string()),
});
export type LayersInspectReport = z.infer<typeof LayersInspectReportSchema>;

/** What main sends the probe for one layer: everything already read from the manifest and resolved. */
export interface LayerInspectJob {
  name: string | null;
  manifest: string;
  kind: 'implicit' | 'explicit';
  libraryPath: string;
  /** What to hand dlopen: the resolved file, or the bare name when the search found nothing (dlopen says why). */
  open: string;
  symbols: { role: LayerSymbolRole; function: string; symbol: string }[];
  offeredVersion: number;
}

/** The functions section's names the loader looks up itself (LoaderLayerInterface, "Layer Manifest File Format", "functions"). */
export const LOADER_LOOKUPS = [
  ['negotiate', 'vkNegotiateLoaderLayerInterfaceVersion'],
  ['get-instance-proc-addr', 'vkGetInstanceProcAddr'],
  ['get-device-proc-addr', 'vkGetDeviceProcAddr'],
] as const;

/**
 * The symbols to look up for one layer entry: the loader's three (renamed by "functions" where it
 * says so), every pre_instance_functions entry, every extension entrypoint. `functions` and
 * `preInstance` are key → symbol maps; entrypoints are listed once each.
 */
export function layerSymbols(layer: {
  functions: Readonly<Record<string, string>>;
  preInstance: Readonly<Record<string, string>>;
  entrypoints: readonly string[];
}): LayerInspectJob['symbols'] {
  const symbols: LayerInspectJob['symbols'] = LOADER_LOOKUPS.map(([role, fn]) => ({ role, function: fn, symbol: layer.functions[fn] ?? fn }));
  for (const [fn, symbol] of Object.entries(layer.preInstance)) symbols.push({ role: 'pre-instance', function: fn, symbol });
  for (const fn of new Set(layer.entrypoints)) symbols.push({ role: 'extension-entrypoint', function: fn, symbol: fn });
  return symbols;
}

/** "VK_LAYER_KHRONOS_validation (VkLayer_khronos_validation.json)": how every per-layer message names the layer. */
export function layerLabel(name: string | null, manifest: string): string {
  const base = manifest.split('/').pop() ?? manifest;
  return name ? `${name} (${base})` : base;
}

/** An inspection before anything is known: nothing found yet, not ok. */
export function emptyInspection(job: Pick<LayerInspectJob, 'name' | 'manifest' | 'kind' | 'symbols'> & { libraryPath: string | null }): LayerInspection {
  return {
    name: job.name,
    manifest: job.manifest,
    kind: job.kind,
    libraryPath: job.libraryPath,
    resolution: null,
    library: null,
    symbols: job.symbols.map((s) => ({ ...s, exported: null })),
    negotiation: null,
    interfaceVersion: null,
    ok: false,
    error: null,
    warnings: [],
    elapsedMs: 0,
  };
}

/** A crash or timeout of the per-layer probe, as this layer's diagnostic. */
export function layerProbeDiedError(
  kind: 'crashed' | 'timeout',
  name: string | null,
  manifest: string,
  library: string | null,
  stage: string | null,
  detail: string,
): StrataError {
  const label = `${layerLabel(name, manifest)}${library ? ` [${library}]` : ''}`;
  const during = stage ? ` during ${stage}` : '';
  return kind === 'crashed'
    ? strataError('layer/crashed', `Layer ${label} crashed the probe${during}: ${detail}`, {
        where: manifest,
        fix: 'the layer library is broken or built for another system; an application that enables it would crash the same way. Remove or update the layer (an implicit one can be turned off with its disable_environment variable)',
      })
    : strataError('layer/timeout', `Layer ${label} did not return${during} within ${detail}`, {
        where: manifest,
        fix: 'the layer library hangs while loading; an application that enables it would hang the same way. Remove or update the layer (an implicit one can be turned off with its disable_environment variable)',
      });
}
