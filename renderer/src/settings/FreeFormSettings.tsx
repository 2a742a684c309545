import { useState } from 'react';
import type { LayerSettingValues, SettingValue } from '../../../shared/settings/setting-values';
import { settingPrefix } from '../../../shared/settings/settings-file-format';

/**
 * For a layer whose manifest describes no settings: keys and values as text, written as
 * `<prefix>.<key> = <value>` like any other (the layer's documentation says which keys it reads).
 */
const KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;

function keyProblem(key: string, values: LayerSettingValues): string | null {
  if (key === '') return 'Give the setting a key';
  if (!KEY_PATTERN.test(key)) return 'A key has only letters, digits, _ . and -';
  if (Object.prototype.hasOwnProperty.call(values, key)) return `${key} is already set; change its value above`;
  return null;
}

const valueProblem = (value: string) => (/[\r\n]/.test(value) ? 'A value cannot contain a line break (one setting per line)' : null);

export function FreeFormSettings({
  layerName,
  values,
  onChange,
  idBase,
}: {
  layerName: string;
  values: LayerSettingValues;
  onChange: (key: string, value: SettingValue | undefined) => void;
  idBase: string;
}) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const prefix = settingPrefix(layerName);
  const add = () => {
    const p = keyProblem(key.trim(), values) ?? valueProblem(value);
    setProblem(p);
    if (p) return;
    onChange(key.trim(), value);
    setKey('');
    setValue('');
  };
  const entries = Object.entries(values);
  return (
    <div className="settings-freeform">
      <p className="muted">
        {layerName}&apos;s manifest describes no settings. Keys you add are written as <code>{prefix}.&lt;key&gt; = &lt;value&gt;</code>; the layer&apos;s
        documentation lists the keys it reads.
      </p>
      {entries.length > 0 && (
        <ul className="settings-freeform-list" aria-label={`Settings of ${layerName}`}>
          {entries.map(([k, v]) => (
            <FreeFormRow key={k} settingKey={k} value={Array.isArray(v) ? v.join(',') : String(v)} prefix={prefix} idBase={idBase} onChange={onChange} />
          ))}
        </ul>
      )}
      <form
        className="settings-freeform-add"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label htmlFor={`${idBase}-new-key`}>Key</label>
        <input
          id={`${idBase}-new-key`}
          className="setting-input"
          value={key}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${idBase}-new-error` : undefined}
          onChange={(e) => setKey(e.currentTarget.value)}
        />
        <label htmlFor={`${idBase}-new-value`}>Value</label>
        <input
          id={`${idBase}-new-value`}
          className="setting-input"
          value={value}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setValue(e.currentTarget.value)}
        />
        <button type="submit" className="button">
          Add setting
        </button>
        {problem && (
          <p className="setting-error" id={`${idBase}-new-error`} role="alert">
            {problem}
          </p>
        )}
      </form>
    </div>
  );
}

function FreeFormRow({
  settingKey,
  value,
  prefix,
  idBase,
  onChange,
}: {
  settingKey: string;
  value: string;
  prefix: string;
  idBase: string;
  onChange: (key: string, value: SettingValue | undefined) => void;
}) {
  const [text, setText] = useState(value);
  const id = `${idBase}-ff-${settingKey.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const problem = valueProblem(text);
  return (
    <li className="setting-field">
      <div className="setting-head">
        <label htmlFor={id}>
          <code>
            {prefix}.{settingKey}
          </code>
        </label>
        <button type="button" className="setting-reset" aria-label={`Remove ${settingKey}`} onClick={() => onChange(settingKey, undefined)}>
          Remove
        </button>
      </div>
      <input
        id={id}
        className="setting-input"
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          if (!valueProblem(next)) onChange(settingKey, next);
        }}
      />
      {problem && (
        <p className="setting-error" id={`${id}-error`} role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
