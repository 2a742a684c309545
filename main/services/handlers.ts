import { homedir } from 'node:os';
import type { Handlers } from '../router';
import type { BridgeClient } from '../bridge-client';
import { summarizeEnvironment } from '../../shared/loader/environment-summary';
import { appInfo } from './app-info-service';

export interface ServiceOptions {
  version: string;
  bridge: BridgeClient;
  /** The environment Strata reasons about; defaults to its own. Tests pass their own. */
  env?: NodeJS.ProcessEnv;
}

/** One handler per channel of shared/ipc/contract.ts; the type makes a missing channel a compile error. */
export function createHandlers(options: ServiceOptions): Handlers {
  const env = options.env ?? process.env;
  return {
    'app.info': (_request, context) => appInfo(options, context),
    'env.summary': () => summarizeEnvironment(env, env['HOME'] || homedir(), process.platform),
  };
}
