import { create } from 'zustand';

/** The layer whose settings the Settings view shows: kept while the user visits other views. */
interface SettingsViewState {
  layer: string | null;
  select(layer: string | null): void;
}

export const useSettingsView = create<SettingsViewState>()((set) => ({
  layer: null,
  select: (layer) => set({ layer }),
}));
