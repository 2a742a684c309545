import type { ManifestInventory } from '../../shared/discovery/manifest-inventory';

/** What a discovery is asked with, as far as the catalogue is concerned: the environment object, and the rest (as JSON: the key). */
export interface CatalogueRequest {
  env: object;
  /** Scan again even when an answer is kept (a user's Refresh, the `discovery.manifests` channel); not part of the key. */
  fresh?: boolean | undefined;
}

/**
 * The one catalogue of discovered manifests (texts, parsed summaries, lint diagnostics: a
 * ManifestInventory) that every service of a process reads (issue #14 point 5, issue #19).
 *
 * - Requests for the same discovery while one runs share it: a page's first view asks
 *   discovery.manifests, chain.context, profiles.list and activity.status at once.
 * - While a UI host watches the search folders (main/discovery/discovery-watch.ts) for an
 *   environment, a settled answer is also kept for later requests in that environment: opening the
 *   Problems, Profiles or Drivers view asks activity.status, profiles.list or drivers.negotiate,
 *   which used to read, parse and lint every manifest again. A kept answer goes at the next
 *   `invalidate()` (a change the watcher reports) and around any channel call that may write
 *   (`beginWrite()`, main/hosts/app-context.ts).
 * - Nothing is kept for an environment nobody watches (the CLI, a test): the next request scans.
 * - A kept answer may carry a check of what the watcher cannot see (`reuseWhile`: the library files
 *   its lint read); it is handed out again only while that check holds, else the request scans.
 *
 * Callers read an answer and never change it: it is other callers' too (its top level is frozen).
 */
export class ManifestCatalogue {
  private answers = new WeakMap<object, Map<string, Promise<ManifestInventory>>>();
  /** Each settled scan's answer. */
  private readonly settled = new WeakMap<Promise<ManifestInventory>, ManifestInventory>();
  private readonly checks = new WeakMap<ManifestInventory, () => boolean>();
  private readonly kept = new Map<object, number>();
  /** Bumped by every invalidate(): answers computed before it are not kept after it. */
  private generationCount = 0;
  private writing = 0;

  /** Keep settled answers for `env` (the object itself) until the returned function is called. */
  keep(env: object): () => void {
    this.kept.set(env, (this.kept.get(env) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const n = (this.kept.get(env) ?? 1) - 1;
      if (n > 0) this.kept.set(env, n);
      else {
        this.kept.delete(env);
        this.answers.delete(env);
        this.generationCount++;
      }
    };
  }

  /** Whether a UI host watches `env`: its answers are kept, and more requests on the same manifests will come. */
  watches(env: object): boolean {
    return this.kept.has(env);
  }

  /**
   * A call that may write manifests (or what their lint reads) has begun: kept answers go now, and
   * nothing is kept until the returned function, called when it has ended, drops what was read meanwhile.
   * Scans during it are fresh, so a writer that reads back what it wrote (app-override-writer.ts) sees it.
   */
  beginWrite(): () => void {
    this.writing++;
    this.invalidate();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.writing--;
      this.invalidate();
    };
  }

  /** `inventory`, once kept, is handed out again only while `check()` is true (called at each reuse). */
  reuseWhile(inventory: ManifestInventory, check: () => boolean): void {
    this.checks.set(inventory, check);
  }

  /** Drop every kept answer (running scans finish for those who asked, and are not kept). */
  invalidate(): void {
    this.generationCount++;
    this.answers = new WeakMap();
  }

  /** The answer for `request`: running or kept, else `compute`'s. */
  answer<R extends CatalogueRequest>(request: R, compute: (request: R) => Promise<ManifestInventory>): Promise<ManifestInventory> {
    const { env, fresh, ...rest } = request;
    const key = JSON.stringify(rest);
    const answers = this.answers;
    let byKey = answers.get(env);
    if (!byKey) answers.set(env, (byKey = new Map()));
    const existing = byKey.get(key);
    // A running scan is shared even by a fresh request (it began after the request was made); a settled one only when still current.
    if (existing && (!this.settled.has(existing) || (!fresh && this.writing === 0 && this.stillCurrent(existing)))) return existing;
    // Kept only if the scan began while changes were watched, and none was reported since.
    const generation = this.generationCount;
    const watchedFromStart = this.kept.has(env) && this.writing === 0;
    const started = compute(request);
    byKey.set(key, started);
    const forget = () => {
      if (byKey.get(key) === started) byKey.delete(key);
    };
    started.then((inventory) => {
      // Frozen (its top level): callers never change an answer, and the router checks a frozen answer
      // it hands out again only once (main/router/router.ts).
      Object.freeze(inventory);
      this.settled.set(started, inventory);
      if (!watchedFromStart || !this.kept.has(env) || generation !== this.generationCount) forget();
    }, forget);
    return started;
  }

  private stillCurrent(answer: Promise<ManifestInventory>): boolean {
    const inventory = this.settled.get(answer);
    const check = inventory && this.checks.get(inventory);
    return !check || check();
  }
}

/** The process's catalogue: discovery-service.ts answers through it; the UI hosts' watch keeps and invalidates it. */
export const manifestCatalogue = new ManifestCatalogue();
