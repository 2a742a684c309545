import type { Platform } from '../../../shared/settings/setting-types';
import { useDraft } from '../configurator/draft-store';
import { settingsEnvironment, settingsFileText, type LayerSettingsInput } from '../../../shared/settings/settings-output';

/**
 * Read-only: the exact vk_layer_settings.txt lines Strata would write for this layer's current
 * values (the same function the override writer uses), and the environment variables the layer
 * reads for them.
 */
export function SettingsPreview({ input, platform, idBase }: { input: LayerSettingsInput; platform: Platform; idBase: string }) {
  // The file's real path, as the override writer reports it (XDG_DATA_HOME resolved), once the status is read.
  const file = useDraft((s) => (s.status.status === 'ready' ? (s.status.value.settings?.path ?? null) : null));
  // Windows: the layers find the file through the registry (main/override/windows-override.ts registers it).
  const registryKey = useDraft((s) => (s.status.status === 'ready' ? (s.status.value.settings?.registration?.key ?? null) : null));
  const windows = platform === 'WINDOWS';
  const text = settingsFileText([input], { platform });
  const vars = settingsEnvironment(input, { platform });
  return (
    <section className="settings-preview" aria-labelledby={`${idBase}-preview`}>
      <h4 id={`${idBase}-preview`}>What Apply writes</h4>
      {text ? (
        <>
          <p className="muted">
            In{' '}
            <code className="settings-preview-path" data-testid="settings-file-path">
              {file ?? (windows ? '%LOCALAPPDATA%\\Strata\\settings\\vk_layer_settings.txt' : '$XDG_DATA_HOME/vulkan/settings.d/vk_layer_settings.txt')}
            </code>
            {windows ? (
              <>
                , registered under <code>{registryKey ?? 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\Settings'}</code>, where the layers look for it (applications that
                run elevated read only HKLM):
              </>
            ) : (
              ', which the layers read for every application of this user:'
            )}
          </p>
          <pre className="settings-preview-text" tabIndex={0} aria-label={`vk_layer_settings.txt lines for ${input.description.layerName}`}>
            {text}
          </pre>
        </>
      ) : (
        <p className="muted">Every setting is at its default, so Strata writes no line for this layer.</p>
      )}
      {text && (
        <>
          <h4 id={`${idBase}-env`}>Environment variables</h4>
          {vars.length ? (
            <ul className="settings-env" aria-labelledby={`${idBase}-env`}>
              {vars.map((v) => (
                <li key={v.name}>
                  <code>
                    {v.name}={v.value}
                  </code>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">This layer names no environment variable for these settings; they work through the file only.</p>
          )}
        </>
      )}
    </section>
  );
}
