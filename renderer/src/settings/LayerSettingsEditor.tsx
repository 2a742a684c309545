import type { LayerSettingValues, SettingValue } from '../../../shared/settings/setting-values';

/**
 * The settings form of one layer, controlled: the Layers editor owns the draft and passes the
 * layer's current values; every edit comes back through onChange (undefined = back to default).
 * PLACEHOLDER until the settings editor lands: it only lists the values it is given.
 */
export interface LayerSettingsEditorProps {
  layerName: string;
  /** The manifest file the layer comes from, and its text (the settings description is parsed from it). */
  manifestPath: string;
  manifestText: string;
  values: LayerSettingValues;
  onChange: (key: string, value: SettingValue | undefined) => void;
}

export function LayerSettingsEditor({ layerName, values }: LayerSettingsEditorProps) {
  const keys = Object.keys(values);
  return (
    <section aria-label={`Settings of ${layerName}`}>
      {keys.length === 0 ? <p>No settings changed.</p> : keys.map((k) => <p key={k}>{`${k} = ${JSON.stringify(values[k])}`}</p>)}
    </section>
  );
}
