import { applyEnvOverrides, computeLayerChain, overridePathsFor, type ChainApplication, type ChainExplainRequest, type LayerChain } from '../../shared/loader/chain';
import type { Environment } from '../../shared/loader/xdg-directories';
import { discoveryManifests, type DiscoveryContext } from '../discovery/discovery-service';
import type { LoaderVersionAnswer, LoaderVersionLookup } from './loader-version';

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
  const [loader, first] = await Promise.all([req.loader ?? { version: null, why: 'no loader version was given' }, discoveryManifests(ctx)]);
  const overridePaths = overridePathsFor(first.manifests.implicit_layer, ctx.env, req.app.path, loader.version);
  let explicit = first.manifests.explicit_layer;
  if (overridePaths) {
    const env: Environment = { ...ctx.env, VK_LAYER_PATH: overridePaths.join(':'), VK_ADD_LAYER_PATH: undefined };
    explicit = (await discoveryManifests({ ...ctx, env })).manifests.explicit_layer;
  }
  const chain = computeLayerChain({ implicit: first.manifests.implicit_layer, explicit, env: ctx.env, app: req.app, loaderVersion: loader.version });
  if (loader.version === null) chain.notes.unshift(`why the loader's version is unknown: ${loader.why}`);
  return chain;
}

/**
 * The `chain.explain` channel: the request's environment overrides on top of `base`; the loader
 * version from `lookupVersion` (the probe), asked while discovery reads the manifests.
 */
export async function explainChainRequest(base: NodeJS.ProcessEnv, req: ChainExplainRequest, lookupVersion?: LoaderVersionLookup): Promise<LayerChain> {
  const env = applyEnvOverrides(base, req.env);
  const loader = lookupVersion?.();
  return explainChain({ env }, { app: { path: req.appPath ?? null, requestedLayers: req.requestedLayers ?? [], apiVersion: req.apiVersion }, ...(loader ? { loader } : {}) });
}
