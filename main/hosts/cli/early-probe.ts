import { currentSpelling } from './cli-grammar';
import type { PrelaunchedProbe, AheadRequest } from '../../bridge/probe-prelaunch';

/**
 * The CLI's default probe, started before the command is parsed (issue #19): `strata loader show`
 * and `strata device list` are answered by the probe, whose own Node start (~35 ms) and loader work
 * are most of what they wait for. Started from bin/strata (this module is built as its own small
 * file, out/main/early-probe.cjs) the probe starts while the CLI's bundle loads, instead of after
 * it, its schemas and its service; cli-channel.ts takes it for the first call that asks the default
 * probe, and stops it when none does (the command asked for another environment, or failed first).
 * What starts a probe (child_process and its kin, ~8 ms) is imported only when one starts: bin/strata
 * loads this file for every `loader` and `device` command, `--help` included.
 */

/**
 * The commands whose first call asks the default probe (cli-channel.ts PROBE_CHANNELS), as typed or
 * in an older spelling, with that call's probe request where it depends on nothing but the command:
 * the probe is sent it at once, so the loader's work runs while the CLI still loads.
 */
const PROBE_COMMANDS: readonly { words: readonly string[]; ahead?: AheadRequest }[] = [
  { words: ['loader', 'show'], ahead: { method: 'loader.info' } },
  // `devices` names the driver manifests discovery finds (vulkan-service.ts physicalDevices): not known here.
  { words: ['device', 'list'] },
];

function probeCommandOf(argv: readonly string[]) {
  const args = currentSpelling(argv).argv;
  if (args.includes('--help') || args.includes('-h')) return undefined;
  return PROBE_COMMANDS.find(({ words }) => words.every((w, i) => args[i] === w));
}

/** True when `argv` names one of those commands; its options decide later whether the probe started is the one asked. */
export function startsWithProbeCommand(argv: readonly string[]): boolean {
  return probeCommandOf(argv) !== undefined;
}

/** The request the command's first call will send the default probe, when it is known from the command alone. */
export function aheadRequest(argv: readonly string[]): AheadRequest | null {
  return probeCommandOf(argv)?.ahead ?? null;
}

/** The probe the CLI's default BridgeClient would start (same file, flags, folder and environment), started now. */
export async function prelaunchDefaultProbe(root: string, env: NodeJS.ProcessEnv = process.env, ahead: AheadRequest | null = null): Promise<PrelaunchedProbe> {
  const [{ probeCommand }, { prelaunchProbe }, { defaultProbeLauncher }] = await Promise.all([
    import('../../platform/app-paths'),
    import('../../bridge/probe-prelaunch'),
    import('../../bridge/probe-transport'),
  ]);
  const probe = probeCommand(root);
  return prelaunchProbe(defaultProbeLauncher(), { file: probe.file, execArgv: probe.execArgv, cwd: root, env }, ahead);
}

/** bin/strata's call: the default probe when `argv` is a command that asks it, else null. */
export async function startEarlyProbe(argv: readonly string[], root: string): Promise<PrelaunchedProbe | null> {
  return startsWithProbeCommand(argv) ? prelaunchDefaultProbe(root, process.env, aheadRequest(argv)) : null;
}
