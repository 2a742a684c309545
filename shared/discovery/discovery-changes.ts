import * as z from 'zod';
import { MANIFEST_KINDS, type ManifestKind } from '../loader/search-paths';
import { ManifestKindSchema } from '../loader/search-paths-schema';

/**
 * The payload of the `discovery.changed` event: which kinds of manifests changed on disk and
 * where (manifest files, or search folders that appeared or disappeared), as the watcher in
 * main/discovery/manifest-watcher.ts saw them after its debounce.
 */
export const MAX_CHANGED_PATHS = 100;

export const DiscoveryChangedSchema = z.object({
  kinds: z.array(ManifestKindSchema).min(1),
  /** Spelled as discovery spells them (`<search folder>/<name>`); at most MAX_CHANGED_PATHS. */
  paths: z.array(z.string()).max(MAX_CHANGED_PATHS),
  /** How many more paths changed than are listed. */
  more: z.number().int().nonnegative(),
});
export type DiscoveryChanged = z.infer<typeof DiscoveryChangedSchema>;

/** Collects the changes of one debounce window; kinds in the loader's order, paths in arrival order. */
export class DiscoveryChangeSet {
  private readonly kinds = new Set<ManifestKind>();
  private readonly paths = new Set<string>();

  add(kinds: Iterable<ManifestKind>, path: string): void {
    for (const k of kinds) this.kinds.add(k);
    this.paths.add(path);
  }

  get empty(): boolean {
    return this.kinds.size === 0;
  }

  /** The event payload, or null when nothing changed; the set is emptied. */
  take(): DiscoveryChanged | null {
    if (this.kinds.size === 0) return null;
    const all = [...this.paths];
    const payload: DiscoveryChanged = {
      kinds: MANIFEST_KINDS.filter((k) => this.kinds.has(k)),
      paths: all.slice(0, MAX_CHANGED_PATHS),
      more: Math.max(0, all.length - MAX_CHANGED_PATHS),
    };
    this.kinds.clear();
    this.paths.clear();
    return payload;
  }
}
