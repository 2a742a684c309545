import { homedir } from 'node:os';
import { chainEnvironment, chainVariableNames, type ChainContext } from '../../shared/configurator/chain-context';
import type { BridgeClient } from '../bridge/bridge-client';
import { discoveryManifests } from '../discovery/discovery-service';
import { overrideLocation } from '../override/override-writer';
import { loaderVersionFromBridge } from './loader-version';
import { readChainSettingsSource } from './chain-service';
import { settingsFileFor } from './settings-file-found';
import { defaultOverrideSystem } from '../override/override-service';

/**
 * chain.context: what the renderer needs to run the chain model on its own draft (shared/configurator/
 * chain-context.ts). The variable names come from discovery here, in main, so the page only ever sees
 * variables that some manifest names (or VK_*), never the whole environment.
 */
export async function chainContext(options: { env: NodeJS.ProcessEnv; bridge: BridgeClient }): Promise<ChainContext> {
  const [inventory, { version: loaderVersion }, system] = await Promise.all([
    discoveryManifests({ env: options.env }),
    // The answer kept for this probe client (loader-version.ts): asking the loader scans every
    // implicit layer manifest (and, with a meta-layer such as Strata's override, every explicit one),
    // ~0.3 s of the probe's time on a tree of 1,000 layers, once per page otherwise.
    loaderVersionFromBridge(options.bridge)(),
    defaultOverrideSystem(),
  ]);
  const windows = process.platform === 'win32';
  const scope = system ? 'system' : 'user';
  // Windows: the override is a file in Strata's own folder, found by the loader through its value in
  // HKCU (HKLM) …\ImplicitLayers: that key is the "folder" the draft places it in (shared/configurator/draft-chain.ts).
  const w = windows ? await import('../override/windows-override') : null;
  const loc = w
    ? { file: w.windowsOverrideLocation(scope, options.env).file, dir: w.windowsRegistrationKeys(scope).override }
    : overrideLocation(scope, options.env, options.env['HOME'] || homedir());
  const settingsFile = await settingsFileFor({ env: options.env, loaderVersion, windows });
  const discovered = [...inventory.manifests.implicit_layer, ...inventory.manifests.explicit_layer];
  return {
    env: chainEnvironment(options.env, chainVariableNames(inventory)),
    loaderVersion,
    overrideFile: loc.file,
    overrideDir: loc.dir,
    settings: readChainSettingsSource(options.env, loaderVersion, discovered, settingsFile),
  };
}
