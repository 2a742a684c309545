import { THEME_MODES, THEME_MODE_LABELS } from './theme-mode';
import { selectResolvedTheme, useTheme } from './theme-store';
import { ThemeIcon } from '../ui/Icon';

/**
 * Native radio buttons drawn as a segmented control: arrow keys, Tab and screen readers behave
 * as they do for any radio group, without re-implementing them.
 */
export function ThemeSwitcher() {
  const mode = useTheme((s) => s.mode);
  const setMode = useTheme((s) => s.setMode);
  const resolved = useTheme(selectResolvedTheme);

  return (
    <fieldset className="theme-switcher">
      <legend className="theme-switcher-legend">Theme</legend>
      <div className="segmented">
        {THEME_MODES.map((m) => (
          <label className="segment" key={m}>
            <input type="radio" name="theme-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            <span className="segment-face">
              <ThemeIcon mode={m} />
              {THEME_MODE_LABELS[m]}
            </span>
          </label>
        ))}
      </div>
      <p className="theme-switcher-hint" aria-live="polite">
        {mode === 'system' ? `Following the system: ${THEME_MODE_LABELS[resolved].toLowerCase()}` : '\u00a0'}
      </p>
    </fieldset>
  );
}
