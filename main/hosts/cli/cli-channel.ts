import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { CliFailure, EXIT } from './cli-output';
import { findAppRoot, probeCommand } from '../../platform/app-paths';

/** The failure that ends a command (cli-output.ts); here too, beside the call whose error values it carries. */
export { CliFailure };

/** Channels answered by the default probe whenever their request names no environment of its own. */
const PROBE_CHANNELS: ReadonlySet<ChannelName> = new Set<ChannelName>(['loader.info', 'devices.list']);

function asksDefaultProbe(channel: ChannelName, request: unknown): boolean {
  if (!PROBE_CHANNELS.has(channel)) return false;
  const env = (request as { env?: unknown } | null)?.env;
  return env === undefined || (typeof env === 'object' && env !== null && Object.keys(env).length === 0);
}

/** One channel through the router, as the CLI host; an error value ends the command with exit 1. */
export async function callChannel<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const root = findAppRoot();
  // `strata loader show` / `strata device list`: the probe's Node starts now, alongside loading what follows
  // (main/bridge/probe-prelaunch.ts), instead of after it (issue #19).
  const early = asksDefaultProbe(channel, request)
    ? await Promise.all([import('../../bridge/probe-prelaunch'), import('../../bridge/probe-transport')]).then(
        ([{ prelaunchProbe }, { defaultProbeLauncher }]) => {
          const probe = probeCommand(root);
          return prelaunchProbe(defaultProbeLauncher(), { file: probe.file, execArgv: probe.execArgv, cwd: root, env: process.env });
        },
      )
    : undefined;
  try {
    // Loaded on first use: the router, its services and the contract's schemas are what a command
    // needs, not what parsing its arguments (or `--help`) needs (issue #19).
    // The services alone: no event bus, no discovery watch (a UI host's), nothing loaded before the call needs it.
    const { createServiceContext } = await import('../service-context');
    // A one-shot command asks the loader's version in process when that is safe (no second Node start).
    const ctx = createServiceContext({ root, loaderVersionInProcess: true, ...(early ? { probeLauncher: early.launcher } : {}) });
    try {
      const result = await ctx.router.call(channel, request, { host: 'cli' });
      if (!result.ok) throw new CliFailure(result.error, EXIT.problems);
      return result.value as ResponseOf<C>;
    } finally {
      ctx.dispose();
    }
  } finally {
    early?.dispose();
  }
}
