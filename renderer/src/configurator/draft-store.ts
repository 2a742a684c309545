import { create } from 'zustand';
import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import {
  configFromOverrideText,
  createDraft,
  discoveredLayerNames,
  isDraftDirty,
  moveLayerBy,
  moveLayerTo,
  rebaseDraft,
  setLayerSetting,
  setLayerState,
  type LayerDraft,
} from '../../../shared/configurator/layer-draft';
import type { LayerControl, OverrideConfig } from '../../../shared/override/override-config';
import type { OverrideStatus } from '../../../shared/override/override-status';
import type { SettingValue } from '../../../shared/settings/setting-values';
import { findLayerDescription } from '../../../shared/settings/layer-lookup';
import { settingsFromFileText } from '../../../shared/configurator/installed-settings-read';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';
import { applyPreferredOrder, loadPreferredOrder } from '../layers/preferred-order';
import { useDiscovery } from '../discovery/discovery-store';
import { normalizePath } from '../../../shared/configurator/draft-chain';

/**
 * The Layers editor's draft (shared/configurator/layer-draft.ts) and what it is compared with: the
 * override installed now (override.status). Edits change only the draft; Apply (apply-store.ts)
 * writes it. Derived data (dirty, the draft's inventory and chain) is computed by selectors, never
 * stored.
 */
interface DraftState {
  status: RequestState<OverrideStatus>;
  /** What the installed override asks for (null: none installed, or no override layer in the file). */
  installed: OverrideConfig | null;
  draft: LayerDraft | null;
  /** The inventory the draft was last built or rebased on. */
  basis: ManifestInventory | null;
  /** The profile the draft was loaded from (the header's switcher) and the draft as loaded, to tell "(edited)"; null once the draft is rebuilt from what is installed. */
  source: DraftSource | null;
  /**
   * What Apply or Disable just wrote to the override file (text null: removed) while discovery's
   * answer still holds the file as it was: until the answer holds this text, the panels place the
   * draft themselves (draft-view.ts), so the diagram never flashes the chain from before the write.
   */
  written: { path: string; text: string | null } | null;
  loadStatus(): Promise<void>;
  /** Build the draft, or rebase it on a new discovery answer. */
  sync(inventory: ManifestInventory): void;
  /** Moves `name` by `delta`; returns its new 1-based position and the count, or null when it did not move. */
  move(name: string, delta: number): { position: number; total: number } | null;
  moveTo(name: string, over: string): { position: number; total: number } | null;
  setState(name: string, state: LayerControl): void;
  setSetting(layer: string, key: string, value: SettingValue | undefined): void;
  /** Draft ← installed. */
  revert(): void;
  /** Draft ← a configuration from elsewhere (a profile): its states and order over every discovered layer; `from` names where it came from. */
  loadConfig(config: OverrideConfig, from?: { key: string; name: string }): void;
  /** Draft ← the profile it was loaded from, as loaded (the profile editor's Revert). */
  revertToSource(): void;
  /** The draft was saved into its source profile: it is what the profile holds now. */
  sourceSaved(): void;
  /** After apply or remove: the new status is what is installed; `keepDraft` keeps the user's order of 'auto' layers. */
  installedNow(status: OverrideStatus, keepDraft: boolean): void;
}

export interface DraftSource {
  /** The profiles list's key: "preset:<id>" or "profile:<name>". */
  key: string;
  name: string;
  loaded: OverrideConfig;
}

/**
 * What is installed, as a configuration: the override file's layers, and the settings of Strata's
 * vk_layer_settings.txt read back with the layers' descriptions (found in `inventory`).
 */
function installedOf(status: OverrideStatus, inventory: ManifestInventory | null): OverrideConfig | null {
  const names = inventory ? discoveredLayerNames(inventory).map((d) => d.name) : [];
  const settings = inventory ? settingsFromFileText(status.settings?.text, names, (n) => findLayerDescription(inventory, n)?.description ?? null) : {};
  const config = configFromOverrideText(status.ownership === 'absent' ? null : status.text, settings);
  if (!config && Object.keys(settings).length) return { layers: [], settings };
  return config;
}

export const useDraft = create<DraftState>()((set, get) => {
  let latest = 0;
  // The list order the user chose (saved at Apply) is put back; the On layers keep the installed order.
  const fresh = (installed: OverrideConfig | null, inventory: ManifestInventory) => {
    const status = get().status;
    const draft = createDraft(installed, discoveredLayerNames(inventory));
    return status.status === 'ready' ? applyPreferredOrder(draft, loadPreferredOrder(status.value.path)) : draft;
  };
  const placeOf = (draft: LayerDraft, name: string) => ({
    position: draft.config.layers.findIndex((l) => l.name === name) + 1,
    total: draft.config.layers.length,
  });
  const edit = (change: (d: LayerDraft) => LayerDraft): LayerDraft | null => {
    const { draft } = get();
    if (!draft) return null;
    const next = change(draft);
    if (next === draft) return null;
    set({ draft: next });
    return next;
  };

  return {
    status: { status: 'idle' },
    installed: null,
    draft: null,
    basis: null,
    source: null,
    written: null,

    loadStatus: async () => {
      const ticket = ++latest;
      if (get().status.status !== 'ready') set({ status: { status: 'loading' } });
      let next: RequestState<OverrideStatus>;
      try {
        next = { status: 'ready', value: await strataApi().call('override.status', {}) };
      } catch (e) {
        next = { status: 'error', error: toStrataError(e, 'override.status') };
      }
      if (ticket !== latest) return;
      if (next.status !== 'ready') {
        if (get().status.status !== 'ready') set({ status: next });
        return;
      }
      const { draft, installed: before } = get();
      const inv = useDiscovery.getState().manifests;
      const basis = get().basis ?? (inv.status === 'ready' ? inv.value : null);
      const installed = installedOf(next.value, basis);
      // A clean draft follows what is installed when that changed under it (someone else applied); a
      // dirty one is the user's work and stays. One that already matches stays too (its order of 'auto' layers is the user's).
      const follow = draft !== null && !isDraftDirty(draft, before) && isDraftDirty(draft, installed);
      // The file changed again after Strata's write (another tool): discovery's next answer is the truth.
      const written = get().written;
      const superseded = written !== null && (next.value.ownership === 'absent' ? null : next.value.text) !== written.text;
      set({ status: next, installed, ...(superseded ? { written: null } : {}), ...(follow && basis ? { draft: fresh(installed, basis), source: null } : {}) });
      if (inv.status === 'ready') get().sync(inv.value);
    },

    sync: (inventory) => {
      const { status, draft, basis } = get();
      if (status.status !== 'ready' || inventory === basis) return;
      // The settings' descriptions come from the manifests: read what is installed again with these.
      const installed = installedOf(status.value, inventory);
      set({ draft: draft ? rebaseDraft(draft, discoveredLayerNames(inventory)) : fresh(installed, inventory), basis: inventory, installed });
    },

    move: (name, delta) => {
      const next = edit((d) => moveLayerBy(d, name, delta));
      return next ? placeOf(next, name) : null;
    },
    moveTo: (name, over) => {
      const next = edit((d) => moveLayerTo(d, name, over));
      return next ? placeOf(next, name) : null;
    },
    setState: (name, state) => void edit((d) => setLayerState(d, name, state)),
    setSetting: (layer, key, value) => void edit((d) => setLayerSetting(d, layer, key, value)),

    revert: () => {
      const { basis, installed } = get();
      if (basis) set({ draft: fresh(installed, basis), source: null });
    },

    loadConfig: (config, from) => {
      const { basis } = get();
      if (!basis) return;
      const draft = fresh(config, basis);
      set({ draft, source: from ? { ...from, loaded: draft.config } : null });
    },

    revertToSource: () => {
      const { basis, source } = get();
      if (basis && source) set({ draft: fresh(source.loaded, basis) });
    },

    sourceSaved: () => {
      const { draft, source } = get();
      if (draft && source) set({ source: { ...source, loaded: draft.config } });
    },

    installedNow: (status, keepDraft) => {
      const { basis } = get();
      const installed = installedOf(status, basis);
      const inv = useDiscovery.getState().manifests;
      const written = { path: status.path, text: status.ownership === 'absent' ? null : status.text };
      set({
        status: { status: 'ready', value: status },
        installed,
        written: inv.status === 'ready' && discoveredOverrideText(inv.value, written.path) === written.text ? null : written,
        ...(!keepDraft && basis ? { draft: fresh(installed, basis), source: null } : {}),
      });
    },
  };
});

/** The text of the override file at `path` as discovery read it (null: discovery did not find it). */
export function discoveredOverrideText(inventory: ManifestInventory, path: string): string | null {
  const file = normalizePath(path);
  return (inventory.manifests.implicit_layer ?? []).find((m) => normalizePath(m.path) === file)?.text ?? null;
}

/** Whether the draft differs from what is installed (the unsaved-changes indicator). */
export const selectDirty = (s: Pick<DraftState, 'draft' | 'installed'>): boolean => s.draft !== null && isDraftDirty(s.draft, s.installed);

/** Whether the draft was changed since it was loaded from its source profile ("(edited)"). */
export const selectSourceEdited = (s: Pick<DraftState, 'draft' | 'source'>): boolean =>
  s.draft !== null && s.source !== null && isDraftDirty(s.draft, s.source.loaded);

// A new discovery answer (Refresh, or a manifest changed on disk) rebases the draft, and the
// installed override is read again: the change may be to the override file itself.
useDiscovery.subscribe((s, prev) => {
  if (s.manifests === prev.manifests || s.manifests.status !== 'ready') return;
  const draft = useDraft.getState();
  const { written } = draft;
  if (written && discoveredOverrideText(s.manifests.value, written.path) === written.text) useDraft.setState({ written: null });
  draft.sync(s.manifests.value);
  if (prev.manifests.status === 'ready' && draft.status.status !== 'idle') void draft.loadStatus();
});
