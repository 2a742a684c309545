import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileHandlers } from '../../main/profiles/profile-handlers';
import { channelsOfProfiles } from '../../shared/profiles/profile-channels';
import { withTempHome } from '../helpers/temp-home';

const CLI = { host: 'cli' as const };

/** main/profiles/profile-handlers.ts: a handler for exactly the profile channels, each reaching profile-service.ts. */
test(
  'every profiles.* channel has its handler, and they reach the profile store of the environment given',
  withTempHome(async (home) => {
    const handlers = profileHandlers({ env: home.env, loaderVersion: async () => '1.3.239' });
    assert.deepEqual(Object.keys(handlers).sort(), Object.keys(channelsOfProfiles).sort());
    const created = await handlers['profiles.create']({ name: 'Mine' }, CLI);
    assert.ok(created);
    const list = await handlers['profiles.list']({}, CLI);
    assert.ok(
      list.profiles.some((p) => p.name === 'Mine'),
      JSON.stringify(list).slice(0, 300),
    );
  }),
);
