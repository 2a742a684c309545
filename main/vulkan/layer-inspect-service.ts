import { probeDeathDetail } from '../bridge/bridge-client';
import { environmentWith, type BridgePool } from '../bridge/bridge-pool';
import { discoveryManifests } from '../discovery/discovery-service';
import { resolveManifestLibrary } from '../../native-bridge/library-resolver';
import { serviceError, strataError, type StrataError } from '../../shared/errors/strata-error';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import type { LayerEntry, StringEntry } from '../../shared/manifest/manifest-model';
import {
  DEFAULT_INSPECT_TIMEOUT_MS,
  emptyInspection,
  LayerInspectionSchema,
  layerLabel,
  layerProbeDiedError,
  layerSymbols,
  LOADER_LAYER_INTERFACE_VERSION,
  type LayerInspectJob,
  type LayerInspection,
  type LayersInspectReport,
  type LayersInspectRequest,
} from '../../shared/vulkan/layer-inspection';
import type { LibraryResolution } from '../../shared/vulkan/library-search';

export interface LayerInspectOptions {
  probes?: BridgePool;
  env?: NodeJS.ProcessEnv;
}

/** How many layer probes run at once: each is a process of its own. */
const CONCURRENCY = 4;

const entriesOf = (f: { value?: StringEntry[] | undefined } | undefined): Record<string, string> =>
  Object.fromEntries((f?.value ?? []).flatMap((e) => (e.value.value === undefined ? [] : [[e.key, e.value.value] as const])));

/** One layer of a discovered manifest, with what the probe needs to look up. */
interface LayerTarget {
  name: string | null;
  manifest: string;
  kind: 'implicit' | 'explicit';
  libraryPath: string | null;
  componentLayers: string[] | null;
  symbols: LayerInspectJob['symbols'];
}

function targetOf(entry: LayerEntry, manifest: string, kind: LayerTarget['kind']): LayerTarget {
  const entrypoints = [...(entry.instance_extensions?.value ?? []), ...(entry.device_extensions?.value ?? [])].flatMap((e) =>
    (e.entrypoints?.value ?? []).flatMap((i) => (i.value === undefined ? [] : [i.value])),
  );
  return {
    name: entry.name?.value ?? null,
    manifest,
    kind,
    libraryPath: entry.library_path?.value ?? null,
    componentLayers: entry.component_layers ? (entry.component_layers.value ?? []).flatMap((i) => (i.value === undefined ? [] : [i.value])) : null,
    symbols: layerSymbols({ functions: entriesOf(entry.functions), preInstance: entriesOf(entry.pre_instance_functions), entrypoints }),
  };
}

/** Every layer of every readable manifest the loader would find in `env`, implicit before explicit, in its order. */
async function discoveredLayers(env: NodeJS.ProcessEnv): Promise<LayerTarget[]> {
  const inventory = await discoveryManifests({ env });
  const targets: LayerTarget[] = [];
  for (const [kind, list] of [
    ['implicit', inventory.manifests.implicit_layer],
    ['explicit', inventory.manifests.explicit_layer],
  ] as const) {
    for (const m of list) {
      // A file reached twice is the same layers again; an unreadable one has none to inspect.
      if (m.duplicateOf !== null || m.text === null) continue;
      const parsed = parseManifest(m.text).manifest;
      if (parsed?.kind !== 'layer') continue;
      for (const entry of parsed.layers.filter((l) => l.isObject)) targets.push(targetOf(entry, m.path, kind));
    }
  }
  return targets;
}

/** The answer for a layer whose library need not (meta-layer) or cannot (not there) be loaded; null when a probe must go. */
function withoutProbe(t: LayerTarget, resolution: LibraryResolution | null): LayerInspection | null {
  const base = { ...emptyInspection(t), resolution };
  const label = layerLabel(t.name, t.manifest);
  const fail = (error: StrataError): LayerInspection => ({ ...base, error });
  if (t.componentLayers !== null) {
    return {
      ...base,
      ok: true,
      symbols: [],
      warnings: [
        strataError(
          'layer/meta-layer',
          `Layer ${label} is a meta-layer: it has no library of its own (components: ${t.componentLayers.join(', ') || 'none'})`,
          {
            where: t.manifest,
            fix: 'inspect its component layers instead',
          },
        ),
      ],
    };
  }
  if (t.libraryPath === null) {
    return fail(
      strataError('layer/missing-library-path', `Layer ${label} has no "library_path": the loader skips it`, {
        where: t.manifest,
        fix: 'add "library_path" with the layer\'s shared library',
      }),
    );
  }
  if (!resolution || resolution.via === 'not-found') return null; // a bare name: dlopen may still find it (RPATH, hwcaps); let it say.
  const file = resolution.path ?? t.libraryPath;
  switch (resolution.outcome) {
    case 'missing':
      return fail(
        strataError('layer/library-not-found', `Layer ${label}: its library ${file} does not exist`, {
          where: t.manifest,
          fix: `reinstall the layer, or correct "library_path" in ${t.manifest}${resolution.via === 'manifest-relative' ? " (a relative path is relative to the manifest's folder)" : ''}`,
        }),
      );
    case 'not-elf':
      return fail(
        strataError('layer/not-elf', `Layer ${label}: ${file} is not ${process.platform === 'win32' ? 'a DLL (no PE header)' : 'an ELF shared object'}`, {
          where: file,
          fix: '"library_path" points at something that is not a layer library (a text file, a linker script, a truncated download); reinstall the layer',
        }),
      );
    case 'wrong-arch':
      return fail(
        strataError('layer/wrong-architecture', `Layer ${label}: ${file} is built for another architecture than this ${process.arch} process`, {
          where: file,
          fix: 'install the build of the layer for this architecture; the loader cannot load this one',
        }),
      );
    default:
      return null;
  }
}

/** One layer library in a probe of its own: a crash or hang becomes this layer's error, and the probe is gone after. */
async function inspectOne(probes: BridgePool, t: LayerTarget, env: NodeJS.ProcessEnv, request: LayersInspectRequest): Promise<LayerInspection> {
  const resolution = t.libraryPath === null ? null : resolveManifestLibrary(t.manifest, t.libraryPath, env);
  const settled = withoutProbe(t, resolution);
  if (settled) return settled;
  const job: LayerInspectJob = {
    name: t.name,
    manifest: t.manifest,
    kind: t.kind,
    libraryPath: t.libraryPath!,
    // What the loader hands dlopen: a bare name as is (the probe then reports the file ld.so really
    // mapped, next to the resolver's answer), a relative path joined to the manifest's folder. On
    // Windows the resolver answers for exactly the paths the loader joins ("\"-relative, absolute;
    // windows-library-path.ts) and null for a bare name, which goes to LoadLibrary as is.
    open:
      process.platform === 'win32'
        ? (resolution?.path ?? t.libraryPath!)
        : t.libraryPath!.includes('/')
          ? (resolution?.path ?? t.libraryPath!)
          : t.libraryPath!,
    symbols: t.symbols,
    offeredVersion: LOADER_LAYER_INTERFACE_VERSION,
  };
  const timeoutMs = request.timeoutMs ?? DEFAULT_INSPECT_TIMEOUT_MS;
  const result = await probes.runIsolated('layers.inspect', { jobs: [job] }, { timeoutMs, ...(request.env ? { env: request.env } : {}) });
  const failed = (error: StrataError): LayerInspection => ({
    ...emptyInspection(job),
    resolution,
    library: resolution?.path ?? null,
    error,
    elapsedMs: result.elapsedMs,
  });
  if (!result.ok) {
    if (!result.died) return failed(result.error);
    const detail = result.died === 'timeout' ? `${timeoutMs} ms` : (probeDeathDetail(result.error.message) ?? result.error.message);
    return failed(layerProbeDiedError(result.died, t.name, t.manifest, resolution?.path ?? t.libraryPath, result.stage, detail));
  }
  const parsed = LayerInspectionSchema.array().length(1).safeParse(result.value);
  if (!parsed.success) {
    return failed(
      strataError(
        'bridge/invalid-reply',
        `The probe's answer for ${layerLabel(t.name, t.manifest)} does not match its schema: ${parsed.error.message.slice(0, 300)}`,
        {
          where: 'native-bridge probe',
          fix: 'this is a bug in Strata; please report it',
        },
      ),
    );
  }
  return { ...parsed.data[0]!, resolution, elapsedMs: result.elapsedMs };
}

/**
 * layers.inspect: every discovered layer (or those named) loaded on its own, at most CONCURRENCY at a
 * time, in the loader's order (implicit, then explicit). The request's environment decides both which
 * manifests are found (VK_LAYER_PATH, XDG_*, HOME …) and how each library is searched (LD_LIBRARY_PATH).
 */
export async function inspectLayers(options: LayerInspectOptions, request: LayersInspectRequest): Promise<LayersInspectReport> {
  const probes = options.probes;
  if (!probes)
    throw serviceError('bridge/no-pool', 'This host cannot start probes of their own, which loading layer libraries needs', { where: 'layers.inspect' });
  const env = environmentWith(options.env ?? process.env, request.env);
  const all = await discoveredLayers(env);
  const names = request.names;
  const targets = names ? all.filter((t) => t.name !== null && names.includes(t.name)) : all;
  const notFound = names ? names.filter((n) => !all.some((t) => t.name === n)) : [];

  const layers: LayerInspection[] = new Array(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const i = next++;
      layers[i] = await inspectOne(probes, targets[i]!, env, request);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
  return { offeredInterfaceVersion: LOADER_LAYER_INTERFACE_VERSION, layers, notFound };
}
