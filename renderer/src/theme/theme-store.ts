import { create } from 'zustand';
import { resolveTheme, type ResolvedTheme, type ThemeMode } from './theme-mode';

interface ThemeState {
  mode: ThemeMode;
  /** What the OS asks for through prefers-color-scheme; kept current by theme/theme-sync. */
  systemPrefersDark: boolean;
  setMode(mode: ThemeMode): void;
  setSystemPrefersDark(dark: boolean): void;
}

export const useTheme = create<ThemeState>()((set) => ({
  mode: 'system',
  systemPrefersDark: false,
  setMode: (mode) => set({ mode }),
  setSystemPrefersDark: (systemPrefersDark) => set({ systemPrefersDark }),
}));

/** Derived, not stored twice. */
export const selectResolvedTheme = (s: ThemeState): ResolvedTheme => resolveTheme(s.mode, s.systemPrefersDark);
