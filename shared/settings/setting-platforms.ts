import { PLATFORMS, type Platform, type SettingDescription, type SettingOption } from './setting-types';

/**
 * Which settings exist on which platform: a setting's `platforms` (inherited from its parent, then
 * the layer, then all four when nobody says) name where the layer reads it. Strata writes the
 * settings of the platform it runs on; exports can name another.
 */
const BY_NODE_PLATFORM: Record<string, Platform> = { linux: 'LINUX', win32: 'WINDOWS', darwin: 'MACOS', android: 'ANDROID' };

/** Node's process.platform → the schema's token (anything else Unix-like counts as LINUX). */
export function platformOf(nodePlatform: string): Platform {
  return BY_NODE_PLATFORM[nodePlatform] ?? 'LINUX';
}

export const isPlatform = (token: string): token is Platform => (PLATFORMS as readonly string[]).includes(token);

export function availableOn(item: Pick<SettingDescription | SettingOption, 'platforms'>, platform: Platform): boolean {
  return item.platforms.includes(platform);
}

const NAMES: Record<Platform, string> = { WINDOWS: 'Windows', LINUX: 'Linux', MACOS: 'macOS', ANDROID: 'Android' };
export const platformName = (p: Platform): string => NAMES[p];
