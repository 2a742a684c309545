import type { StrataError } from '../../shared/errors/strata-error';
import type { ChannelName, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { EXIT } from './cli-output';

/** Ends a command with a one-line error and an exit code (printed by main() in cli.ts). */
export class CliFailure extends Error {
  constructor(
    readonly error: StrataError,
    readonly exitCode: number,
  ) {
    super(error.message);
  }
}

/** One channel through the router, as the CLI host; an error value ends the command with exit 1. */
export async function callChannel<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  // Loaded on first use: the router, its services and the contract's schemas are what a command
  // needs, not what parsing its arguments (or `--help`) needs (issue #19).
  // The services alone: no event bus, no discovery watch (a UI host's), nothing loaded before the call needs it.
  const [{ createServiceContext }, { findAppRoot }] = await Promise.all([import('../service-context'), import('../app-paths')]);
  // A one-shot command asks the loader's version in process when that is safe (no second Node start).
  const ctx = createServiceContext({ root: findAppRoot(), loaderVersionInProcess: true });
  try {
    const result = await ctx.router.call(channel, request, { host: 'cli' });
    if (!result.ok) throw new CliFailure(result.error, EXIT.problems);
    return result.value as ResponseOf<C>;
  } finally {
    ctx.dispose();
  }
}
