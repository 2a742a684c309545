import { envOption, unsetOption } from './env-option';
import { Command } from 'commander';
import { callChannel } from './cli-channel';
import { EXIT, jsonOption, printJson, timeoutMsOption } from './cli-output';
import { PROBE_ENV_WHAT, probeRequest } from './vulkan-commands';
import type { ProbeEnvironment } from '../../../shared/vulkan/loader-info';
import { writeOut } from './standard-streams';

interface InspectOptions {
  json?: boolean;
  timeout?: number;
  env?: ProbeEnvironment;
}

async function layersInspectAction(names: string[], opts: InspectOptions): Promise<void> {
  const report = await callChannel('layers.inspect', {
    ...(names.length ? { names } : {}),
    ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout } : {}),
    ...probeRequest(opts),
  });
  if (opts.json) printJson(report);
  else writeOut(`${(await import('./layers-inspect-format')).formatLayersInspection(report)}\n`);
  if (report.notFound.length || report.layers.some((l) => !l.ok)) process.exitCode = EXIT.problems;
}

/** Adds `inspect` under the existing `layer` command (created here if it is not there yet). */
export function addLayersInspectCommand(program: Command): void {
  const layers = program.commands.find((c) => c.name() === 'layer') ?? program.command('layer').description('Vulkan layers');
  layers
    .command('inspect')
    .description(
      'load each layer library on its own (all discovered layers, or those named) and report what it exports and the loader–layer interface version it negotiates; a crash or hang is reported per layer (exit 1 when any layer fails)',
    )
    .argument('[names...]', 'layer names (default: every layer the loader finds)')
    .option(...jsonOption())
    .option(...timeoutMsOption('layer'))
    .option(...envOption(PROBE_ENV_WHAT))
    .option(...unsetOption(PROBE_ENV_WHAT))
    .action(layersInspectAction);
}
