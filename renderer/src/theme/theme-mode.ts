/** Theme choice and its resolution; pure so the rules are unit-tested without a browser. */
export type ThemeMode = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_MODES: readonly ThemeMode[] = ['system', 'light', 'dark'];

export const THEME_MODE_LABELS: Readonly<Record<ThemeMode, string>> = {
  system: 'System',
  light: 'Light',
  dark: 'Dark',
};

export const THEME_STORAGE_KEY = 'strata.theme';

/** 'system' follows the OS (prefers-color-scheme); the others pin the theme. */
export function resolveTheme(mode: ThemeMode, systemPrefersDark: boolean): ResolvedTheme {
  if (mode === 'system') return systemPrefersDark ? 'dark' : 'light';
  return mode;
}

/** Whatever is in storage (another version's value, a hand edit, nothing) falls back to 'system'. */
export function parseThemeMode(stored: string | null | undefined): ThemeMode {
  return THEME_MODES.find((m) => m === stored) ?? 'system';
}
