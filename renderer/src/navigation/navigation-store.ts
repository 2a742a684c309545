import { create } from 'zustand';
import { DEFAULT_PANEL, type PanelId } from '../panels/panel-list';

interface NavigationState {
  panel: PanelId;
  /**
   * Bumped each time the user (or the host) opens a panel, so the panel can move focus to its
   * heading; stays 0 on first load so the skip link remains the first thing Tab reaches.
   */
  focusRequest: number;
  open(panel: PanelId): void;
}

export const useNavigation = create<NavigationState>()((set) => ({
  panel: DEFAULT_PANEL,
  focusRequest: 0,
  open: (panel) => set((s) => ({ panel, focusRequest: s.focusRequest + 1 })),
}));
