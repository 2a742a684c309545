import { downloadText } from '../files/download-file';
import type { Platform } from '../../../shared/settings/setting-types';
import { EXPORT_FORMATS, exportLayerSettings, type ExportFormat, type LayerSettingsInput } from '../../../shared/settings/settings-output';

const LABELS: Record<ExportFormat, string> = {
  txt: 'vk_layer_settings.txt',
  bash: 'bash script',
  cmd: 'cmd script',
  hpp: 'C++ header',
  html: 'HTML docs',
  md: 'Markdown docs',
};

/** Saves one export as a download (the same text `strata settings export` writes). */
function download(input: LayerSettingsInput, format: ExportFormat, platform: Platform) {
  const e = exportLayerSettings(input, format, { platform });
  downloadText(e.fileName, e.text, `${e.mimeType};charset=utf-8`);
}

export function SettingsExportButtons({ input, platform, idBase }: { input: LayerSettingsInput; platform: Platform; idBase: string }) {
  return (
    <div className="settings-export" role="group" aria-labelledby={`${idBase}-export`}>
      <span id={`${idBase}-export`} className="settings-export-title">
        Export
      </span>
      {EXPORT_FORMATS.map((f) => (
        <button
          key={f}
          type="button"
          className="button settings-export-button"
          data-format={f}
          aria-label={`Export the settings of ${input.description.layerName} as ${LABELS[f]}`}
          onClick={() => download(input, f, platform)}
        >
          {f}
        </button>
      ))}
    </div>
  );
}
