import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { CliFailure, EXIT } from './cli-output';
import { findAppRoot } from '../../platform/app-paths';
import type { PrelaunchedProbe } from '../../bridge/probe-prelaunch';
import type { ProbeLauncher } from '../../bridge/probe-transport';
import type { AnswerMode } from '../../router/router';

/** The failure that ends a command (cli-output.ts); here too, beside the call whose error values it carries. */
export { CliFailure };

/** Channels answered by the default probe whenever their request names no environment of its own. */
const PROBE_CHANNELS: ReadonlySet<ChannelName> = new Set<ChannelName>(['loader.info', 'devices.list']);

function asksDefaultProbe(channel: ChannelName, request: unknown): boolean {
  if (!PROBE_CHANNELS.has(channel)) return false;
  const env = (request as { env?: unknown } | null)?.env;
  return env === undefined || (typeof env === 'object' && env !== null && Object.keys(env).length === 0);
}

let earlyProbe: PrelaunchedProbe | null = null;

/** bin/strata's probe, started before the command was parsed (early-probe.ts); the first call that asks the default probe takes it. */
export function adoptEarlyProbe(probe: PrelaunchedProbe | null): void {
  earlyProbe = probe;
}

/** Stops the early probe when no call took it (the command asked another environment, or ended first). */
export function releaseEarlyProbe(): void {
  earlyProbe?.dispose();
  earlyProbe = null;
}

/**
 * The command's probes, as `launcher` starts them, except that stopping one does not wait for its
 * exit: the command's answer is written by then, and the process ends while the kernel still tears
 * the killed probe down (issue #19: `strata loader show` ended 10–20 ms after its output).
 */
export function oneShotLauncher(launcher: ProbeLauncher): ProbeLauncher {
  return {
    kind: launcher.kind,
    launch(spec) {
      const probe = launcher.launch(spec);
      return {
        ...probe,
        kill() {
          probe.kill();
          probe.unref?.();
        },
      };
    },
  };
}

/**
 * The channels whose answers a CLI command prints as its handler made them ('trusted', router.ts):
 * discovery's inventory, whose check was ~15% of `strata layer list --json` on 10,000 manifests, and
 * explain's chain, whose check (run cold, once) was ~2% of `strata explain` (issue #19: 0.98 paired
 * over 100 pairs). Every other answer is checked, as in the UI hosts. Under STRATA_CHECK_ANSWERS=1 (the
 * tests' environment, tests/helpers/temp-home.ts) these are 'exact': checked, and required to be in
 * the contract's form already, so a user's command prints what a checked answer would.
 */
const TRUSTED_IN_CLI: ReadonlySet<ChannelName> = new Set<ChannelName>(['discovery.manifests', 'chain.explain']);

export function answerMode(env: NodeJS.ProcessEnv): (channel: ChannelName) => AnswerMode {
  const trusted: AnswerMode = env['STRATA_CHECK_ANSWERS'] === '1' ? 'exact' : 'trusted';
  return (channel) => (TRUSTED_IN_CLI.has(channel) ? trusted : 'checked');
}

/** One channel through the router, as the CLI host; an error value ends the command with exit 1. */
export async function callChannel<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const root = findAppRoot();
  // `strata loader show` / `strata device list`: the probe's Node starts before loading what follows
  // (early-probe.ts), from bin/strata when it started one, else now.
  let early: PrelaunchedProbe | undefined;
  if (asksDefaultProbe(channel, request)) {
    early = earlyProbe ?? (await (await import('./early-probe')).prelaunchDefaultProbe(root));
    earlyProbe = null;
  }
  try {
    // Loaded on first use: the router, its services and the contract's schemas are what a command
    // needs, not what parsing its arguments (or `--help`) needs (issue #19).
    // The services alone: no event bus, no discovery watch (a UI host's), nothing loaded before the call needs it.
    // Zod's compiled parsers pay off over many calls; a one-shot command makes one call, and the
    // compile cost ~7 ms of `strata explain` (issue #19).
    await import('../../../shared/validation/zod-config');
    const [{ createServiceContext }, { defaultProbeLauncher }] = await Promise.all([import('../service-context'), import('../../bridge/probe-transport')]);
    // A one-shot command asks the loader's version in process when that is safe (no second Node start).
    const ctx = createServiceContext({
      root,
      loaderVersionInProcess: true,
      probeLauncher: oneShotLauncher(early?.launcher ?? defaultProbeLauncher()),
      answers: answerMode(process.env),
    });
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
