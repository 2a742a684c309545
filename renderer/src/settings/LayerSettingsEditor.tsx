import { useEffect, useId, useMemo, useState } from 'react';
import { DiagnosticSeverity } from '../../../shared/lint/diagnostic-severity';
import type { LayerSettingValues, SettingValue } from '../../../shared/settings/setting-values';
import type { Platform } from '../../../shared/settings/setting-types';
import { undescribedLayer } from '../../../shared/settings/settings-schema';
import { defaultOf } from '../../../shared/settings/effective-settings';
import { sameSettingValue } from '../../../shared/settings/setting-validation';
import { platformName, platformOf } from '../../../shared/settings/setting-platforms';
import { useAppInfo } from '../about/app-info-store';
import { buildFormModel } from './settings-form-model';
import { SettingField } from './SettingField';
import { SettingsPreview } from './SettingsPreview';
import { SettingsExportButtons } from './SettingsExportButtons';
import { FreeFormSettings } from './FreeFormSettings';
import { settingsDescription } from './settings-descriptions';
import '../styles/settings.css';

/**
 * The settings form of one layer, controlled: the Layers editor owns the draft and passes the
 * layer's current values; every edit comes back through onChange (undefined = back to default).
 * The form is generated from the manifest's settings description (file_format_version 1.2.0,
 * shared/settings/settings-schema.ts): grouped and nested as the manifest nests them, searchable,
 * each setting with "Reset", inline validation and the reason when its dependence disables it;
 * settings of other platforms are left out with a count. Below: the exact vk_layer_settings.txt
 * lines and environment variables the values produce, and the exports. A layer without a
 * description gets a free-form key/value editor.
 */
export interface LayerSettingsEditorProps {
  layerName: string;
  /** The manifest file the layer comes from, and its text (the settings description is parsed from it). */
  manifestPath: string;
  manifestText: string;
  values: LayerSettingValues;
  onChange: (key: string, value: SettingValue | undefined) => void;
  /** The platform whose settings to show and write; by default the host's (app.info), Linux until it is known. */
  platform?: Platform;
  /** The Settings view: the tree scrolls in its own column, and what is written stays beside it. */
  wide?: boolean;
}

export function LayerSettingsEditor({ layerName, manifestPath, manifestText, values, onChange, platform: asked, wide = false }: LayerSettingsEditorProps) {
  // A Windows host writes settings the Windows way (registered in the registry): SettingsPreview says where.
  const host = useAppInfo((s) => (s.appInfo.status === 'ready' ? platformOf(s.appInfo.value.platform) : null));
  const platform: Platform = asked ?? host ?? 'LINUX';
  const appInfoIdle = useAppInfo((s) => s.appInfo.status === 'idle');
  useEffect(() => {
    if (appInfoIdle && !asked) void useAppInfo.getState().loadAppInfo();
  }, [appInfoIdle, asked]);
  const idBase = `settings${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const [query, setQuery] = useState('');
  const description = useMemo(() => settingsDescription(manifestText, layerName).description ?? undescribedLayer(layerName), [manifestText, layerName]);
  const model = useMemo(() => buildFormModel(description, values, platform, query), [description, values, platform, query]);
  const input = { description, values };
  const problems = description.diagnostics;

  const className = `settings-editor${wide ? ' is-wide' : ''}`;
  const side = (
    <div className="settings-side">
      <SettingsPreview input={input} platform={platform} idBase={idBase} />
      <SettingsExportButtons input={input} platform={platform} idBase={idBase} />
    </div>
  );
  if (!description.described)
    return (
      <section className={className} aria-label={`Settings of ${layerName}`}>
        <div className="settings-main">
          <FreeFormSettings layerName={layerName} values={values} onChange={onChange} idBase={idBase} />
          {problems.length > 0 && <DescriptionProblems problems={problems} manifestPath={manifestPath} />}
        </div>
        {side}
      </section>
    );

  const applyPreset = (label: string) => {
    const preset = description.presets.find((p) => p.label === label);
    if (!preset) return;
    for (const [key, value] of Object.entries(preset.values)) {
      const setting = description.byKey.get(key);
      const def = setting ? defaultOf(setting) : undefined;
      onChange(key, def !== undefined && sameSettingValue(setting, value, def) ? undefined : value);
    }
  };
  const presets = description.presets.filter((p) => p.platforms.includes(platform));

  return (
    <section className={className} aria-label={`Settings of ${layerName}`}>
      <div className="settings-main">
        <div className="settings-toolbar">
          <label className="visually-hidden" htmlFor={`${idBase}-search`}>
            Search the settings of {layerName}
          </label>
          <input
            id={`${idBase}-search`}
            className="setting-input settings-search"
            type="search"
            placeholder="Search settings"
            value={query}
            aria-describedby={`${idBase}-count`}
            onChange={(e) => setQuery(e.currentTarget.value)}
          />
          {presets.length > 0 && (
            <>
              <label className="visually-hidden" htmlFor={`${idBase}-preset`}>
                Apply a preset of {layerName}
              </label>
              <select
                id={`${idBase}-preset`}
                className="settings-preset"
                value=""
                onChange={(e) => {
                  applyPreset(e.currentTarget.value);
                }}
              >
                <option value="">Apply a preset…</option>
                {presets.map((p) => (
                  <option key={p.label} value={p.label} title={p.description}>
                    {p.label}
                  </option>
                ))}
              </select>
            </>
          )}
        </div>
        <p className="settings-count muted" id={`${idBase}-count`} aria-live="polite">
          {query.trim() ? `${model.rows.filter((r) => r.match).length} of ${model.total} settings match` : `${model.total} settings`}
          {model.changed > 0 && ` · ${model.changed} changed`}
          {model.otherPlatforms > 0 && ` · ${model.otherPlatforms} settings for other platforms than ${platformName(platform)} are not shown`}
        </p>
        {model.rows.length === 0 ? (
          <p className="muted">No setting matches “{query}”.</p>
        ) : (
          <div className="settings-list" data-testid="settings-list">
            {model.rows.map((row) =>
              row.state.setting.type === 'GROUP' ? (
                <h4 key={row.state.setting.key} className="settings-group" style={{ marginInlineStart: `${row.depth * 14}px` }}>
                  {row.state.setting.label}
                </h4>
              ) : (
                <div key={row.state.setting.key} className="settings-row" style={{ marginInlineStart: `${row.depth * 14}px` }}>
                  <SettingField state={row.state} idBase={idBase} platform={platform} onChange={onChange} />
                </div>
              ),
            )}
          </div>
        )}
        {problems.length > 0 && <DescriptionProblems problems={problems} manifestPath={manifestPath} />}
      </div>
      {side}
    </section>
  );
}

function DescriptionProblems({ problems, manifestPath }: { problems: ReturnType<typeof undescribedLayer>['diagnostics']; manifestPath: string }) {
  const errors = problems.filter((p) => p.severity === DiagnosticSeverity.Error).length;
  return (
    <details className="settings-problems">
      <summary>
        {problems.length} problem{problems.length === 1 ? '' : 's'} in this layer&apos;s settings description{errors ? ` (${errors} left out)` : ''}
      </summary>
      <ul>
        {problems.map((p, i) => (
          <li key={i}>
            <code>
              {manifestPath}:{p.range.start.line + 1}
            </code>{' '}
            {typeof p.message === 'string' ? p.message : p.message.value}
          </li>
        ))}
      </ul>
    </details>
  );
}
