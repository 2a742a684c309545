import { useEffect, useMemo } from 'react';
import { useDraftLoaded, useDraftView } from '../configurator/draft-view';
import { layerRows } from '../layers/layer-rows';
import { LayerSettingsEditor } from './LayerSettingsEditor';
import { listedDescription } from './settings-descriptions';
import { useDraft } from '../configurator/draft-store';
import { useSettingsView } from './settings-view-store';
import { ApplyDialogs } from '../configurator/ApplyDialogs';
import { DraftActions } from '../configurator/DraftActions';
import { LoadingLine } from '../ui/LoadingLine';
import { ProfileEditBar } from '../profiles/ProfileEditBar';
import '../styles/layers.css';
import '../styles/layers-editor.css';
import '../styles/settings.css';

interface SettingsLayer {
  name: string;
  manifestPath: string;
  manifestText: string;
  /** Settings the manifest describes (0: free-form key/value). */
  described: number;
}

/**
 * Settings: the layer settings of the configuration being edited (the global override, or the
 * profile opened in the editor) as a view of its own. Layers that describe settings on the left;
 * the chosen layer's settings tree in a wide column that scrolls by itself, with search, the
 * manifest's presets and a Reset on each setting; beside it, the exact vk_layer_settings.txt text
 * and variables the values produce. Edits go to the same draft as the Layers editor: Apply (or Save
 * profile) writes them, and its summary lists each setting changed.
 */
export function SettingsView() {
  useDraftLoaded();
  const view = useDraftView();
  const settings = useDraft((s) => s.draft?.config.settings);
  const selected = useSettingsView((s) => s.layer);
  const select = useSettingsView((s) => s.select);

  const layers = useMemo(() => {
    const out: SettingsLayer[] = [];
    const seen = new Set<string>();
    for (const row of view.inventory ? layerRows(view.inventory) : []) {
      const name = row.layer?.name;
      const text = row.manifest.text;
      if (!name || !text || seen.has(name)) continue;
      const { described } = listedDescription(text, name);
      // Layers with a settings description, and any other layer the configuration already sets values for.
      if (described === 0 && !settings?.[name]) continue;
      seen.add(name);
      out.push({ name, manifestPath: row.manifest.path, manifestText: text, described });
    }
    return out.sort((a, b) => Number(b.described > 0) - Number(a.described > 0) || a.name.localeCompare(b.name));
  }, [view.inventory, settings]);

  const current = layers.find((l) => l.name === selected) ?? layers[0] ?? null;
  useEffect(() => {
    if (current && current.name !== selected) select(current.name);
  }, [current, selected, select]);

  const editable = useDraft((s) => s.draft !== null && s.status.status === 'ready');

  return (
    <div className="settings-view layers-editor" data-testid="settings-view">
      <ProfileEditBar />
      <DraftActions />
      {!view.inventory ? (
        <LoadingLine text="Reading the layer manifests…" />
      ) : layers.length === 0 ? (
        <p className="muted">No discovered layer describes settings (manifest file_format_version 1.2.0 “features.settings”).</p>
      ) : (
        <div className="settings-view-body">
          <nav className="settings-layers" aria-label="Layers with settings">
            <ul>
              {layers.map((l) => {
                const changed = Object.keys(settings?.[l.name] ?? {}).length;
                return (
                  <li key={l.name}>
                    <button
                      type="button"
                      className="settings-layer"
                      aria-current={l.name === current?.name ? 'true' : undefined}
                      data-testid="settings-layer"
                      data-layer={l.name}
                      onClick={() => select(l.name)}
                    >
                      <span className="settings-layer-name">
                        {l.name.split('_').map((part, i) => (
                          <span key={i}>
                            {i > 0 && (
                              <>
                                _<wbr />
                              </>
                            )}
                            {part}
                          </span>
                        ))}
                      </span>
                      <span className="settings-layer-meta muted">
                        {l.described > 0 ? `${l.described} settings` : 'free-form'}
                        {changed > 0 && (
                          <span className="settings-layer-changed" data-testid="settings-layer-changed">
                            {' '}
                            · {changed} set
                          </span>
                        )}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </nav>
          {current && (
            <div className="settings-view-editor" data-testid="settings-view-editor" data-layer={current.name}>
              <h2 className="settings-view-title">{current.name}</h2>
              {!editable && <p className="muted">Strata’s override is being read; the settings can be edited in a moment.</p>}
              <fieldset className="settings-view-fields" disabled={!editable}>
                <legend className="visually-hidden">Settings of {current.name}</legend>
                <LayerSettingsEditor
                  key={current.name}
                  layerName={current.name}
                  manifestPath={current.manifestPath}
                  manifestText={current.manifestText}
                  values={settings?.[current.name] ?? {}}
                  onChange={(key, value) => useDraft.getState().setSetting(current.name, key, value)}
                  wide
                />
              </fieldset>
            </div>
          )}
        </div>
      )}
      <ApplyDialogs />
    </div>
  );
}
