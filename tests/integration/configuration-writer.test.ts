import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyConfiguration,
  configurationLocations,
  hiddenSettingsFiles,
  readConfigurationStatus,
  removeConfiguration,
  settingsFileLocation,
} from '../../main/override/configuration-writer';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { withTempHome } from '../helpers/temp-home';

/**
 * main/override/configuration-writer.ts in a temporary home: the override and the layer settings file
 * written as one change. Refusal, faults and kills of the same writer: override-faults.test.ts,
 * configuration-kill.test.ts; the real layer reading the file: settings-writer.test.ts.
 */
const OVERRIDE = '{"file_format_version":"1.1.2","layer":{"name":"VK_LAYER_LUNARG_override"}}\n';
const code = (e: unknown) => (e instanceof StrataRequestError ? e.error.code : String(e));

test(
  'locations: the settings file where the validation layer looks first, its record beside the override’s; none system-wide',
  withTempHome((home) => {
    const user = configurationLocations(false, home.env, home.dir);
    assert.equal(user.settings?.file, join(home.dir, '.local', 'share', 'vulkan', 'settings.d', 'vk_layer_settings.txt'));
    assert.equal(user.settings?.lockFile, user.override.lockFile, 'one lock for both files');
    assert.equal(user.settings?.stateDir, user.override.stateDir);
    assert.equal(settingsFileLocation(home.env, home.dir).label, 'layer settings file');
    assert.equal(configurationLocations(true, home.env, home.dir).settings, null);
    assert.throws(
      () => applyConfiguration(configurationLocations(true, home.env, home.dir), { override: null, settings: 'x.y = 1\n' }, home.env),
      (e) => code(e) === 'override/settings-need-user',
    );
  }),
);

test(
  'settings alone: written, no override file; then both; a hand-written settings file refuses the apply and neither file is written',
  withTempHome((home) => {
    const locs = configurationLocations(false, home.env, home.dir);
    const r = applyConfiguration(locs, { override: null, settings: 'khronos_validation.report_flags = error\n' }, home.env);
    assert.equal(r.action, 'unchanged');
    assert.equal(r.settings?.action, 'created');
    assert.equal(existsSync(locs.override.file), false);
    applyConfiguration(locs, { override: OVERRIDE, settings: 'khronos_validation.report_flags = warn\n' }, home.env);
    assert.equal(readFileSync(locs.override.file, 'utf8'), OVERRIDE);
    assert.equal(readConfigurationStatus(locs, home.env).ownership, 'strata');
    removeConfiguration(locs, home.env);
    assert.equal(existsSync(locs.override.file), false);
    assert.equal(existsSync(locs.settings!.file), false);

    mkdirSync(join(locs.settings!.file, '..'), { recursive: true });
    writeFileSync(locs.settings!.file, 'mine.key = 1\n');
    assert.throws(() => applyConfiguration(locs, { override: OVERRIDE, settings: 'x.y = 1\n' }, home.env));
    assert.equal(existsSync(locs.override.file), false, 'refused before either file is written');
    assert.equal(readFileSync(locs.settings!.file, 'utf8'), 'mine.key = 1\n');
  }),
);

test(
  'hiddenSettingsFiles: the file VK_LAYER_SETTINGS_PATH names, when it exists and is not the per-user one',
  withTempHome((home) => {
    const user = settingsFileLocation(home.env, home.dir).file;
    const other = join(home.dir, 'my-settings');
    mkdirSync(other);
    assert.deepEqual(hiddenSettingsFiles({ ...home.env, VK_LAYER_SETTINGS_PATH: other }, user), [], 'the folder has no file');
    writeFileSync(join(other, 'vk_layer_settings.txt'), 'a.b = 1\n');
    assert.deepEqual(
      hiddenSettingsFiles({ ...home.env, VK_LAYER_SETTINGS_PATH: other }, user).map((h) => h.path),
      [join(other, 'vk_layer_settings.txt')],
    );
    mkdirSync(join(user, '..'), { recursive: true });
    writeFileSync(user, 'a.b = 2\n');
    assert.deepEqual(hiddenSettingsFiles({ ...home.env, VK_LAYER_SETTINGS_PATH: user }, user), [], 'the per-user file itself hides nothing');
  }),
);
