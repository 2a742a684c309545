import * as z from 'zod';
import { ChainExplainRequestSchema, LoaderVersionTextSchema, type LayerChain } from './chain';
import { LayerChainSchema } from './chain-schema';
import { compareLoaderVersions, LOADER_RULES, type LoaderRuleId } from './loader-rules';

/**
 * "Will this configuration behave the same on Ubuntu 24.04 and Fedora 43?": the chain the model
 * predicts for each loader version asked, and, between two versions that differ, the loader
 * release(s) where it changes and the rules (loader-rules.ts) that arrive there. Pure: the caller
 * computes a chain for a version (discovery and all); this module only chooses which versions to
 * ask and reads the answers.
 */

export const ChainCompareRequestSchema = z
  .object({
    env: z.record(z.string(), z.string().nullable()).optional(),
    appPath: z.string().min(1).optional(),
    requestedLayers: z.array(z.string().min(1)).max(256).optional(),
    apiVersion: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/)
      .optional(),
    /** The loader versions to compare, in the order to show them. */
    versions: z.array(LoaderVersionTextSchema).min(2).max(8),
  })
  .strict();
export type ChainCompareRequest = z.infer<typeof ChainCompareRequestSchema>;

const OutcomeSchema = z.object({
  result: z.string(),
  /** Layer names, application side first. */
  chain: z.array(z.string()),
});
export type ChainOutcome = z.infer<typeof OutcomeSchema>;

export const ChainChangeSchema = z.object({
  /** The first version (of the pair compared) and the one after it. */
  from: z.string(),
  to: z.string(),
  /** The loader release at which the prediction changes. */
  at: z.string(),
  rules: z.array(z.object({ id: z.string(), since: z.string(), summary: z.string() })),
  before: OutcomeSchema,
  after: OutcomeSchema,
});
export type ChainChange = z.infer<typeof ChainChangeSchema>;

export const ChainComparisonSchema = z.object({
  chains: z.array(z.object({ version: z.string(), chain: LayerChainSchema })),
  /** True when every version predicts the same result and the same chain (names and manifests). */
  same: z.boolean(),
  changes: z.array(ChainChangeSchema),
});
export type ChainComparison = z.infer<typeof ChainComparisonSchema>;

/** What a user sees of a chain: the result and the layers (each with the manifest it came from). */
export function chainSignature(c: LayerChain): string {
  return JSON.stringify([c.result, c.chain.map((e) => [e.name, e.manifest])]);
}

export function outcomeOf(c: LayerChain): ChainOutcome {
  return { result: c.result, chain: c.chain.map((e) => e.name) };
}

/** The releases in (a, b] where some modeled rule arrives, oldest first. */
export function ruleBoundaries(a: string, b: string): string[] {
  const [lo, hi] = compareLoaderVersions(a, b) <= 0 ? [a, b] : [b, a];
  const since = new Set(
    LOADER_RULES.filter((r) => r.modeled && compareLoaderVersions(r.since, lo) > 0 && compareLoaderVersions(r.since, hi) <= 0).map((r) => r.since),
  );
  return [...since].sort(compareLoaderVersions);
}

/**
 * Compares the chains of `versions`. For each neighbouring pair that differs, the chain is also
 * computed at every rule boundary between them, so each change is pinned to the release (and its
 * rules) where it happens, not just to the pair.
 */
export async function compareChainsAcrossVersions(versions: readonly string[], chainFor: (version: string) => Promise<LayerChain>): Promise<ChainComparison> {
  const cache = new Map<string, Promise<LayerChain>>();
  const at = (v: string) => {
    let c = cache.get(v);
    if (!c) cache.set(v, (c = chainFor(v)));
    return c;
  };
  const chains = await Promise.all(versions.map(async (version) => ({ version, chain: await at(version) })));
  const changes: ChainChange[] = [];
  for (let i = 1; i < versions.length; i++) {
    const from = versions[i - 1]!;
    const to = versions[i]!;
    if (chainSignature(await at(from)) === chainSignature(await at(to))) continue;
    const ascending = compareLoaderVersions(from, to) <= 0;
    const lo = ascending ? from : to;
    let previous = { version: lo, chain: await at(lo) };
    for (const boundary of ruleBoundaries(from, to)) {
      const chain = await at(boundary);
      if (chainSignature(chain) !== chainSignature(previous.chain)) {
        const withSettings = Boolean(previous.chain.settingsFile || chain.settingsFile);
        const rules = rulesArrivingAt(boundary, withSettings).map((r) => ({ id: r.id as LoaderRuleId, since: r.since, summary: r.summary }));
        changes.push({ from, to, at: boundary, rules, before: outcomeOf(previous.chain), after: outcomeOf(chain) });
      }
      previous = { version: boundary, chain };
    }
  }
  return { chains, same: chains.every((c) => chainSignature(c.chain) === chainSignature(chains[0]!.chain)), changes };
}

/** The settings file's rules change nothing for a question without a settings file: they are not named then. */
function canMatter(id: LoaderRuleId, withSettings: boolean): boolean {
  return withSettings || !id.startsWith('settings-');
}

/** The modeled rules that arrive at `boundary` and can matter here (the log's layout never changes a chain). */
function rulesArrivingAt(boundary: string, withSettings: boolean) {
  return LOADER_RULES.filter((r) => r.modeled && r.since === boundary && !r.id.startsWith('log-') && canMatter(r.id, withSettings));
}

/** The explain request for one version of a compare request. */
export function explainRequestFor(req: ChainCompareRequest, version: string): z.infer<typeof ChainExplainRequestSchema> {
  const { versions: _versions, ...rest } = req;
  return { ...rest, loaderVersion: version };
}

/**
 * The versions among `versions` whose chain differs from `base`'s, each with the rules that make the
 * difference (the Chain view's "differs on" badge): as compareChainsAcrossVersions, the chain is also
 * worked out at every rule boundary between the two versions, and only the rules of a boundary where
 * it changes are named. `chainAt` is synchronous (the renderer's model is a fraction of a millisecond
 * per version); each version is worked out once.
 */
export function differingVersions(
  base: { version: string; chain: LayerChain },
  versions: readonly string[],
  chainAt: (version: string) => LayerChain,
): { version: string; rules: string[] }[] {
  const cache = new Map<string, LayerChain>([[base.version, base.chain]]);
  const at = (v: string) => {
    let c = cache.get(v);
    if (!c) cache.set(v, (c = chainAt(v)));
    return c;
  };
  const sig = chainSignature(base.chain);
  return versions
    .filter((v) => v !== base.version && chainSignature(at(v)) !== sig)
    .map((version) => {
      const withSettings = Boolean(base.chain.settingsFile || at(version).settingsFile);
      let previous = at(compareLoaderVersions(base.version, version) <= 0 ? base.version : version);
      const rules: string[] = [];
      for (const boundary of ruleBoundaries(base.version, version)) {
        const chain = at(boundary);
        if (chainSignature(chain) !== chainSignature(previous)) rules.push(...rulesArrivingAt(boundary, withSettings).map((r) => r.id));
        previous = chain;
      }
      return { version, rules };
    });
}
