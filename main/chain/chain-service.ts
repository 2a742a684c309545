import {
  applyEnvOverrides,
  computeLayerChain,
  overridePathsFor,
  type ChainApplication,
  type ChainExplainRequest,
  type LayerChain,
} from '../../shared/loader/chain';
import type { Environment } from '../../shared/loader/xdg-directories';
import { discoveryManifests, type DiscoveryContext } from '../discovery/discovery-service';
import type { LoaderVersionAnswer, LoaderVersionLookup } from './loader-version';
import { existsSync } from 'node:fs';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';
import { RULES_VERSION } from '../../shared/loader/loader-rules';
import { compareChainsAcrossVersions, explainRequestFor, type ChainCompareRequest, type ChainComparison } from '../../shared/loader/chain-compare';

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
  const first = await discoveryManifests({ ...ctx, loaderVersion: loader.version });
  const overridePaths = overridePathsFor(first.manifests.implicit_layer, ctx.env, req.app.path, loader.version);
  let explicit = first.manifests.explicit_layer;
  if (overridePaths) {
    const env: Environment = { ...ctx.env, VK_LAYER_PATH: overridePaths.join(':'), VK_ADD_LAYER_PATH: undefined };
    explicit = (await discoveryManifests({ ...ctx, env, loaderVersion: loader.version })).manifests.explicit_layer;
  }
  const chain = computeLayerChain({ implicit: first.manifests.implicit_layer, explicit, env: ctx.env, app: req.app, loaderVersion: loader.version });
  if (loader.version === null) chain.notes.unshift(`why the loader's version is unknown: ${loader.why}`);
  // A settings file (another tool's, e.g. vkconfig 3's, or Strata's own per-application bindings)
  // takes the chain over on loaders that read it: name it, and say the answer does not follow it.
  const settingsFile = settingsFileSearch({ env: ctx.env, loaderVersion: loader.version ?? RULES_VERSION }).find((p) => existsSync(p)) ?? null;
  chain.settingsFile = settingsFile;
  if (settingsFile)
    chain.notes.unshift(
      `loader ${loader.version ?? RULES_VERSION} reads the loader settings file ${settingsFile}: its "layers" decide which layers this application gets (on, off, and where the others go); Strata does not model that file yet, so this chain may differ from the loader's. Move the file away to see the chain without it.`,
    );
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
export function compareChainRequest(base: NodeJS.ProcessEnv, req: ChainCompareRequest): Promise<ChainComparison> {
  return compareChainsAcrossVersions(req.versions, (version) => explainChainRequest(base, explainRequestFor(req, version)));
}
