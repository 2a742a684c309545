import { z } from 'zod';

/**
 * Which loader rules the chain model applies for a given loader version. The model follows Debian's
 * loader 1.3.239 (loader.c, loader_environment.c at tag v1.3.239); rules that arrived later or
 * earlier are keyed here on the version the real loader reports (vkEnumerateInstanceVersion).
 */

export const RULES_VERSION = '1.3.239';

export const LoaderRuleIdSchema = z.enum(['layer-chain', 'layer-filters', 'layers-allow']);
export type LoaderRuleId = z.infer<typeof LoaderRuleIdSchema>;

export const LoaderRuleUseSchema = z.object({
  id: LoaderRuleIdSchema,
  /** The first loader version that has the rule. */
  since: z.string(),
  applied: z.boolean(),
  summary: z.string(),
});
export type LoaderRuleUse = z.infer<typeof LoaderRuleUseSchema>;

interface LoaderRule {
  id: LoaderRuleId;
  since: string;
  summary: string;
  /** Rules the model knows of but does not implement (a newer loader's). */
  modeled: boolean;
}

const RULES: readonly LoaderRule[] = [
  {
    id: 'layer-chain',
    since: '1.0.0',
    summary: 'implicit layers (enable_environment / disable_environment), VK_INSTANCE_LAYERS, requested layers, meta-layers, the override layer, duplicates and chain order, as loader 1.3.239 does them',
    modeled: true,
  },
  { id: 'layer-filters', since: '1.3.234', summary: 'VK_LOADER_LAYERS_ENABLE / VK_LOADER_LAYERS_DISABLE layer-name filters', modeled: true },
  { id: 'layers-allow', since: '1.3.262', summary: 'VK_LOADER_LAYERS_ALLOW (exempts layers from VK_LOADER_LAYERS_DISABLE); not modeled', modeled: false },
];

/** "1.3.239" → [1, 3, 239]; missing or unreadable parts are 0. */
function parts(v: string): [number, number, number] {
  const [a = 0, b = 0, c = 0] = v.split('.').map((p) => Number.parseInt(p, 10) || 0);
  return [a, b, c];
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareLoaderVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The loader has the rule (an unknown version is taken as RULES_VERSION). */
export function loaderHas(version: string | null, id: LoaderRuleId): boolean {
  const rule = RULES.find((r) => r.id === id)!;
  return compareLoaderVersions(version ?? RULES_VERSION, rule.since) >= 0;
}

/** Every rule with whether the model applied it for this loader version. */
export function rulesFor(version: string | null): LoaderRuleUse[] {
  return RULES.map((r) => ({ id: r.id, since: r.since, applied: r.modeled && loaderHas(version, r.id), summary: r.summary }));
}
