import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { profileResolver } from '../../main/sessions/profile-launch';
import { ProfileStore, profilesDir } from '../../main/profiles/profile-store';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { PROFILE_SCHEMA_VERSION } from '../../shared/profiles/profile-schema';
import { RULES_VERSION } from '../../shared/loader/chain';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/sessions/profile-launch.ts: a profile (stored, or a built-in preset) turned into one
 * launch's environment and its own layer settings file, against the layers installed on this
 * machine (Debian's VkLayer_khronos_validation.json with its settings description). Nothing is
 * written: the resolver returns variables and text. Unknown names and invalid setting values are
 * refused with what to do.
 */
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
const skip = !existsSync(MANIFEST) && process.env['CI'] !== 'true' ? `${MANIFEST} is not installed (vulkan-validationlayers): this suite did not run` : false;

function withHome(fn: (home: TempHome, store: ProfileStore) => Promise<void>) {
  return async () => {
    const home = makeTempHome();
    try {
      await fn(home, new ProfileStore({ dir: profilesDir(home.env, home.dir) }));
    } finally {
      home.cleanup();
    }
  };
}

const resolver = (version: string | null) =>
  profileResolver({ loaderVersion: async () => (version === null ? Promise.reject(new Error('no loader')) : version) });

test(
  "a stored profile: the layer on through the environment, its settings as the launch's settings text, no settings path invented",
  { skip },
  withHome(async (home, store) => {
    store.create({
      schemaVersion: PROFILE_SCHEMA_VERSION,
      name: 'sync',
      layers: [{ name: VALIDATION, state: 'on' }],
      settings: { [VALIDATION]: { duplicate_message_limit: 3, enable_message_limit: true } },
    });
    const launch = await resolver('1.3.239')('sync', home.env);
    assert.equal(launch.name, 'sync');
    assert.equal(launch.env['VK_INSTANCE_LAYERS'], VALIDATION);
    assert.equal('VK_LAYER_SETTINGS_PATH' in launch.env, false, 'the launcher writes the file and sets the variable itself');
    assert.match(launch.settingsText ?? '', /^khronos_validation\.duplicate_message_limit = 3$/m);
    assert.match(launch.settingsText ?? '', /^# Vulkan layer settings for one launch from Strata/m);
    assert.deepEqual((launch.copy as { layers: unknown }).layers, [{ name: VALIDATION, state: 'on' }]);
    assert.ok(!launch.notes.some((n) => /no Vulkan loader answered/.test(n)));
  }),
);

test(
  'a preset by its short name; no settings means no settings text; no loader: the rules of the built-in version, said in a note',
  { skip },
  withHome(async (home) => {
    const launch = await resolver(null)('validation-standard', home.env);
    assert.equal(launch.name, 'Validation — standard');
    assert.equal(launch.env['VK_INSTANCE_LAYERS'], VALIDATION);
    assert.equal(launch.settingsText, null);
    assert.ok(launch.notes.includes(`no Vulkan loader answered; the profile was turned into variables by the rules of loader ${RULES_VERSION}`));
  }),
);

test(
  'an unknown name is refused with the presets to choose from',
  withHome(async (home) => {
    await assert.rejects(resolver('1.3.239')('nothing-by-this-name', home.env), (e) => {
      assert.ok(e instanceof StrataRequestError);
      assert.match(e.error.message, /nothing-by-this-name/);
      assert.match(e.error.fix ?? '', /use a profile or a preset name \(`strata profile list`\): .*"Validation — standard"/);
      return true;
    });
  }),
);

test(
  "a setting value out of the layer's range is refused before anything starts, naming the setting",
  { skip },
  withHome(async (home, store) => {
    store.create({
      schemaVersion: PROFILE_SCHEMA_VERSION,
      name: 'bad',
      layers: [{ name: VALIDATION, state: 'on' }],
      settings: { [VALIDATION]: { duplicate_message_limit: 0 } },
    });
    await assert.rejects(resolver('1.3.239')('bad', home.env), (e) => {
      assert.ok(e instanceof StrataRequestError);
      assert.equal(e.error.code, 'settings/invalid-value');
      assert.equal(e.error.where, `settings.${VALIDATION}.duplicate_message_limit`);
      assert.match(e.error.message, /^Profile "bad": .*; nothing was started$/);
      assert.match(e.error.fix ?? '', /strata settings show --layer VK_LAYER_KHRONOS_validation/);
      return true;
    });
  }),
);
