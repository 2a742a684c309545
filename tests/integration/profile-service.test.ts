import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import {
  profilesBind,
  profilesCreate,
  profilesDelete,
  profilesList,
  profilesRename,
  readApplications,
  type ProfileServiceOptions,
} from '../../main/profiles/profile-service';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { PRESET_NAMES } from '../../shared/profiles/presets';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/profiles/profile-service.ts in a temporary home, loader 1.3.239 (per-application profiles through
 * override layers with app_keys): creating from a preset, the warnings of the list, and how rename
 * and delete keep the bindings true. What the real loaders do with the files: profile-bindings*.test.ts.
 */
const options = (home: TempHome): ProfileServiceOptions => ({ env: home.env, loaderVersion: async () => '1.3.239' });
const code = (e: unknown) => (e instanceof StrataRequestError ? e.error.code : String(e));

test(
  'create from a preset copies its layers under the new name; a layer not installed is a warning in the list',
  withTempHome(async (home) => {
    const o = options(home);
    const made = await profilesCreate(o, { name: 'Sync here', from: 'validation-synchronization' });
    assert.equal(made.profile.name, 'Sync here');
    assert.ok(made.profile.layers.some((l) => l.name === 'VK_LAYER_KHRONOS_validation' && l.state === 'on'));
    await profilesCreate(o, { name: 'Ghost', profile: { schemaVersion: 2, name: 'x', layers: [{ name: 'VK_LAYER_not_installed', state: 'on' }] } });
    const list = await profilesList(o);
    assert.deepEqual(list.profiles.find((p) => p.profile.name === 'Ghost')?.warnings, [
      'not installed here (kept in the profile; the loader skips it): VK_LAYER_not_installed',
    ]);
    assert.ok(list.presets.some((p) => p.profile.name === PRESET_NAMES['api-dump']));
    await assert.rejects(profilesCreate(o, { name: 'Copy', from: 'no such thing' }), (e) => code(e) === 'profile/not-found');
  }),
);

test(
  'a bound profile: rename moves its bindings along; delete refuses without force, unbinds with it',
  withTempHome(async (home) => {
    const o = options(home);
    await profilesCreate(o, { name: 'Val', from: 'validation-standard' });
    const bound = await profilesBind(o, { appPath: '/usr/bin/vkcube', profile: 'Val' });
    assert.equal(bound.application.profile, 'Val');
    await profilesRename(o, { from: 'Val', to: 'Validation' });
    assert.equal(readApplications(o).applications.find((a) => a.path === '/usr/bin/vkcube')?.profile, 'Validation');
    await assert.rejects(profilesDelete(o, { name: 'validation' }), (e) => code(e) === 'profile/in-use');
    const gone = await profilesDelete(o, { name: 'Validation', force: true });
    assert.deepEqual(gone.unbound, ['/usr/bin/vkcube']);
    assert.equal(readApplications(o).applications.find((a) => a.path === '/usr/bin/vkcube')?.profile, undefined);
    assert.equal(existsSync(gone.deleted.file), false);
  }),
);
