import { create } from 'zustand';
import type { LayerTypeFilter } from '../layers/layer-rows';

/** What the user chose in the Layers panel: kept while they visit other panels. */
interface LayersViewState {
  query: string;
  type: LayerTypeFilter;
  /** A LayerRow key; stays set across a refresh when the same layer is still there. */
  selected: string | null;
  setQuery(query: string): void;
  setType(type: LayerTypeFilter): void;
  select(key: string | null): void;
}

export const useLayersView = create<LayersViewState>()((set) => ({
  query: '',
  type: 'all',
  selected: null,
  setQuery: (query) => set({ query }),
  setType: (type) => set({ type }),
  select: (selected) => set({ selected }),
}));
