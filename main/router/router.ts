import { channelRequestSchema, channels, channelSchemas, isChannelName, type ChannelName, type RequestOf, type ResponseOf } from '../../shared/ipc/contract';
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

/**
 * What the router does with a handler's answer before handing it out:
 * - 'checked' (the default): checked against the contract, and the checked copy handed out (zod's:
 *   the contract's keys, in its order). The check keeps a handler that drifts from the contract from
 *   reaching a renderer (another process, whose typed code trusts the contract) or a script reading
 *   the CLI's JSON.
 * - 'trusted': handed out as made, for a channel whose handler builds its answer in the contract's
 *   form and whose answer is large (the CLI's discovery: on `strata layer list --json` over 10,000
 *   manifests the check and its copy were ~15% of the command, issue #19).
 * - 'exact' (what tests use in place of 'trusted'): checked, and the answer must already be its
 *   checked copy as JSON (no key the contract lacks, the contract's key order), so that what a
 *   trusted answer prints is what a checked one would, byte for byte.
 */
export type AnswerMode = 'checked' | 'trusted' | 'exact';

export interface RouterOptions {
  /** The mode of each channel's answers; default: 'checked' for all. */
  answers?: (channel: ChannelName) => AnswerMode;
}

/** Where `made` and `checked` first differ as JSON: a few characters of each around it. */
function firstDifference(made: string, checked: string): string {
  let i = 0;
  while (i < made.length && made[i] === checked[i]) i++;
  const at = Math.max(0, i - 60);
  return `as made …${made.slice(at, i + 60)}… but the contract's form …${checked.slice(at, i + 60)}…`;
}

/** A channel's schemas, loaded; a module that does not load is an error value, as every failure is. */
async function loadSchema<T>(channel: ChannelName, load: () => Promise<T>): Promise<IpcResult<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (e) {
    return {
      ok: false,
      error: strataError('internal', `${channel}: its schemas did not load: ${e instanceof Error ? e.message : String(e)}`, {
        where: channel,
        fix: 'if Strata was rebuilt while this command ran, run it again; otherwise this is a bug in Strata, please report it',
      }),
    };
  }
}

export function createRouter(handlers: Handlers, { answers = () => 'checked' }: RouterOptions = {}): Router {
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
      const mode = answers(channel);
      // An answer handed out as made needs no response schema: only the request's is loaded.
      const requestSchema = await loadSchema(channel, () => channelRequestSchema(channel));
      if (!requestSchema.ok) return requestSchema;
      const request = requestSchema.value.safeParse(payload ?? {});
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
      if (mode === 'trusted') return { ok: true, value };
      const schemas = await loadSchema(channel, () => channelSchemas(channel));
      if (!schemas.ok) return schemas;
      const spec = schemas.value;
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
      if (mode === 'exact') {
        const made = JSON.stringify(value);
        const contract = JSON.stringify(response.data);
        if (made !== contract)
          return {
            ok: false,
            error: strataError('ipc/invalid-response', `${channel} produced an answer that is not in the contract's form: ${firstDifference(made, contract)}`, {
              where: channel,
              fix: "this is a bug in Strata: build the answer with the contract's keys only, in its order",
            }),
          };
        return { ok: true, value };
      }
      if (frozen) {
        if (byValue) byValue.set(value as object, response.data);
        else checked.set(spec.response, new WeakMap([[value as object, response.data]]));
      }
      return { ok: true, value: response.data };
    },
  };
}
