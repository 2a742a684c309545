import { create } from 'zustand';
import type { LayerTypeFilter } from './layer-rows';

/** What the user chose in the Layers panel: kept while they visit other panels. */
interface LayersViewState {
  query: string;
  type: LayerTypeFilter;
  /** A row key (layer-rows.ts); stays set across a refresh when the same layer is still there. */
  selected: string | null;
  /** What the editor's polite live region says last ("VK_LAYER_X moved to position 3 of 7"). */
  announcement: { text: string; seq: number };
  /** The details and settings take the wider column (the list the narrower one). */
  wideDetails: boolean;
  setWideDetails(wide: boolean): void;
  setQuery(query: string): void;
  setType(type: LayerTypeFilter): void;
  select(key: string | null): void;
  /** Say `text` through the live region; the same words twice are said twice. */
  announce(text: string): void;
}

export const useLayersView = create<LayersViewState>()((set) => ({
  query: '',
  type: 'all',
  selected: null,
  announcement: { text: '', seq: 0 },
  wideDetails: false,
  setWideDetails: (wideDetails) => set({ wideDetails }),
  setQuery: (query) => set({ query }),
  setType: (type) => set({ type }),
  select: (selected) => set({ selected }),
  announce: (text) => set((s) => ({ announcement: { text, seq: s.announcement.seq + 1 } })),
}));
