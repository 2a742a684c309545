import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import { DiscoveryWatch } from '../../main/discovery/discovery-watch';
import { ManifestCatalogue, manifestCatalogue } from '../../main/discovery/manifest-catalogue';
import type { ManifestInventory } from '../../shared/discovery/manifest-inventory';
import { explainChainRequest } from '../../main/chain/chain-service';
import { layerReadings } from '../../shared/loader/layer-readings';
import { createAppContext } from '../../main/hosts/app-context';
import { EventBus } from '../../main/platform/event-bus';
import { APP_ROOT } from '../helpers/strata-cli';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/discovery/manifest-catalogue.ts with real files, the real watcher and the real discovery:
 * answers are kept only while the UI hosts' watch runs for that environment, a change the watcher
 * reports or a call that may write drops them, and `fresh` (the discovery.manifests channel) scans
 * again. No timing assertions: the test waits for the watcher's event.
 */
const layer = (name: string) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: `lib${name}.so`, api_version: '1.3.0', implementation_version: '1', description: 'd' },
  });

const names = (inventory: Awaited<ReturnType<typeof discoveryManifests>>) =>
  inventory.manifests.explicit_layer
    .flatMap((m) => m.layers.map((l) => l.name ?? ''))
    .filter((n) => n.startsWith('VK_LAYER_cat_'))
    .sort();

/** The user's explicit layer folder in `home`, holding one.json (VK_LAYER_cat_one). */
function userExplicitFolder(home: TempHome): string {
  const folder = join(home.dir, '.local', 'share', 'vulkan', 'explicit_layer.d');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'one.json'), layer('VK_LAYER_cat_one'));
  return folder;
}

function changedEvent(bus: EventBus): Promise<void> {
  return new Promise((resolve, reject) => {
    const giveUp = setTimeout(() => reject(new Error('no discovery.changed within 30 s')), 30_000);
    const off = bus.subscribe((e) => {
      if (e.name !== 'discovery.changed') return;
      clearTimeout(giveUp);
      off();
      resolve();
    });
  });
}

test(
  'kept while watched: the same answer until the watcher reports a change; fresh scans again; nothing kept once unwatched',
  withTempHome(async (home) => {
    const folder = userExplicitFolder(home);
    const env = { ...home.env };
    const ctx = { env, loaderVersion: '1.3.239', libraries: false };

    // Unwatched: each settled answer is dropped.
    const a = await discoveryManifests(ctx);
    assert.notEqual(await discoveryManifests(ctx), a, 'nobody watches this environment: the next request scans');

    const bus = new EventBus();
    const watch = new DiscoveryWatch({ env, bus, cwd: home.dir, debounceMs: 20 });
    const detach = watch.attach();
    try {
      const kept = await discoveryManifests(ctx);
      assert.equal(await discoveryManifests({ ...ctx }), kept, 'watched: the settled answer is kept');
      assert.notEqual(await discoveryManifests({ ...ctx, env: { ...env } }), kept, 'another environment object is not the watched one');

      const fresh = await discoveryManifests({ ...ctx, fresh: true });
      assert.notEqual(fresh, kept, 'fresh scans again');
      assert.equal(await discoveryManifests(ctx), fresh, 'and its answer is the one kept');

      const changed = changedEvent(bus);
      writeFileSync(join(folder, 'two.json'), layer('VK_LAYER_cat_two'));
      await changed;
      const after = await discoveryManifests(ctx);
      assert.notEqual(after, fresh, 'a change the watcher reported drops the kept answer');
      assert.deepEqual(names(after), ['VK_LAYER_cat_one', 'VK_LAYER_cat_two']);

      // A call that may write: what it reads while it runs is fresh, and nothing read before it survives it.
      const done = manifestCatalogue.beginWrite();
      const changedAgain = changedEvent(bus);
      writeFileSync(join(folder, 'three.json'), layer('VK_LAYER_cat_three'));
      await changedAgain; // (else its event could drop the answer kept below)
      const during = await discoveryManifests(ctx);
      assert.deepEqual(names(during), ['VK_LAYER_cat_one', 'VK_LAYER_cat_three', 'VK_LAYER_cat_two'], 'a writer reads back what it wrote');
      assert.notEqual(await discoveryManifests(ctx), during, 'nothing is kept while a write runs');
      done();
      const afterWrite = await discoveryManifests(ctx);
      assert.equal(await discoveryManifests(ctx), afterWrite, 'kept again once the write has ended');
    } finally {
      detach();
      watch.dispose();
    }
    const unwatched = await discoveryManifests(ctx);
    assert.notEqual(await discoveryManifests(ctx), unwatched, 'detached: nothing is kept');
  }),
);

test(
  "through the UI hosts' router: a writing channel (override.apply) drops the kept answer, a reading one (override.status) does not",
  withTempHome(async (home) => {
    userExplicitFolder(home);
    const env = { ...home.env };
    const app = createAppContext({ root: APP_ROOT, env });
    const detach = app.attachUiClient();
    try {
      const ctx = { env };
      const kept = await discoveryManifests(ctx);
      const status = await app.router.call('override.status', {}, { host: 'browser' });
      assert.ok(status.ok, JSON.stringify(status));
      assert.equal(await discoveryManifests(ctx), kept, 'a reading channel keeps the answer');
      const applied = await app.router.call('override.apply', { config: { layers: [{ name: 'VK_LAYER_cat_one', state: 'on' }] } }, { host: 'browser' });
      assert.ok(applied.ok, JSON.stringify(applied));
      const after = await discoveryManifests(ctx);
      assert.notEqual(after, kept, 'Apply dropped it');
      assert.ok(
        after.manifests.implicit_layer.some((m) => m.layers.some((l) => l.name === 'VK_LAYER_LUNARG_override')),
        'the override Apply wrote is in the next answer',
      );
    } finally {
      detach();
      app.dispose();
    }
  }),
);

test(
  'one parse per manifest: the chain reads the texts discovery parsed, and parses only a text that changed since',
  withTempHome(async (home) => {
    const explicitDir = join(home.dir, '.local', 'share', 'vulkan', 'explicit_layer.d');
    const implicitDir = join(home.dir, '.local', 'share', 'vulkan', 'implicit_layer.d');
    mkdirSync(explicitDir, { recursive: true });
    mkdirSync(implicitDir, { recursive: true });
    // Names unique to this test: another test's identical text would already be read in this process.
    const stamp = `${process.pid}_${Date.now()}`;
    writeFileSync(join(explicitDir, 'one.json'), layer(`VK_LAYER_parse_one_${stamp}`));
    writeFileSync(join(explicitDir, 'two.json'), layer(`VK_LAYER_parse_two_${stamp}`));
    const implicit = JSON.parse(layer(`VK_LAYER_parse_implicit_${stamp}`)) as { layer: Record<string, unknown> };
    implicit.layer.disable_environment = { NO_PARSE_IMPLICIT: '1' };
    writeFileSync(join(implicitDir, 'implicit.json'), JSON.stringify(implicit));
    const env = { ...home.env };

    // Unwatched (a one-shot CLI command): discovery keeps no readings, and the chain parses what it reads.
    await discoveryManifests({ env, loaderVersion: '1.3.239', libraries: false });
    const unwatched = layerReadings.parses;
    const request = { requestedLayers: [`VK_LAYER_parse_two_${stamp}`], loaderVersion: '1.3.239' };
    await explainChainRequest(env, request);
    assert.equal(layerReadings.parses, unwatched + 3, 'one parse each, in the chain');

    // Watched, as the UI hosts do: discovery hands its parses over.
    for (const [i, file] of ['one.json', 'two.json'].entries())
      writeFileSync(join(explicitDir, file), layer(`VK_LAYER_parse_${i === 0 ? 'one' : 'two'}_${stamp}`).replace('"d"', '"watched"'));
    implicit.layer.description = 'watched';
    writeFileSync(join(implicitDir, 'implicit.json'), JSON.stringify(implicit));
    const watch = new DiscoveryWatch({ env, bus: new EventBus(), cwd: home.dir, debounceMs: 20 });
    const detach = watch.attach();
    try {
      await discoveryManifests({ env, loaderVersion: '1.3.239', libraries: false });
      const before = layerReadings.parses;
      const chain = await explainChainRequest(env, request);
      assert.deepEqual(
        chain.chain.map((e) => e.name).filter((name) => name.endsWith(stamp)),
        [`VK_LAYER_parse_implicit_${stamp}`, `VK_LAYER_parse_two_${stamp}`],
        JSON.stringify(chain.notes),
      );
      assert.equal(layerReadings.parses, before, 'the chain parsed none of the three manifests discovery had read');

      writeFileSync(join(explicitDir, 'one.json'), layer(`VK_LAYER_parse_one_changed_${stamp}`));
      await explainChainRequest(env, request);
      assert.equal(layerReadings.parses, before + 1, 'the changed file, and only it, is parsed again');
    } finally {
      detach();
      watch.dispose();
    }
  }),
);

test('reuseWhile: a kept answer is handed out again only while its check holds; a running scan is shared whatever the check', async () => {
  const catalogue = new ManifestCatalogue();
  const env = {};
  const release = catalogue.keep(env);
  let scans = 0;
  let current = true;
  const compute = async () => {
    scans++;
    const inventory = { scan: scans } as unknown as ManifestInventory;
    catalogue.reuseWhile(inventory, () => current);
    return inventory;
  };
  try {
    const running = catalogue.answer({ env }, compute);
    current = false;
    assert.equal(catalogue.answer({ env }, compute), running, 'a running scan is shared');
    const first = await running;
    assert.notEqual(await catalogue.answer({ env }, compute), first, 'its check fails: scanned again');
    assert.equal(scans, 2);
    current = true;
    const second = await catalogue.answer({ env }, compute);
    assert.equal(await catalogue.answer({ env }, compute), second, 'its check holds: kept');
    assert.equal(scans, 2);
    assert.notEqual(await catalogue.answer({ env, fresh: true }, compute), second, 'fresh scans whatever the check');
  } finally {
    release();
  }
});
