import { homedir } from 'node:os';
import type { Handlers } from '../router';
import { disassembleShaderFile, inspectShaderBytes, inspectShaderFile } from './shader-service';
import type { BridgeClient } from '../bridge-client';
import { summarizeEnvironment } from '../../shared/loader/environment-summary';
import { appInfo } from './app-info-service';
import type { BridgePool } from '../bridge-pool';
import { loaderInfo, physicalDevices } from './vulkan-service';
import { negotiateDrivers } from './driver-negotiation-service';
import { discoveryManifests, discoveryPaths } from '../discovery/discovery-service';
import { lintFiles } from '../discovery/lint-files-service';
import { explainChainRequest } from '../chain/chain-service';
import { overrideApply, overrideExport, overrideRemove, overrideStatus } from '../override/override-service';

export interface ServiceOptions {
  version: string;
  bridge: BridgeClient;
  /** The environment Strata reasons about; defaults to its own. Tests pass their own. */
  env?: NodeJS.ProcessEnv;
  /** Probes per environment, for requests that carry `env`; without it only the default probe is used. */
  probes?: BridgePool;
}

/** One handler per channel of shared/ipc/contract.ts; the type makes a missing channel a compile error. */
export function createHandlers(options: ServiceOptions): Handlers {
  const env = options.env ?? process.env;
  return {
    'app.info': (_request, context) => appInfo(options, context),
    'env.summary': () => summarizeEnvironment(env, env['HOME'] || homedir(), process.platform),
    'discovery.paths': (request) => discoveryPaths({ env, ...request }),
    'discovery.manifests': (request) => discoveryManifests({ env, ...request }),
    'chain.explain': (request) => explainChainRequest(env, request),
    'lint.files': (request) => lintFiles(request),
    'loader.info': (request) => loaderInfo(options, request),
    devices: (request) => physicalDevices(options, request),
    'drivers.negotiate': (request) => negotiateDrivers({ ...(options.probes ? { probes: options.probes } : {}), env }, request),
    'shader.disassemble': (request) => disassembleShaderFile(request),
    'shader.inspect': (request) => inspectShaderFile(request),
    'shader.inspectBytes': (request) => inspectShaderBytes(request),
    'override.status': (request) => overrideStatus({ env }, request),
    'override.apply': (request) => overrideApply({ env }, request),
    'override.remove': (request) => overrideRemove({ env }, request),
    'override.export': (request) => overrideExport(request),
  };
}
