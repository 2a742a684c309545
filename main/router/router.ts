import { channels, channelSchemas, isChannelName, type ChannelName, type ChannelSchemas, type RequestOf, type ResponseOf } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/result';
import type { HostKind } from '../../shared/app/app-info';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';

/** Who is calling: handlers may use it (app.info reports the host), never to change semantics. */
export interface CallContext {
  host: HostKind;
}

export type Handlers = {
  [C in ChannelName]: (request: RequestOf<C>, context: CallContext) => Promise<ResponseOf<C>> | ResponseOf<C>;
};

export interface Router {
  /** Validate, dispatch, validate the answer. Never throws: every failure is an error value. */
  call(channel: string, payload: unknown, context: CallContext): Promise<IpcResult<unknown>>;
  readonly channelNames: readonly ChannelName[];
}

function issuesText(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
}

export interface RouterOptions {
  /**
   * Check each answer against the contract before handing it out (default: yes). Answers are
   * Strata's own: the check keeps a handler that drifts from the contract from reaching a renderer
   * (another process, whose typed code trusts the contract) and makes it fail loudly in tests. The
   * CLI prints the answer in the process that made it, and checks only when asked
   * (main/hosts/cli/cli-channel.ts): on `strata layer list --json` over 10,000 manifests the check
   * and the copy it makes were ~15% of the command (issue #19).
   */
  checkAnswers?: boolean;
}

export function createRouter(handlers: Handlers, { checkAnswers = true }: RouterOptions = {}): Router {
  // A handler may hand out the same answer object again: a kept discovery (manifest-catalogue.ts),
  // whose check is ~0.1 s for 1,000 manifests. An answer its maker froze never changes, so each such
  // object is checked once against each schema, and its checked copy reused.
  const checked = new WeakMap<object, WeakMap<object, unknown>>();
  return {
    channelNames: Object.keys(channels) as ChannelName[],
    async call(channel, payload, context) {
      if (!isChannelName(channel)) {
        return {
          ok: false,
          error: strataError('ipc/unknown-channel', `No such channel "${channel}"`, {
            where: channel,
            fix: `use one of: ${Object.keys(channels).join(', ')}`,
          }),
        };
      }
      let spec: ChannelSchemas;
      try {
        spec = await channelSchemas(channel);
      } catch (e) {
        return {
          ok: false,
          error: strataError('internal', `${channel}: its schemas did not load: ${e instanceof Error ? e.message : String(e)}`, {
            where: channel,
            fix: 'if Strata was rebuilt while this command ran, run it again; otherwise this is a bug in Strata, please report it',
          }),
        };
      }
      const request = spec.request.safeParse(payload ?? {});
      if (!request.success) {
        return {
          ok: false,
          error: strataError('ipc/invalid-request', `Invalid request for ${channel}: ${issuesText(request.error)}`, {
            where: channel,
            fix: 'send the fields that shared/ipc/contract.ts declares for this channel',
          }),
        };
      }
      let value: unknown;
      try {
        const handler = handlers[channel] as (req: unknown, ctx: CallContext) => unknown;
        value = await handler(request.data, context);
      } catch (e) {
        // A service raises what the user can act on with serviceError() (e.g. the probe crashed): it keeps
        // its code, where and fix. Anything else thrown is a bug in Strata, and says so.
        if (e instanceof StrataRequestError) return { ok: false, error: e.error };
        return {
          ok: false,
          error: strataError('internal', `${channel} failed: ${e instanceof Error ? e.message : String(e)}`, {
            where: channel,
            fix: 'this is a bug in Strata; please report it with the output of `strata info --json`',
          }),
        };
      }
      // Checking our own answers keeps the contract honest: a handler that drifts from it fails loudly
      // here, in tests, instead of as an odd render in the UI.
      if (!checkAnswers) return { ok: true, value };
      const frozen = typeof value === 'object' && value !== null && Object.isFrozen(value);
      const byValue = frozen ? checked.get(spec.response) : undefined;
      if (byValue?.has(value as object)) return { ok: true, value: byValue.get(value as object) };
      const response = spec.response.safeParse(value);
      if (!response.success) {
        return {
          ok: false,
          error: strataError('ipc/invalid-response', `${channel} produced a response that breaks the contract: ${issuesText(response.error)}`, {
            where: channel,
            fix: 'this is a bug in Strata; please report it with the output of `strata info --json`',
          }),
        };
      }
      if (frozen) {
        if (byValue) byValue.set(value as object, response.data);
        else checked.set(spec.response, new WeakMap([[value as object, response.data]]));
      }
      return { ok: true, value: response.data };
    },
  };
}
