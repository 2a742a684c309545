import { applyEnvOverrides, computeLayerChain, overridePathsFor, RULES_VERSION, type ChainApplication, type ChainExplainRequest, type LayerChain } from '../../shared/loader/chain';
import type { Environment } from '../../shared/loader/xdg-directories';
import { discoveryManifests, type DiscoveryContext } from '../discovery/discovery-service';

export interface ExplainChainRequest {
  app: ChainApplication;
  /** The loader whose rules to state; defaults to the one the model follows. */
  loaderVersion?: string;
}

/**
 * `chain.explain`: discover the manifests in `ctx.env`, then model the chain. When an active override
 * layer has override_paths, the loader searches explicit layers only there (loader 1.3.239
 * loader_scan_for_layers), so explicit discovery is redone with those paths in place of VK_LAYER_PATH.
 */
export async function explainChain(ctx: DiscoveryContext, req: ExplainChainRequest): Promise<LayerChain> {
  const first = await discoveryManifests(ctx);
  const overridePaths = overridePathsFor(first.manifests.implicit_layer, ctx.env, req.app.path);
  let explicit = first.manifests.explicit_layer;
  if (overridePaths) {
    const env: Environment = { ...ctx.env, VK_LAYER_PATH: overridePaths.join(':'), VK_ADD_LAYER_PATH: undefined };
    explicit = (await discoveryManifests({ ...ctx, env })).manifests.explicit_layer;
  }
  return computeLayerChain({ implicit: first.manifests.implicit_layer, explicit, env: ctx.env, app: req.app, loaderVersion: req.loaderVersion ?? RULES_VERSION });
}

/** The `chain.explain` channel: the request's environment overrides on top of `base`. */
export function explainChainRequest(base: NodeJS.ProcessEnv, req: ChainExplainRequest): Promise<LayerChain> {
  const env = applyEnvOverrides(base, req.env);
  return explainChain({ env }, { app: { path: req.appPath ?? null, requestedLayers: req.requestedLayers ?? [], apiVersion: req.apiVersion } });
}
