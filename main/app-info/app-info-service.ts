import type { AppInfo } from '../../shared/app/app-info';
import type { CallContext } from '../router/router';
import type { BridgeClient } from '../bridge/bridge-client';
import { describeLoader } from '../chain/loader-version';

export async function appInfo(options: { version: string; bridge: BridgeClient }, context: CallContext): Promise<AppInfo> {
  return {
    name: 'Strata',
    version: options.version,
    host: context.host,
    platform: process.platform,
    arch: process.arch,
    versions: {
      node: process.versions.node,
      v8: process.versions.v8,
      electron: process.versions['electron'] ?? null,
      chrome: process.versions['chrome'] ?? null,
    },
    loader: await describeLoader(options.bridge, process.platform),
  };
}
