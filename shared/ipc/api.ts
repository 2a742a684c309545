import type { ChannelName, EventName, EventPayloadOf, RequestOf, ResponseOf, StrataEvent } from './contract';
import type { parseEvent as ParseEvent } from './events';
import type { IpcResult } from './result';
import { StrataRequestError, strataError } from '../errors/strata-error';

/**
 * What the renderer sees as `window.strata`. Both preloads (Electron's and the browser host's)
 * build it with createStrataApi over their own transport, so the renderer cannot tell them apart.
 */
export interface StrataApi {
  /** Call a channel; resolves with its response or rejects with a StrataRequestError. */
  call<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  /** Listen to one event; returns the function that stops listening. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloadOf<E>) => void): () => void;
}

/** The two things a host must provide: a request/response call and a stream of raw events. */
export interface StrataTransport {
  invoke(channel: string, request: unknown): Promise<IpcResult<unknown>>;
  subscribe(listener: (name: unknown, payload: unknown) => void): () => void;
}

export function createStrataApi(transport: StrataTransport): StrataApi {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let unsubscribe: (() => void) | null = null;

  const deliver = (parse: typeof ParseEvent, name: unknown, payload: unknown) => {
    // Events are validated on arrival too: the stream crosses a process (or network) boundary.
    const event: StrataEvent | null = parse(name, payload);
    if (!event) return;
    for (const l of listeners.get(event.name) ?? []) (l as (p: unknown) => void)(event.payload);
  };
  // The events' schemas load with the first event, not with the preload: building them was ~20 ms of
  // the preload's run, which every first view waited for (issue #19: first render). Events that
  // arrive meanwhile wait, in order.
  let parse: typeof ParseEvent | null = null;
  let waiting: [name: unknown, payload: unknown][] | null = null;
  const dispatch = (name: unknown, payload: unknown) => {
    if (parse) return deliver(parse, name, payload);
    if (waiting) return void waiting.push([name, payload]);
    waiting = [[name, payload]];
    void import('./events').then(
      (m) => {
        parse = m.parseEvent;
        for (const [n, p] of waiting ?? []) deliver(m.parseEvent, n, p);
        waiting = null;
      },
      () => {
        waiting = null; // A schema module that cannot load (a rebuild mid-run): its events are dropped, the next ones try again.
      },
    );
  };

  return {
    async call(channel, request) {
      let result: IpcResult<unknown>;
      try {
        result = await transport.invoke(channel, request);
      } catch (e) {
        throw new StrataRequestError(
          strataError('ipc/transport-failed', `Could not reach Strata's main process: ${e instanceof Error ? e.message : String(e)}`, {
            where: channel,
            fix: 'restart Strata (or the `strata serve` process) and reload the page',
          }),
        );
      }
      if (!result.ok) throw new StrataRequestError(result.error);
      return result.value as never;
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      unsubscribe ??= transport.subscribe(dispatch);
      return () => {
        set.delete(listener as (payload: never) => void);
        const total = [...listeners.values()].reduce((n, s) => n + s.size, 0);
        if (total === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
  };
}
