import { loaderHas } from './loader-rules';
import type { Environment } from './xdg-directories';

/**
 * Where a loader looks for vk_loader_settings.json on Linux, in its order; it reads the first file
 * that exists (settings.c get_unix_settings_path at each tag of the matrix):
 * - before 1.3.251: nowhere (no settings file);
 * - 1.3.251–1.3.252: $HOME/.local/share, $XDG_DATA_HOME, /etc — each + /vulkan/settings.d/;
 * - 1.3.253–1.4.323: the same three + /vulkan/loader_settings.d/;
 * - 1.4.324+ (508795c7f "loader settings unix search path follows driver/layer searching"):
 *   $XDG_CONFIG_HOME, $XDG_DATA_HOME, $HOME/.config (only when XDG_CONFIG_HOME is unset or empty),
 *   $HOME/.local/share (likewise for XDG_DATA_HOME), $XDG_CONFIG_DIRS (default /etc/xdg), /etc,
 *   $XDG_DATA_DIRS (default /usr/local/share:/usr/share). Its list splitting keeps the ':' in front
 *   of every entry after the first, so only the first entry of a list is ever found.
 * Every variable is read with secure_getenv: an elevated application finds only the fixed folders.
 */
export const SETTINGS_FILE_NAME = 'vk_loader_settings.json';

export interface SettingsFileQuery {
  env: Environment;
  loaderVersion: string | null;
  elevated?: boolean;
}

export function settingsFileSearch(q: SettingsFileQuery): string[] {
  const version = q.loaderVersion;
  if (!loaderHas(version, 'settings-file')) return [];
  const get = (name: string) => (q.elevated ? undefined : q.env[name]);
  const folder = loaderHas(version, 'settings-folder-renamed') ? 'loader_settings.d' : 'settings.d';
  const at = (base: string | undefined, suffix: string) => (base ? [`${base.split(':')[0]!.replace(/\/+$/, '')}${suffix}`] : []);
  const file = `/vulkan/${folder}/${SETTINGS_FILE_NAME}`;
  const home = get('HOME');
  // A place the loader checks twice (XDG_DATA_HOME = $HOME/.local/share) is listed once.
  const unique = (paths: string[]) => paths.filter((p, i) => paths.indexOf(p) === i);
  if (!loaderHas(version, 'settings-search-xdg')) return unique([...at(home, `/.local/share${file}`), ...at(get('XDG_DATA_HOME'), file), `/etc${file}`]);
  const configHome = get('XDG_CONFIG_HOME');
  const dataHome = get('XDG_DATA_HOME');
  const orDefault = (v: string | undefined, d: string) => (v === undefined || v === '' ? d : v);
  return unique([
    ...at(configHome, file),
    ...at(dataHome, file),
    ...(home && !configHome ? [`${home.replace(/\/+$/, '')}/.config${file}`] : []),
    ...(home && !dataHome ? [`${home.replace(/\/+$/, '')}/.local/share${file}`] : []),
    ...at(orDefault(get('XDG_CONFIG_DIRS'), '/etc/xdg'), file),
    `/etc${file}`,
    ...at(orDefault(get('XDG_DATA_DIRS'), '/usr/local/share:/usr/share'), file),
  ]);
}
