import { createAppContext } from '../app-context';
import { findAppRoot } from '../app-paths';
import type { StrataError } from '../../shared/errors/strata-error';
import type { ChannelName, RequestOf, ResponseOf } from '../../shared/ipc/contract';
import { EXIT } from './cli-output';

/** Ends a command with a one-line error and an exit code (printed by main() in cli.ts). */
export class CliFailure extends Error {
  constructor(readonly error: StrataError, readonly exitCode: number) {
    super(error.message);
  }
}

/** One channel through the router, as the CLI host; an error value ends the command with exit 1. */
export async function callChannel<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
  const ctx = createAppContext({ root: findAppRoot() });
  try {
    const result = await ctx.router.call(channel, request, { host: 'cli' });
    if (!result.ok) throw new CliFailure(result.error, EXIT.problems);
    return result.value as ResponseOf<C>;
  } finally {
    ctx.dispose();
  }
}
