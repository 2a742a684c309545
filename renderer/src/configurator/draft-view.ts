import { useEffect } from 'react';
import type { ChainContext } from '../../../shared/configurator/chain-context';
import { computeDraftChain, inventoryWithOverride, type DraftInventory } from '../../../shared/configurator/draft-chain';
import { draftConfig, isDraftDirty, type LayerDraft } from '../../../shared/configurator/layer-draft';
import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { LayerChain } from '../../../shared/loader/chain';
import { differingVersions } from '../../../shared/loader/chain-compare';
import { PROVEN_VERSIONS } from '../../../shared/loader/loader-rules';
import type { OverrideConfig } from '../../../shared/override/override-config';
import { useDiscoveryLoaded } from '../discovery/use-discovery-loaded';
import { useChain, type ChainRequest } from '../chain/chain-store';
import { useChainContext } from '../chain/chain-context-store';
import { useDiscovery } from '../discovery/discovery-store';
import { useDraft } from './draft-store';

/**
 * Selectors for what the Layers, Chain and Problems panels show of the draft: the inventory with the
 * draft's override in place, and its chain. Each is computed once per change of its inputs, however
 * many components read it (a one-entry memo keyed on the inputs' identity: the stores replace an
 * object whenever it changes).
 */
function memoLast<A extends readonly unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; value: R } | null = null;
  return (...args: A) => {
    if (last && last.args.length === args.length && last.args.every((a, i) => Object.is(a, args[i]))) return last.value;
    const value = fn(...args);
    last = { args, value };
    return value;
  };
}

export interface DraftView {
  /** Discovery and the chain context have answered: the chain can be worked out. */
  ready: boolean;
  /** What the panels show: the discovered inventory, with the draft's override in place when the draft differs from what is installed. */
  inventory: ManifestInventory | null;
  dirty: boolean;
  /** The draft's configuration as Apply would send it (null: no layer on or off). */
  config: OverrideConfig | null;
  /** The draft's override manifest as placed (only while dirty). */
  override: DraftInventory['override'];
  /** False when the loader does not read the folder Strata writes to. */
  visible: boolean;
  context: ChainContext | null;
}

const draftView = memoLast(
  (
    discovered: ManifestInventory | null,
    context: ChainContext | null,
    draft: LayerDraft | null,
    installed: OverrideConfig | null,
    statusReady: boolean,
    writtenPending: boolean,
  ): DraftView => {
    const ready = discovered !== null && context !== null;
    // Without the installed override (not read yet, or reading it failed) there is no draft: the discovered state is shown.
    if (!ready || draft === null || !statusReady) return { ready, inventory: discovered, dirty: false, config: null, override: null, visible: true, context };
    const dirty = isDraftDirty(draft, installed);
    const config = draftConfig(draft);
    // A clean draft shows what is on disk as it is (a foreign override included), not Strata's rewrite of it.
    // Right after Apply or Disable discovery still holds the file as it was: the draft (what was just
    // written) is placed until discovery's reload holds the new file, so the old chain never flashes.
    if (!dirty && !writtenPending) return { ready, inventory: discovered, dirty, config, override: null, visible: true, context };
    if (!dirty)
      return { ready, inventory: inventoryWithOverride(discovered, context, config).inventory, dirty, config, override: null, visible: true, context };
    const placed = inventoryWithOverride(discovered, context, config);
    return { ready, inventory: placed.inventory, dirty, config, override: placed.override, visible: placed.visible, context };
  },
);

/** The draft as the panels show it (re-renders only when one of its inputs changes). */
export function useDraftView(): DraftView {
  const manifests = useDiscovery((s) => s.manifests);
  const context = useChainContext((s) => s.context);
  const draft = useDraft((s) => s.draft);
  const installed = useDraft((s) => s.installed);
  const statusReady = useDraft((s) => s.status.status === 'ready');
  const writtenPending = useDraft((s) => s.written !== null);
  return draftView(
    manifests.status === 'ready' ? manifests.value : null,
    context.status === 'ready' ? context.value : null,
    draft,
    installed,
    statusReady,
    writtenPending,
  );
}

/** The draft's chain for one loader version (null: the installed loader's). */
function chainFor(view: DraftView & { inventory: ManifestInventory; context: ChainContext }, request: ChainRequest, loaderVersion: string | null): LayerChain {
  const context = loaderVersion ? { ...view.context, loaderVersion } : view.context;
  return computeDraftChain(
    view.inventory,
    context,
    { path: request.appPath, requestedLayers: request.requestedLayers, apiVersion: request.apiVersion },
    view.dirty ? view.config : null,
  );
}

const draftChain = memoLast((view: DraftView, request: ChainRequest): LayerChain | null => {
  if (!view.ready || !view.inventory || !view.context) return null;
  const chain = chainFor({ ...view, inventory: view.inventory, context: view.context }, request, request.loaderVersion);
  if (view.dirty && !view.visible)
    chain.notes.push(
      `Strata's override file (${view.context.overrideFile}) is not in a folder the loader searches for implicit layers, so applying this draft would change nothing`,
    );
  return chain;
});

/** The chain the application of the Chain panel's form gets with the draft (the same request in both panels). */
export function useDraftChain(view: DraftView): LayerChain | null {
  const request = useChain((s) => s.explained);
  return draftChain(view, request);
}

/** Loads what the draft needs the first time a panel that shows it opens. */
export function useDraftLoaded() {
  useDiscoveryLoaded();
  // After discovery has answered: the list can show first, and main is not asked to discover twice at once (chain.context discovers too).
  const discovered = useDiscovery((s) => s.manifests.status === 'ready');
  const contextIdle = useChainContext((s) => s.context.status === 'idle');
  const statusIdle = useDraft((s) => s.status.status === 'idle');
  useEffect(() => {
    if (discovered && contextIdle) void useChainContext.getState().load();
  }, [discovered, contextIdle]);
  useEffect(() => {
    if (discovered && statusIdle) void useDraft.getState().loadStatus();
  }, [discovered, statusIdle]);
}

/**
 * The loaders of the matrix whose chain for the same request differs from the one shown, each with
 * the rules that make the difference ("differs on" in the Chain view). The model is a fraction of a
 * millisecond per version, so every version (and every rule boundary between two that differ) is
 * worked out here.
 */
const draftDifferences = memoLast((view: DraftView, request: ChainRequest, shown: LayerChain | null): { version: string; rules: string[] }[] => {
  if (!shown || !view.ready || !view.inventory || !view.context) return [];
  const v = { ...view, inventory: view.inventory, context: view.context };
  const base = { version: shown.loaderVersion ?? shown.rulesVersion, chain: shown };
  return differingVersions(base, PROVEN_VERSIONS, (version) => chainFor(v, request, version));
});

export function useDraftDifferences(view: DraftView, shown: LayerChain | null): { version: string; rules: string[] }[] {
  const request = useChain((s) => s.explained);
  return draftDifferences(view, request, shown);
}
