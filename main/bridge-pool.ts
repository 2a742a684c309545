import { BridgeClient, type BridgeClientOptions } from './bridge-client';
import type { ProbeEnvironment } from '../shared/vulkan/loader-info';

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
    const env: NodeJS.ProcessEnv = { ...(this.base.env ?? process.env) };
    for (const [name, value] of entries) {
      if (value === null) delete env[name];
      else env[name] = value;
    }
    const client = new BridgeClient({ ...this.base, env });
    this.clients.set(key, client);
    while (this.clients.size > this.max) {
      const [oldestKey, oldest] = this.clients.entries().next().value as [string, BridgeClient];
      this.clients.delete(oldestKey);
      oldest.dispose();
    }
    return client;
  }

  /**
   * A probe of its own with the base environment, not kept in the pool: for work that may crash or
   * hang the process (loading one driver), so nothing else shares its fate. The caller disposes it.
   */
  isolated(timeoutMs?: number): BridgeClient {
    return new BridgeClient({ ...this.base, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  }

  dispose(): void {
    for (const c of this.clients.values()) c.dispose();
    this.clients.clear();
    this.defaultClient.dispose();
  }
}
