import type { LayerDraft } from '../../../shared/configurator/layer-draft';

/**
 * The list order the user chose, kept across reloads. The override file holds the order of the
 * layers that are On only (its component_layers); where the other layers sat in the list is the
 * user's arrangement, saved by the UI at each Apply and put back when the draft is built again.
 * The On layers keep the order installed whatever was saved: that order is what the loader gets.
 */
export function applyPreferredOrder(draft: LayerDraft, order: readonly string[]): LayerDraft {
  if (order.length === 0) return draft;
  const rank = new Map(order.map((n, i) => [n, i]));
  const layers = draft.config.layers;
  let last = -1;
  // A name the saved order does not know stays right after the known layer before it.
  const keyed = layers.map((l, i) => {
    const r = rank.get(l.name);
    if (r !== undefined) last = r;
    return { l, k: r ?? last + 0.5, i };
  });
  keyed.sort((a, b) => a.k - b.k || a.i - b.i);
  const on = layers.filter((l) => l.state === 'on');
  let next = 0;
  const out = keyed.map(({ l }) => (l.state === 'on' ? on[next++]! : l));
  return out.every((l, i) => l === layers[i]) ? draft : { ...draft, config: { ...draft.config, layers: out } };
}

const KEY = 'strata.layers.order';

/** The page's localStorage, if there is one (unit tests run without a DOM). */
const storage = (): { getItem(k: string): string | null; setItem(k: string, v: string): void } | undefined =>
  (globalThis as { localStorage?: { getItem(k: string): string | null; setItem(k: string, v: string): void } }).localStorage;

/** The saved order for this override file (the key names it: another HOME, another order). */
export function loadPreferredOrder(overrideFile: string): string[] {
  try {
    const saved = JSON.parse(storage()?.getItem(`${KEY}:${overrideFile}`) ?? '[]') as unknown;
    return Array.isArray(saved) ? saved.filter((n): n is string => typeof n === 'string').slice(0, 10_000) : [];
  } catch {
    return [];
  }
}

export function savePreferredOrder(overrideFile: string, draft: LayerDraft): void {
  try {
    storage()?.setItem(`${KEY}:${overrideFile}`, JSON.stringify(draft.config.layers.map((l) => l.name)));
  } catch {
    // Storage full or refused (a private window): the order then follows discovery after a reload, as before.
  }
}
