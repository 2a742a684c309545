import { homedir } from 'node:os';
import type { Handlers } from '../router';
import { disassembleShaderFile, inspectShaderBytes, inspectShaderFile, packShaderBytes } from './shader-service';
import type { BridgeClient } from '../bridge-client';
import { summarizeEnvironment } from '../../shared/loader/environment-summary';
import { appInfo } from './app-info-service';
import type { BridgePool } from '../bridge-pool';
import { loaderInfo, physicalDevices } from './vulkan-service';
import { negotiateDrivers } from './driver-negotiation-service';
import { inspectLayers } from './layer-inspect-service';
import { discoveryManifests, discoveryPaths } from '../discovery/discovery-service';
import { lintFiles } from '../discovery/lint-files-service';
import { explainChainRequest } from '../chain/chain-service';
import { loaderVersionFromBridge } from '../chain/loader-version';
import { overrideApply, overrideExport, overridePreview, overrideRemove, overrideStatus } from '../override/override-service';
import { chainContext } from '../chain/chain-context-service';
import { SessionService } from '../sessions/session-service';
import { sessionHandlers } from '../sessions/session-handlers';
import { profileHandlers } from '../profiles/profile-handlers';

export interface ServiceOptions {
  version: string;
  bridge: BridgeClient;
  /** The environment Strata reasons about; defaults to its own. Tests pass their own. */
  env?: NodeJS.ProcessEnv;
  /** Probes per environment, for requests that carry `env`; without it only the default probe is used. */
  probes?: BridgePool;
  /** Launches and their sessions; hosts pass one wired to their event bus. Default: one without live events. */
  sessions?: SessionService;
}

/** One handler per channel of shared/ipc/contract.ts; the type makes a missing channel a compile error. */
export function createHandlers(options: ServiceOptions): Handlers {
  const env = options.env ?? process.env;
  return {
    'app.info': (_request, context) => appInfo(options, context),
    'env.summary': () => summarizeEnvironment(env, env['HOME'] || homedir(), process.platform),
    'discovery.paths': (request) => discoveryPaths({ env, ...request }),
    'discovery.manifests': (request) => discoveryManifests({ env, ...request }),
    'chain.explain': (request) => explainChainRequest(env, request, loaderVersionFromBridge(options.bridge)),
    'chain.context': () => chainContext({ env, bridge: options.bridge }),
    'lint.files': (request) => lintFiles(request),
    'loader.info': (request) => loaderInfo(options, request),
    devices: (request) => physicalDevices(options, request),
    'drivers.negotiate': (request) => negotiateDrivers({ ...(options.probes ? { probes: options.probes } : {}), env }, request),
    'layers.inspect': (request) => inspectLayers({ ...(options.probes ? { probes: options.probes } : {}), env }, request),
    'shader.disassemble': (request) => disassembleShaderFile(request),
    'shader.inspect': (request) => inspectShaderFile(request),
    'shader.inspectBytes': (request) => inspectShaderBytes(request),
    'shader.pack': (request) => packShaderBytes(request),
    'override.status': (request) => overrideStatus({ env }, request),
    'override.apply': (request) => overrideApply({ env }, request),
    'override.remove': (request) => overrideRemove({ env }, request),
    'override.preview': (request) => overridePreview({ env }, request),
    'override.export': (request) => overrideExport(request),
    ...sessionHandlers(options.sessions ?? new SessionService({ env, version: options.version })),
    ...profileHandlers({ env, loaderVersion: async () => (await loaderVersionFromBridge(options.bridge)()).version }),
  };
}
