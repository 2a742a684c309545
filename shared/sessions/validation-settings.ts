/**
 * The validation layer 1.3.239 reads its log file and debug action only from a layer settings file
 * (vk_layer_settings.txt: "khronos_validation.log_filename = …"); it has no environment variable for
 * them. Strata therefore writes a settings file for the one launch — the user's own settings (from
 * VK_LAYER_SETTINGS_PATH or the working folder) with the two routing keys replaced — and points
 * VK_LAYER_SETTINGS_PATH at it.
 */
export const LOG_FILENAME_KEY = 'khronos_validation.log_filename';
export const DEBUG_ACTION_KEY = 'khronos_validation.debug_action';
const LOG_MSG = 'VK_DBG_LAYER_ACTION_LOG_MSG';

function settingLine(line: string): { key: string; value: string } | null {
  const trimmed = line.trim();
  if (!trimmed || trimmed.startsWith('#')) return null;
  const eq = trimmed.indexOf('=');
  if (eq < 0) return null;
  return { key: trimmed.slice(0, eq).trim(), value: trimmed.slice(eq + 1).trim() };
}

/** The settings text with the layer's log routed to `logFile` and LOG_MSG among its debug actions. */
export function routeValidationSettings(base: string | null, logFile: string): string {
  const kept: string[] = [];
  let actions: string[] = [];
  for (const line of (base ?? '').split(/\r?\n/)) {
    const s = settingLine(line);
    if (s?.key === LOG_FILENAME_KEY) continue;
    if (s?.key === DEBUG_ACTION_KEY) {
      actions = s.value
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      continue;
    }
    kept.push(line);
  }
  while (kept.length && kept[kept.length - 1]!.trim() === '') kept.pop();
  // IGNORE would silence the log Strata reads; the other actions (BREAK, CALLBACK…) stay as the user set them.
  const merged = [...new Set([...actions.filter((a) => a !== 'VK_DBG_LAYER_ACTION_IGNORE'), LOG_MSG])];
  const ours = [
    '# Added by Strata for one launch: the validation layer writes its messages where Strata reads them.',
    `${DEBUG_ACTION_KEY} = ${merged.join(',')}`,
    `${LOG_FILENAME_KEY} = ${logFile}`,
  ];
  return [...kept, ...(kept.length ? [''] : []), ...ours, ''].join('\n');
}

/** The log file a settings text names, if any (to tell the user where messages went when Strata cannot route them). */
export function settingsLogFile(text: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const s = settingLine(line);
    if (s?.key === LOG_FILENAME_KEY) return s.value || null;
  }
  return null;
}
