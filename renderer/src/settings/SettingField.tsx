import { useEffect, useState, type ReactElement } from 'react';
import type { SettingValue } from '../../../shared/settings/setting-values';
import type { Platform, SettingDescription, SettingOption } from '../../../shared/settings/setting-types';
import type { SettingState } from '../../../shared/settings/effective-settings';
import { checkSettingValue, parseSettingText } from '../../../shared/settings/setting-validation';
import { formatSettingValue } from '../../../shared/settings/settings-file-format';
import { availableOn } from '../../../shared/settings/setting-platforms';

/**
 * One setting of the form: the control its type calls for, its description, why it is disabled
 * (dependence), an inline message when the typed value does not fit (aria-invalid, and
 * aria-describedby pointing at the message), and "Reset" when it differs from the default.
 * Text and number fields keep what is typed until it is valid, so a half-typed value is never sent.
 */
export interface SettingFieldProps {
  state: SettingState;
  /** A prefix unique in the page, for ids. */
  idBase: string;
  platform: Platform;
  onChange: (key: string, value: SettingValue | undefined) => void;
}

const idPart = (key: string) => key.replace(/[^A-Za-z0-9_-]/g, '_');

function shownDefault(s: SettingDescription): string {
  if (s.type === 'GROUP') return '';
  const text = formatSettingValue(s.default);
  return text === '' ? '(empty)' : text;
}

export function SettingField({ state, idBase, platform, onChange }: SettingFieldProps) {
  const s = state.setting;
  const id = `${idBase}-${idPart(s.key)}`;
  const [message, setMessage] = useState<string | null>(null);
  const disabled = !state.dependence.enabled;
  const described = [`${id}-desc`, disabled ? `${id}-why` : null, message ? `${id}-error` : null].filter(Boolean).join(' ');
  const set = (value: SettingValue) => {
    const problem = checkSettingValue(s, value);
    setMessage(problem);
    if (!problem) onChange(s.key, value);
  };
  const reset = () => {
    setMessage(null);
    onChange(s.key, undefined);
  };
  const common = { id, disabled, 'aria-describedby': described, 'aria-invalid': message ? true : undefined } as const;

  let control: ReactElement | null;
  switch (s.type) {
    case 'GROUP':
      control = null;
      break;
    case 'BOOL':
      control = <input {...common} type="checkbox" checked={state.value === true} onChange={(e) => set(e.currentTarget.checked)} />;
      break;
    case 'ENUM':
      control = (
        <select {...common} value={String(state.value)} onChange={(e) => set(e.currentTarget.value)}>
          {visibleOptions(s.options, platform, [String(state.value)]).map((o) => (
            <option key={o.key} value={o.key}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'FLAGS': {
      const current = Array.isArray(state.value) ? state.value : [];
      control = (
        <div className="setting-flags" role="group" aria-labelledby={`${id}-label`} aria-describedby={described} id={id}>
          {visibleOptions(s.options, platform, current).map((o) => (
            <label key={o.key} className="setting-flag" title={o.description}>
              <input
                type="checkbox"
                disabled={disabled}
                checked={current.includes(o.key)}
                onChange={(e) => set(e.currentTarget.checked ? [...current, o.key] : current.filter((k) => k !== o.key))}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
      );
      break;
    }
    default:
      control = <TextControl state={state} common={common} onValue={set} onProblem={setMessage} />;
  }

  const label = (
    <span className="setting-label" id={`${id}-label`}>
      {s.label}
      {s.status !== 'STABLE' && <span className="setting-status"> {s.status.toLowerCase()}</span>}
    </span>
  );
  return (
    <div className={`setting-field type-${s.type.toLowerCase()}${state.changed ? ' is-changed' : ''}${disabled ? ' is-disabled' : ''}`}>
      <div className="setting-head">
        {s.type === 'BOOL' ? (
          <label className="setting-check" htmlFor={id}>
            {control}
            {label}
          </label>
        ) : s.type === 'FLAGS' || s.type === 'GROUP' ? (
          label
        ) : (
          <label htmlFor={id}>{label}</label>
        )}
        {state.changed && (
          <button type="button" className="setting-reset" onClick={reset} aria-label={`Reset ${s.label} to its default (${shownDefault(s)})`}>
            Reset
          </button>
        )}
      </div>
      {s.type !== 'BOOL' && control}
      <p className="setting-desc" id={`${id}-desc`}>
        {s.description}
        {s.type !== 'GROUP' && (
          <span className="setting-meta">
            {' '}
            <code>{s.key}</code> · default {shownDefault(s)}
            {s.env && (
              <>
                {' '}
                · <code>{s.env}</code>
              </>
            )}
          </span>
        )}
      </p>
      {disabled && (
        <p className="setting-why" id={`${id}-why`}>
          {state.dependence.reason}
        </p>
      )}
      {message && (
        <p className="setting-error" id={`${id}-error`} role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** Options for this platform and not HIDDEN, plus any that are selected anyway (so a value is never invisible). */
function visibleOptions(options: readonly SettingOption[], platform: Platform, selected: readonly string[]): SettingOption[] {
  return options.filter((o) => selected.includes(o.key) || (availableOn(o, platform) && o.view !== 'HIDDEN'));
}

interface TextControlProps {
  state: SettingState;
  common: Record<string, unknown>;
  onValue: (value: SettingValue) => void;
  onProblem: (message: string | null) => void;
}

/** INT, FLOAT, STRING, files, folders, FRAMES, LIST: typed as text, sent once it reads as a valid value. */
function TextControl({ state, common, onValue, onProblem }: TextControlProps) {
  const s = state.setting;
  const external = state.value === undefined ? '' : formatSettingValue(state.value);
  const [text, setText] = useState(external);
  // A reset or a preset from outside replaces what is typed.
  useEffect(() => setText(external), [external]);
  const numeric = s.type === 'INT' || s.type === 'FLOAT';
  const list = s.type === 'LIST';
  const change = (next: string) => {
    setText(next);
    const parsed = parseSettingText(s, next);
    if ('error' in parsed) onProblem(parsed.error);
    else onValue(parsed.value);
  };
  return (
    <input
      {...common}
      className="setting-input"
      type="text"
      inputMode={numeric ? (s.type === 'INT' ? 'numeric' : 'decimal') : undefined}
      spellCheck={false}
      autoComplete="off"
      placeholder={list ? 'comma-separated, e.g. VUID-a,VUID-b' : s.type === 'FRAMES' ? 'e.g. 0-5,10' : undefined}
      value={text}
      onChange={(e) => change(e.currentTarget.value)}
    />
  );
}
