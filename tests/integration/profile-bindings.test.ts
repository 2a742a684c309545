import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainChain } from '../../main/chain/chain-service';
import { profilesLaunchEnvironment } from '../../main/profiles/profile-service';
import { withLaunchEnvironment } from '../../shared/profiles/launch-environment';
import { buildLoaderKit, fourApps, importProfiles, runProbe, writeRecordingManifests, type LoaderKit } from '../helpers/profile-loader-kit';
import { runStrata } from '../helpers/strata-cli';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * Per-application profiles against the real loader (Debian libvulkan1 1.3.239, lavapipe): copies
 * of one small C Vulkan program (tests/fixtures/layers/chain-probe.c) at different paths, bound to
 * different profiles of recording layers with `strata profile bind`, then run outside Strata, as a
 * user would start them; and the same profiles given to a launch from Strata (launchEnvironment).
 */
const LAYERS = ['VK_LAYER_STRATA_ra', 'VK_LAYER_STRATA_rb', 'VK_LAYER_STRATA_rc'];
const [A, B, C] = LAYERS as [string, string, string];
const work = realpathSync(mkdtempSync(join(tmpdir(), 'strata-profile-bindings-')));
let kit: LoaderKit;
let home: TempHome;
let apps: { one: string; two: string; three: string; unbound: string };

before(() => {
  kit = buildLoaderKit(join(work, 'kit'), LAYERS);
  home = makeTempHome();
  // Explicit layers where every application finds them, no variable needed: $XDG_DATA_HOME/vulkan/explicit_layer.d.
  writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
  apps = fourApps(kit, join(work, 'bin'));
  importProfiles(home.env, work, {
    One: [{ name: A, state: 'on' }],
    Two: [
      { name: C, state: 'on' },
      { name: B, state: 'on' },
    ],
    Three: [
      { name: B, state: 'on' },
      { name: A, state: 'off' },
    ],
    Global: [{ name: C, state: 'on' }],
  });
});

after(() => {
  home?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

test('outside Strata, mechanism "override layers scoped by app_keys" (loader 1.3.239 reads no vk_loader_settings.json): three applications bound to three profiles each get their own chain; an unbound one gets the global profile', async () => {
  assert.equal(runStrata(['profile', 'apply', 'Global'], home.env).status, 0);
  for (const [app, profile] of [
    [apps.one, 'One'],
    [apps.two, 'Two'],
    [apps.three, 'Three'],
  ] as const) {
    const r = runStrata(['profile', 'bind', app, profile, '--json'], home.env);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const sync = JSON.parse(r.stdout).sync as { mechanism: string; checks: { app: string; ok: boolean; message: string }[] };
    assert.equal(sync.mechanism, 'override-app-keys');
    assert.ok(
      sync.checks.every((c) => c.ok),
      JSON.stringify(sync.checks, null, 2),
    );
  }
  const expected: [string, string[]][] = [
    [apps.one, [A]],
    [apps.two, [C, B]],
    [apps.three, [B]],
    [apps.unbound, [C]],
  ];
  for (const [app, chain] of expected) {
    const run = await runProbe(app, home.env);
    assert.equal(run.result, 0, run.log);
    assert.deepEqual(run.chain, chain, `${app}\n${run.log}`);
  }
  // The blacklist of "Three" is its own: app-three asking for A fails, app-one asking for it does not.
  assert.equal((await runProbe(apps.three, home.env, [A])).result, -6);
  assert.deepEqual((await runProbe(apps.one, home.env, [A])).chain, [A]);
  // DISABLE_STRATA_OVERRIDE switches every Strata override off, per-application ones included.
  assert.deepEqual((await runProbe(apps.two, { ...home.env, DISABLE_STRATA_OVERRIDE: '1' })).chain, []);
});

test('why the app_keys accumulate: with each override file naming only its own application, loader 1.3.239 gives the first-read application the layers of the files read after it', async () => {
  const dir = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d');
  const naiveHome = makeTempHome();
  try {
    writeRecordingManifests(kit, join(naiveHome.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
    const naiveDir = join(naiveHome.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d');
    mkdirSync(naiveDir, { recursive: true });
    // Strata's own files, with each app_keys cut down to the file's own applications.
    for (const f of ['One', 'Two', 'Three']) {
      const file = `VkLayer_override_strata_${f}.json`;
      const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { layer: { app_keys: string[] } };
      const own = { One: apps.one, Two: apps.two, Three: apps.three }[f]!;
      json.layer.app_keys = [own];
      writeFileSync(join(naiveDir, file), JSON.stringify(json));
    }
    const chains = await Promise.all([apps.one, apps.two, apps.three].map((a) => runProbe(a, naiveHome.env)));
    const own = [[A], [C, B], [B]];
    const mixed = chains.filter((c, i) => JSON.stringify(c.chain) !== JSON.stringify(own[i]));
    assert.ok(mixed.length >= 1, `some application gets more than its own profile: ${JSON.stringify(chains.map((c) => c.chain))}`);
    // The chain model (tests/integration/chain-vs-loader.test.ts) predicts the mix exactly.
    for (const [i, app] of [apps.one, apps.two, apps.three].entries()) {
      const model = await explainChain({ env: naiveHome.env }, { app: { path: app, requestedLayers: [] }, loader: { version: '1.3.239' } });
      assert.deepEqual(
        model.chain.map((e) => e.name).filter((n) => LAYERS.includes(n)),
        chains[i]!.chain,
        app,
      );
    }
  } finally {
    naiveHome.cleanup();
  }
});

test('launched from Strata, mechanism "launchEnvironment" (VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_DISABLE, override switched off): each profile gives the chain the model predicts, whatever is installed', async () => {
  const o = { env: home.env, loaderVersion: async () => '1.3.239' };
  for (const [profile, on] of [
    ['One', [A]],
    ['Two', [C, B]],
    ['Three', [B]],
  ] as const) {
    const launch = await profilesLaunchEnvironment(o, { name: profile });
    const env = withLaunchEnvironment(home.env, launch.env);
    // The first test installed overrides (global and per application): they are off for the launch.
    assert.equal(env['DISABLE_STRATA_OVERRIDE'], '1', JSON.stringify(launch));
    // app-one is bound to "One", yet a launch with another profile gets that profile alone.
    const run = await runProbe(apps.one, env);
    assert.equal(run.result, 0, run.log);
    assert.deepEqual([...run.chain].sort(), [...on].sort(), `${profile}: ${JSON.stringify(launch)}`);
    const model = await explainChain({ env }, { app: { path: apps.one, requestedLayers: [] }, loader: { version: '1.3.239' } });
    assert.deepEqual(
      model.chain.map((e) => e.name).filter((n) => LAYERS.includes(n)),
      run.chain,
      `${profile}: model`,
    );
    // Loader 1.3.239 enables VK_INSTANCE_LAYERS in its own discovery order; when that is not the profile's, a note says so.
    if (JSON.stringify(run.chain) !== JSON.stringify(on))
      assert.ok(
        launch.notes.some((n) => n.includes(`it will run ${run.chain.join(' → ')}`)),
        JSON.stringify(launch.notes),
      );
  }
  // "off" at launch is VK_LOADER_LAYERS_DISABLE; loader 1.3.239 (loader_validate_layers) then refuses an application
  // that asks for the layer, as the override's blacklist does: VK_ERROR_LAYER_NOT_PRESENT. The model agrees.
  const three = await profilesLaunchEnvironment(o, { name: 'Three' });
  assert.equal(three.env['VK_LOADER_LAYERS_DISABLE'], A);
  const env = withLaunchEnvironment(home.env, three.env);
  const asking = await runProbe(apps.two, env, [A]);
  assert.equal(asking.result, -6, asking.log);
  assert.match(asking.log, /forced disabled because name matches filter of env var 'VK_LOADER_LAYERS_DISABLE'/);
  const model = await explainChain({ env }, { app: { path: apps.two, requestedLayers: [A] }, loader: { version: '1.3.239' } });
  assert.equal(model.result, 'VK_ERROR_LAYER_NOT_PRESENT');
});

test('unbind: the application falls back to the global profile, its override file is rewritten, the others keep theirs', async () => {
  const r = runStrata(['profile', 'unbind', apps.two, '--json'], home.env);
  assert.equal(r.status, 0, r.stderr);
  const sync = JSON.parse(r.stdout).sync as { files: { profile: string }[]; removed: string[]; checks: { ok: boolean }[] };
  assert.deepEqual(sync.files.map((f) => f.profile).sort(), ['One', 'Three']);
  assert.equal(sync.removed.length, 1);
  assert.ok(sync.checks.every((c) => c.ok));
  assert.deepEqual((await runProbe(apps.two, home.env)).chain, [C]);
  assert.deepEqual((await runProbe(apps.one, home.env)).chain, [A]);
  assert.deepEqual((await runProbe(apps.three, home.env)).chain, [B]);
});
