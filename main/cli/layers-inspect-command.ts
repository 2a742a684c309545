import { envOption, unsetOption } from './env-option';
import { Command, InvalidArgumentError } from 'commander';
import { callChannel } from './cli-channel';
import { EXIT, printJson } from './cli-output';
import { PROBE_ENV_WHAT, probeRequest } from './vulkan-commands';
import type { ProbeEnvironment } from '../../shared/vulkan/loader-info';

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
  else process.stdout.write(`${(await import('./layers-inspect-format')).formatLayersInspection(report)}\n`);
  if (report.notFound.length || report.layers.some((l) => !l.ok)) process.exitCode = EXIT.problems;
}

/** Adds `inspect` under the existing `layers` command (created here if it is not there yet). */
export function addLayersInspectCommand(program: Command): void {
  const layers = program.commands.find((c) => c.name() === 'layers') ?? program.command('layers').description('Vulkan layers');
  layers
    .command('inspect')
    .description(
      'load each layer library on its own (all discovered layers, or those named) and report what it exports and the loader–layer interface version it negotiates; a crash or hang is reported per layer (exit 1 when any layer fails)',
    )
    .argument('[names...]', 'layer names (default: every layer the loader finds)')
    .option('--json', 'print machine-readable JSON')
    .option('--timeout <ms>', 'per-layer limit in milliseconds', (v) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 100 || n > 120_000) throw new InvalidArgumentError('expected milliseconds from 100 to 120000');
      return n;
    })
    .option(...envOption(PROBE_ENV_WHAT))
    .option(...unsetOption(PROBE_ENV_WHAT))
    .action(layersInspectAction);
}
