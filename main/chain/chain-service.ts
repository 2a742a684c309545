import {
  applyEnvOverrides,
  computeLayerChain,
  overridePathsFor,
  type ChainApplication,
  type ChainManifest,
  type ChainSettingsInput,
  type ChainExplainRequest,
  type LayerChain,
} from '../../shared/loader/chain';
import type { Environment } from '../../shared/loader/xdg-directories';
import { discoveryUser, layerManifestsAsFound, type DiscoveryContext } from '../discovery/discovery-service';
import { LOADER_VARIABLES } from '../../shared/loader/environment-variables';
import { platformFromNodeName } from '../../shared/loader/search-paths';
import type { LoaderVersionAnswer, LoaderVersionLookup } from './loader-version';
import { readTextGuardedSync } from '../platform/guarded-read';
import { chainSettingsFor, settingsManifestPaths, type ChainSettingsSource } from '../../shared/loader/chain-settings';
import { foundSettingsFile, settingsFileFor } from './settings-file-found';
import { RULES_VERSION } from '../../shared/loader/loader-rules';
import type { ChainCompareRequest, ChainComparison } from '../../shared/loader/chain-compare';

export interface ExplainChainRequest {
  app: ChainApplication;
  /** The real loader's version; absent: unknown (the rules of RULES_VERSION are applied, and the answer says so). */
  loader?: LoaderVersionAnswer | Promise<LoaderVersionAnswer>;
}

/**
 * `chain.explain`: discover the manifests in `ctx.env`, then model the chain. When an active override
 * layer has override_paths, the loader searches explicit layers only there (loader 1.3.239
 * loader_scan_for_layers), so explicit discovery is redone with those paths in place of VK_LAYER_PATH.
 */
export async function explainChain(ctx: DiscoveryContext, req: ExplainChainRequest): Promise<LayerChain> {
  const loader = await (req.loader ?? { version: null, why: 'no loader version was given' });
  // The version decides which search variables the loader reads (VK_IMPLICIT_LAYER_PATH: 1.3.296+).
  const first = await layerManifestsAsFound({ ...ctx, loaderVersion: loader.version });
  // An elevated application's loader (setuid; on Windows a high-integrity token, as every process
  // under Wine) reads the layer filters with loader_secure_getenv, which answers NULL: the model
  // must not see them either (tests/integration/windows-chain-vs-loader.test.ts).
  const user = await discoveryUser(ctx);
  const ignored = user.elevated ? LOADER_VARIABLES.filter((v) => v.ignoredWhenElevated && ctx.env[v.name] !== undefined).map((v) => v.name) : [];
  const env: Environment = { ...ctx.env, ...Object.fromEntries(ignored.map((name) => [name, undefined])) };
  const windows = (ctx.platform ?? platformFromNodeName(process.platform)).os === 'windows';
  const overridePaths = overridePathsFor(first.implicit_layer, env, req.app.path, loader.version);
  let explicit = first.explicit_layer;
  if (overridePaths) {
    // The override layer's paths replace the explicit search, elevated or not (they are no variable),
    // and on Windows the registry is not read then either (loader_get_data_files: override_active).
    const overrideEnv: Environment = { ...env, VK_LAYER_PATH: overridePaths.join(windows ? ';' : ':'), VK_ADD_LAYER_PATH: undefined };
    explicit = (await layerManifestsAsFound({ ...ctx, env: overrideEnv, user: { ...user, elevated: false }, loaderVersion: loader.version })).explicit_layer;
  }
  // On Windows the loader finds its settings file through the registry (LoaderSettings), read there as it reads it.
  const settingsFile = await settingsFileFor({
    env: ctx.env,
    loaderVersion: loader.version,
    windows,
    elevated: user.elevated,
    ...(ctx.registry !== undefined ? { registry: ctx.registry } : {}),
  });
  const settings = readChainSettings(ctx.env, req.app.path, loader.version, [...first.implicit_layer, ...explicit], settingsFile);
  const chain = computeLayerChain({
    implicit: first.implicit_layer,
    explicit,
    env,
    app: req.app,
    loaderVersion: loader.version,
    settings,
    ...(windows ? { listSeparator: ';' as const } : {}),
  });
  if (ignored.length)
    chain.notes.unshift(
      `this process is elevated${windows ? ' (a high-integrity token)' : ''}, and so is the application as modeled: its loader ignores ${ignored.join(', ')} (loader_secure_getenv)`,
    );
  if (loader.version === null) chain.notes.unshift(`why the loader's version is unknown: ${loader.why}`);
  return chain;
}

/**
 * The `chain.explain` channel: the request's environment overrides on top of `base`; the loader
 * version from `lookupVersion` (the probe), asked while discovery reads the manifests.
 */
export async function explainChainRequest(
  base: NodeJS.ProcessEnv,
  req: ChainExplainRequest,
  lookupVersion?: LoaderVersionLookup,
  lookupAt?: (libraryPath: string) => LoaderVersionLookup,
): Promise<LayerChain> {
  const env = applyEnvOverrides(base, req.env);
  // --loader-version: the model alone; --loader PATH: that library's own answer; else the installed loader.
  const lookup: LoaderVersionLookup | undefined = req.loaderVersion
    ? async () => ({ version: req.loaderVersion! })
    : req.loaderPath
      ? lookupAt
        ? lookupAt(req.loaderPath)
        : async () => ({ version: null, why: `this host cannot ask another loader library (${req.loaderPath})` })
      : lookupVersion;
  const loader = lookup?.();
  const chain = await explainChain(
    { env },
    { app: { path: req.appPath ?? null, requestedLayers: req.requestedLayers ?? [], apiVersion: req.apiVersion }, ...(loader ? { loader } : {}) },
  );
  if (req.loaderVersion) chain.notes.unshift(`modeled for loader ${req.loaderVersion} (asked for by version; the installed loader was not consulted)`);
  else if (req.loaderPath && chain.loaderVersion) chain.notes.unshift(`modeled for the loader at ${req.loaderPath}, which reports ${chain.loaderVersion}`);
  return chain;
}

/** `chain.compare`: the same question modeled for several loader versions, and where the answers part. */
export async function compareChainRequest(base: NodeJS.ProcessEnv, req: ChainCompareRequest): Promise<ChainComparison> {
  // Loaded here: its module builds the comparison's schemas as it loads, which `strata explain`
  // (this module's other caller) built and its startup snapshot held for nothing (issue #19).
  const { compareChainsAcrossVersions, explainRequestFor } = await import('../../shared/loader/chain-compare');
  return compareChainsAcrossVersions(req.versions, (version) => explainChainRequest(base, explainRequestFor(req, version)));
}

/**
 * The loader settings file this loader reads (`found`: what settingsFileFor answered; absent: the
 * Linux search for a process that is not elevated), with every manifest its layer entries name: from
 * discovery when found there, else read here (the loader reads them by path, wherever they are).
 * Guarded reads: a device or a huge file is an unreadable file.
 */
export function readChainSettingsSource(
  env: Environment,
  loaderVersion: string | null,
  discovered: readonly ChainManifest[],
  found?: string | null,
): ChainSettingsSource | null {
  const path = found !== undefined ? found : foundSettingsFile(env, loaderVersion);
  if (!path) return null;
  let text: string;
  try {
    text = readTextGuardedSync(path, 'settings');
  } catch (e) {
    return { path, text: null, why: `it cannot be read (${(e as Error).message})`, manifests: [] };
  }
  const manifests = settingsManifestPaths(text).map((p): ChainManifest => {
    const known = discovered.find((m) => m.path === p);
    if (known) return known;
    try {
      return { path: p, kind: 'explicit_layer', origin: `${path} (layers)`, text: readTextGuardedSync(p, 'manifest'), problem: null };
    } catch (e) {
      return {
        path: p,
        kind: 'explicit_layer',
        origin: `${path} (layers)`,
        text: null,
        problem: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable',
      };
    }
  });
  return { path, text, manifests };
}

/** The settings file as this loader reads it for the application at `appPath` (null: none). */
export function readChainSettings(
  env: Environment,
  appPath: string | null,
  loaderVersion: string | null,
  discovered: readonly ChainManifest[],
  found?: string | null,
): ChainSettingsInput | null {
  const source = readChainSettingsSource(env, loaderVersion, discovered, found);
  return source && chainSettingsFor(source, appPath, loaderVersion ?? RULES_VERSION);
}
