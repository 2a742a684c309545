import { BridgeClient, lastProbeStage, type BridgeClientOptions } from './bridge-client';
import type { IpcResult } from '../../shared/ipc/result';
import type { StrataError } from '../../shared/errors/strata-error';
import type { ProbeEnvironment } from '../../shared/vulkan/loader-info';

/** `base` with `overrides` applied: a string sets the variable, null removes it. */
export function environmentWith(base: NodeJS.ProcessEnv, overrides: ProbeEnvironment | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Starting a probe (node, and tsx from source) is not the library's time; it gets its own, generous limit. */
const PROBE_START_TIMEOUT_MS = 20_000;

/** What an isolated request came back with: the answer, or how the probe died and the last stage it announced. */
export type IsolatedResult =
  | { ok: true; value: unknown; elapsedMs: number }
  | { ok: false; error: StrataError; died: 'crashed' | 'timeout' | null; stage: string | null; elapsedMs: number };

/**
 * One probe process per environment. The loader reads its environment (VK_DRIVER_FILES,
 * VK_LOADER_DEBUG, HOME, XDG_* …) when it is loaded and when an instance is created, so "what would
 * the loader see with this configuration" is answered by a probe started with that environment.
 * The default client (no overrides) is the app's own; others are kept warm, the least recently
 * used one stopped beyond `max`.
 */
export class BridgePool {
  private readonly clients = new Map<string, BridgeClient>();

  constructor(
    private readonly base: BridgeClientOptions,
    readonly defaultClient: BridgeClient,
    private readonly max = 4,
  ) {}

  /** The environment probes start with before overrides. */
  get baseEnv(): NodeJS.ProcessEnv {
    return this.base.env ?? process.env;
  }

  /** The probe for the base environment with `overrides` applied (null removes a variable). */
  forEnv(overrides?: ProbeEnvironment): BridgeClient {
    const entries = Object.entries(overrides ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) return this.defaultClient;
    const key = JSON.stringify(entries);
    const existing = this.clients.get(key);
    if (existing) {
      // Re-insert: Map order is the LRU order.
      this.clients.delete(key);
      this.clients.set(key, existing);
      return existing;
    }
    const client = new BridgeClient({ ...this.base, env: environmentWith(this.baseEnv, overrides) });
    this.clients.set(key, client);
    while (this.clients.size > this.max) {
      const [oldestKey, oldest] = this.clients.entries().next().value as [string, BridgeClient];
      this.clients.delete(oldestKey);
      oldest.dispose();
    }
    return client;
  }

  /**
   * A probe of its own with the base environment (plus `overrides`), not kept in the pool: for work
   * that may crash or hang the process (loading one driver or layer), so nothing else shares its
   * fate. The caller disposes it.
   */
  isolated(overrides?: ProbeEnvironment): BridgeClient {
    return new BridgeClient({ ...this.base, env: environmentWith(this.baseEnv, overrides) });
  }

  /**
   * One request in a probe of its own: the probe is started (and pinged, under its own generous
   * limit) before `method` gets `timeoutMs`, so a slow start is never blamed on the library; a crash
   * or timeout comes back with the last stage the probe announced. The probe is gone afterwards.
   */
  async runIsolated(method: string, params: unknown, options: { timeoutMs: number; env?: ProbeEnvironment }): Promise<IsolatedResult> {
    const client = this.isolated(options.env);
    try {
      // `prepare`: the probe loads the code of `method` now, so only the library's time counts against `timeoutMs`.
      const ready = await client.request('ping', { prepare: method }, { timeoutMs: PROBE_START_TIMEOUT_MS });
      if (!ready.ok) return { ok: false, error: ready.error, died: null, stage: null, elapsedMs: 0 };
      const started = performance.now();
      const result: IpcResult<unknown> = await client.request(method, params, { timeoutMs: options.timeoutMs });
      const elapsedMs = performance.now() - started;
      if (result.ok) return { ok: true, value: result.value, elapsedMs };
      const died = result.error.code === 'bridge/crashed' ? 'crashed' : result.error.code === 'bridge/timeout' ? 'timeout' : null;
      return { ok: false, error: result.error, died, stage: lastProbeStage(result.error), elapsedMs };
    } finally {
      client.dispose();
    }
  }

  dispose(): void {
    for (const c of this.clients.values()) c.dispose();
    this.clients.clear();
    this.defaultClient.dispose();
  }
}
