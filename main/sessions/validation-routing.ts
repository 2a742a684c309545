import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ValidationRouting } from '../../shared/sessions/session-records';
import { routeValidationSettings, settingsLogFile } from '../../shared/sessions/validation-settings';
import { GuardedReadError, isRegularFile, readTextGuardedSync } from '../platform/guarded-read';

export interface RoutingPlan extends ValidationRouting {
  /** Variables to set for the launch. */
  env: Record<string, string>;
  fifoPath: string | null;
  /** Removes the FIFO and the settings file (call when the launch ended). */
  cleanup(): void;
}

/**
 * How the validation layer's messages reach Strata for one launch. Its settings file search
 * (1.3.239, vk_layer_config.cpp FindSettings) takes vkconfig's
 * $XDG_DATA_HOME/vulkan/settings.d/vk_layer_settings.txt before VK_LAYER_SETTINGS_PATH, then
 * ./vk_layer_settings.txt. When vkconfig's file exists Strata cannot override it without touching
 * it, so the messages are read from the application's stdout (the layer's default) instead.
 */
export function planValidationRouting(options: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  enabled: boolean;
  profileSettings?: string | null;
  /**
   * Windows: the settings file the layers find through the registry (HKLM, then HKCU unless elevated,
   * …\Khronos\Vulkan\Settings: main/override/windows-override.ts registeredLayerSettingsFile), which
   * they read before VK_LAYER_SETTINGS_PATH; null: none.
   */
  registeredSettingsFile?: string | null;
  /** The platform whose layers are launched (default: this process's). */
  platform?: NodeJS.Platform;
}): RoutingPlan {
  const profileSettings = options.profileSettings ?? null;
  const platform = options.platform ?? process.platform;
  const registered = platform === 'win32' ? (options.registeredSettingsFile ?? null) : null;
  const dataHome = options.env['XDG_DATA_HOME'] || join(options.env['HOME'] || options.home, '.local', 'share');
  const vkconfigFile = join(dataHome, 'vulkan', 'settings.d', 'vk_layer_settings.txt');
  const shadowed = platform !== 'win32' && isRegularFile(vkconfigFile);
  const notes: string[] = [];
  if (shadowed && profileSettings)
    notes.push(`the profile's layer settings are not seen by layers that read ${vkconfigFile} first (the validation layer 1.3.239 does)`);
  if (registered && profileSettings)
    notes.push(
      `the profile's layer settings are not seen by layers that find ${registered} through the registry (…\\Khronos\\Vulkan\\Settings), which they read before VK_LAYER_SETTINGS_PATH; remove it (\`strata override remove\` if Strata wrote it) for the profile's settings to count`,
    );

  let mode: ValidationRouting['mode'] = 'fifo';
  if (!options.enabled) mode = 'off';
  else if (platform === 'win32') {
    mode = 'stdout';
    notes.push('On Windows the validation layer messages are read from the application’s stdout.');
  } else if (shadowed) {
    mode = 'stdout';
    const elsewhere = settingsLogFile(readText(vkconfigFile, notes) ?? '');
    notes.push(
      `${vkconfigFile} takes precedence over VK_LAYER_SETTINGS_PATH, so Strata reads the validation messages from the application's stdout` +
        (elsewhere && elsewhere !== 'stdout' ? `; that file sends them to ${elsewhere}, so they are not in this session` : ''),
    );
  }
  if (mode !== 'fifo' && !profileSettings) return { mode, note: notes.join('; ') || null, env: {}, fifoPath: null, cleanup: () => undefined };

  sweepStaleLaunchDirs();
  const dir = mkdtempSync(join(tmpdir(), `${LAUNCH_DIR_PREFIX}${process.pid}-`));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const settingsPath = join(dir, 'vk_layer_settings.txt');
  let fifoPath: string | null = null;
  if (mode === 'fifo') {
    fifoPath = join(dir, 'validation.fifo');
    try {
      execFileSync('mkfifo', ['-m', '600', fifoPath], { stdio: 'pipe' });
    } catch (e) {
      fifoPath = null;
      mode = 'stdout';
      notes.push(
        `mkfifo failed (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the validation messages are read from the application's stdout`,
      );
    }
  }
  // The profile's settings replace the user's for this launch; otherwise the user's are kept.
  const base = profileSettings === null ? userSettingsFile(options.env['VK_LAYER_SETTINGS_PATH'], options.cwd) : null;
  const baseText = profileSettings ?? (base ? readText(base, notes) : null);
  if (base && baseText !== null && fifoPath) notes.push(`Your layer settings from ${base} are kept; Strata adds its log routing for this launch.`);
  writeFileSync(settingsPath, fifoPath ? routeValidationSettings(baseText, fifoPath) : (baseText ?? ''), { mode: 0o600 });
  return { mode, note: notes.join('; ') || null, env: { VK_LAYER_SETTINGS_PATH: settingsPath }, fifoPath, cleanup };
}

const LAUNCH_DIR_PREFIX = 'strata-launch-';

/**
 * A Strata killed during a launch cannot remove its FIFO and settings file; the next launch does.
 * Each folder is named after the Strata process that made it, so one still running keeps its own.
 */
export function sweepStaleLaunchDirs(root = tmpdir()): void {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return;
  }
  for (const name of entries) {
    const m = /^strata-launch-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

/** The settings file the layer would read without Strata (VK_LAYER_SETTINGS_PATH: a file or a folder holding one; else the working folder's). */
function userSettingsFile(envPath: string | undefined, cwd: string): string | null {
  if (envPath) {
    try {
      const st = statSync(envPath);
      const file = st.isDirectory() ? join(envPath, 'vk_layer_settings.txt') : envPath;
      return isRegularFile(file) ? file : null;
    } catch {
      return null;
    }
  }
  const local = isAbsolute(cwd) ? join(cwd, 'vk_layer_settings.txt') : null;
  return local && isRegularFile(local) ? local : null;
}

/** A layer settings file, through the guarded reader (a 1 GiB one once took a launch to 1.1 GB); one it refuses is named in `notes`. */
function readText(path: string, notes: string[]): string | null {
  try {
    return readTextGuardedSync(path, 'settings');
  } catch (e) {
    if (e instanceof GuardedReadError) notes.push(`${e.message}, so Strata did not read it`);
    return null;
  }
}
