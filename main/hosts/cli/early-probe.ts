import { currentSpelling } from './cli-grammar';
import type { PrelaunchedProbe } from '../../bridge/probe-prelaunch';

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

/** The commands whose first call asks the default probe (cli-channel.ts PROBE_CHANNELS), as typed or in an older spelling. */
const PROBE_COMMANDS: readonly (readonly string[])[] = [
  ['loader', 'show'],
  ['device', 'list'],
];

/** True when `argv` names one of those commands; its options decide later whether the probe started is the one asked. */
export function startsWithProbeCommand(argv: readonly string[]): boolean {
  const args = currentSpelling(argv).argv;
  return PROBE_COMMANDS.some((words) => words.every((w, i) => args[i] === w)) && !args.includes('--help') && !args.includes('-h');
}

/** The probe the CLI's default BridgeClient would start (same file, flags, folder and environment), started now. */
export async function prelaunchDefaultProbe(root: string, env: NodeJS.ProcessEnv = process.env): Promise<PrelaunchedProbe> {
  const [{ probeCommand }, { prelaunchProbe }, { defaultProbeLauncher }] = await Promise.all([
    import('../../platform/app-paths'),
    import('../../bridge/probe-prelaunch'),
    import('../../bridge/probe-transport'),
  ]);
  const probe = probeCommand(root);
  return prelaunchProbe(defaultProbeLauncher(), { file: probe.file, execArgv: probe.execArgv, cwd: root, env });
}

/** bin/strata's call: the default probe when `argv` is a command that asks it, else null. */
export async function startEarlyProbe(argv: readonly string[], root: string): Promise<PrelaunchedProbe | null> {
  return startsWithProbeCommand(argv) ? prelaunchDefaultProbe(root) : null;
}
