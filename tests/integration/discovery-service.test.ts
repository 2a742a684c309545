import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoveryManifests, discoveryPaths, discoveryUser, layerManifestsAsFound } from '../../main/discovery/discovery-service';
import { withTempHome } from '../helpers/temp-home';

/**
 * main/discovery/discovery-service.ts in a temporary home: the search order with what exists, the
 * manifests found, and the elevated view (loader_secure_getenv: an elevated application's loader
 * ignores HOME, XDG_* and VK_* search variables). Against the real loader: discovery-vs-loader.test.ts
 * and elevated-vs-loader.test.ts.
 */
const layer = (name: string) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: `lib${name}.so`, api_version: '1.3.0', implementation_version: '1', description: 'd' },
  });

test(
  'paths, manifests and the layers as found agree; the elevated view drops what the user’s variables add',
  withTempHome(async (home) => {
    const mine = join(home.dir, '.local', 'share', 'vulkan', 'explicit_layer.d');
    const added = join(home.dir, 'added');
    mkdirSync(mine, { recursive: true });
    mkdirSync(added);
    writeFileSync(join(mine, 'mine.json'), layer('VK_LAYER_mine'));
    writeFileSync(join(added, 'added.json'), layer('VK_LAYER_added'));
    const env = { ...home.env, VK_ADD_LAYER_PATH: added };
    const ctx = { env, loaderVersion: '1.3.239', libraries: false };

    const paths = await discoveryPaths(ctx);
    assert.equal(paths.elevated, false);
    assert.equal(paths.home, home.dir);
    const explicit = paths.locations.explicit_layer;
    assert.deepEqual([explicit[0]?.path, explicit[0]?.origin, explicit[0]?.exists], [added, 'VK_ADD_LAYER_PATH[0]', true], 'VK_ADD_LAYER_PATH first');
    assert.equal(explicit.find((l) => l.path === mine)?.exists, true);

    const inventory = await discoveryManifests(ctx);
    const names = (inventory.manifests.explicit_layer ?? []).flatMap((m) => m.layers.map((l) => l.name));
    assert.ok(names.indexOf('VK_LAYER_added') === 0 && names.includes('VK_LAYER_mine'), JSON.stringify(names));
    const found = await layerManifestsAsFound(ctx);
    assert.deepEqual(
      found.explicit_layer.map((m) => m.path),
      (inventory.manifests.explicit_layer ?? []).map((m) => m.path),
      'the chain reads the same files discovery shows',
    );

    assert.equal((await discoveryUser({ env, elevated: true })).elevated, true);
    const elevated = await discoveryManifests({ ...ctx, elevated: true });
    const elevatedNames = (elevated.manifests.explicit_layer ?? []).flatMap((m) => m.layers.map((l) => l.name));
    assert.ok(!elevatedNames.includes('VK_LAYER_added') && !elevatedNames.includes('VK_LAYER_mine'), JSON.stringify(elevatedNames));
  }),
);

test(
  'requests for the same discovery while one runs share it; the next one after it settles scans again (issue #19)',
  withTempHome(async (home) => {
    const mine = join(home.dir, '.local', 'share', 'vulkan', 'explicit_layer.d');
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, 'one.json'), layer('VK_LAYER_one'));
    const env = { ...home.env };
    const ctx = { env, loaderVersion: '1.3.239', libraries: false };
    // (The system's own layers are found too: only this test's are compared.)
    const names = (inventory: Awaited<ReturnType<typeof discoveryManifests>>) =>
      inventory.manifests.explicit_layer.flatMap((m) => m.layers.map((l) => l.name)).filter((n) => n === 'VK_LAYER_one' || n === 'VK_LAYER_two');

    const [a, b] = [discoveryManifests(ctx), discoveryManifests({ ...ctx })];
    assert.equal(a, b, 'the same context while a scan runs: one scan');
    const other = discoveryManifests({ ...ctx, elevated: true });
    assert.notEqual(other, a, 'another context scans on its own');
    const sameValuesOtherEnv = discoveryManifests({ ...ctx, env: { ...env } });
    assert.notEqual(sameValuesOtherEnv, a, 'another environment object scans on its own');
    assert.deepEqual(names(await a), ['VK_LAYER_one']);
    await Promise.all([other, sameValuesOtherEnv]);

    // Settled: a file added now is in the next answer.
    writeFileSync(join(mine, 'two.json'), layer('VK_LAYER_two'));
    const next = discoveryManifests(ctx);
    assert.notEqual(next, a);
    assert.deepEqual(names(await next).sort(), ['VK_LAYER_one', 'VK_LAYER_two']);
  }),
);
