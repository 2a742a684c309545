import { useTheme, selectResolvedTheme } from './theme-store';
import { parseThemeMode, THEME_STORAGE_KEY, type ThemeMode } from './theme-mode';

function readStoredMode(): ThemeMode {
  try {
    return parseThemeMode(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system'; // storage can be disabled; the theme still works, it just is not remembered
  }
}

function storeMode(mode: ThemeMode) {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, mode);
  } catch {
    // Same as above: not remembering the choice is better than failing.
  }
}

/**
 * The theme's edge with the browser: the saved choice, the OS preference, and `data-theme` on
 * <html>. Runs before the first render so the page never paints in the wrong theme.
 */
export function connectTheme(): () => void {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  useTheme.setState({ mode: readStoredMode(), systemPrefersDark: query.matches });

  const apply = () => {
    document.documentElement.dataset['theme'] = selectResolvedTheme(useTheme.getState());
  };
  apply();

  const onSystemChange = (e: MediaQueryListEvent) => useTheme.getState().setSystemPrefersDark(e.matches);
  query.addEventListener('change', onSystemChange);

  // Another Strata window (same origin) changed the theme: follow it.
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY) useTheme.getState().setMode(parseThemeMode(e.newValue));
  };
  window.addEventListener('storage', onStorage);

  const unsubscribe = useTheme.subscribe((state, previous) => {
    if (state.mode !== previous.mode) storeMode(state.mode);
    apply();
  });

  return () => {
    query.removeEventListener('change', onSystemChange);
    window.removeEventListener('storage', onStorage);
    unsubscribe();
  };
}
