import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activityDisable, activityStatus } from '../../main/activity/activity-service';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import { profilesApply, profilesBind, profilesCreate, profilesSave, readApplications, type ProfileServiceOptions } from '../../main/profiles/profile-service';
import { buildLoaderKit, copyProbe, runProbe, writeRecordingManifests, type LoaderKit } from '../helpers/profile-loader-kit';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * "What is active for whom" (activity.status) and its undo (activity.disable), checked against the
 * real loader (Debian libvulkan1 1.3.239, lavapipe): copies of the chain probe bound to profiles of
 * recording layers, a global override, a loader settings file another tool wrote. What the status
 * says each application gets is what the loader gives it, before and after each Disable.
 */
const LAYERS = ['VK_LAYER_STRATA_aa', 'VK_LAYER_STRATA_ab', 'VK_LAYER_STRATA_ac'];
const [A, B, C] = LAYERS as [string, string, string];
const work = realpathSync(mkdtempSync(join(tmpdir(), 'strata-activity-')));
let kit: LoaderKit;
let home: TempHome;
let o: ProfileServiceOptions;
let apps: { one: string; two: string; unbound: string };
let foreignSettings: string;

before(async () => {
  kit = buildLoaderKit(join(work, 'kit'), LAYERS);
  home = makeTempHome();
  writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
  const bin = join(work, 'bin');
  mkdirSync(bin);
  apps = { one: copyProbe(kit, join(bin, 'app-one')), two: copyProbe(kit, join(bin, 'app-two')), unbound: copyProbe(kit, join(bin, 'app-unbound')) };
  const version = vulkaninfoInstanceVersion(home.env);
  o = { env: home.env, loaderVersion: async () => version };
  for (const [name, layers] of [
    ['One', [{ name: A, state: 'on' as const }]],
    ['Two', [{ name: B, state: 'on' as const }]],
    ['Global', [{ name: C, state: 'on' as const }]],
  ] as const)
    await profilesCreate(o, { name, profile: { schemaVersion: 2, name, layers: [...layers] } });
  // A loader settings file another tool wrote (vkconfig 3 writes one here); loader 1.3.239 reads none.
  foreignSettings = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'loader_settings.d', 'vk_loader_settings.json');
  mkdirSync(join(foreignSettings, '..'), { recursive: true });
  writeFileSync(foreignSettings, JSON.stringify({ file_format_version: '1.0.0', settings_array: [] }));
});

after(() => {
  home?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

test('the status names the global override, each binding with its file, and the file another tool wrote; the loader agrees with each binding; no file of Strata is a problem', async () => {
  await profilesApply(o, { name: 'Global' });
  await profilesBind(o, { appPath: apps.one, profile: 'One' });
  await profilesBind(o, { appPath: apps.two, profile: 'Two' });
  const s = await activityStatus(o);
  assert.equal(s.global.ownership, 'strata');
  assert.deepEqual(s.global.on, [C]);
  assert.deepEqual(
    s.bindings.map((b) => [b.app, b.profile, b.ok]),
    [
      [apps.one, 'One', true],
      [apps.two, 'Two', true],
    ],
    JSON.stringify(s.bindings, null, 2),
  );
  for (const b of s.bindings) assert.deepEqual(b.gets, [b.file]);
  assert.deepEqual(s.files.map((f) => [f.role, f.owner]).sort(), [
    ['app-override', 'strata'],
    ['app-override', 'strata'],
    ['global-override', 'strata'],
    ['loader-settings', 'foreign'],
  ]);
  const foreign = s.files.find((f) => f.owner === 'foreign')!;
  assert.equal(foreign.path, foreignSettings);
  assert.equal(foreign.readByLoader, false, 'loader 1.3.239 reads no vk_loader_settings.json');
  assert.match(foreign.summary, /another tool/);

  // The real loader gives each application what the status says.
  assert.deepEqual((await runProbe(apps.one, home.env)).chain, [A]);
  assert.deepEqual((await runProbe(apps.two, home.env)).chain, [B]);
  assert.deepEqual((await runProbe(apps.unbound, home.env)).chain, [C]);

  // Saving a bound profile (the editor's Save) rewrites its application's file at once.
  await profilesSave(o, {
    profile: {
      schemaVersion: 2,
      name: 'One',
      layers: [
        { name: C, state: 'on' },
        { name: A, state: 'on' },
      ],
    },
  });
  assert.deepEqual((await runProbe(apps.one, home.env)).chain, [C, A], 'app-one gets the saved version of its profile');
  assert.ok((await activityStatus(o)).bindings.every((b) => b.ok));

  const inventory = await discoveryManifests({ env: home.env });
  const codes = inventory.manifests.implicit_layer.flatMap((m) => m.diagnostics.map((d) => `${m.path}: ${String(d.code)}`));
  assert.deepEqual(
    codes.filter((c) => c.includes('duplicate-name')),
    [],
    'Strata’s per-application override files are not duplicates',
  );
});

test('Disable asks which: the global override alone leaves the bindings working; then every binding goes, the applications stay listed, the other tool’s file stays', async () => {
  const first = await activityDisable(o, { global: true, apps: [] });
  assert.equal(first.status.global.ownership, 'absent');
  assert.equal(first.status.bindings.length, 2);
  assert.deepEqual((await runProbe(apps.one, home.env)).chain, [C, A], 'a bound application keeps its profile (as saved)');
  assert.deepEqual((await runProbe(apps.unbound, home.env)).chain, [], 'the global override is gone');

  const all = await activityDisable(o, { global: true, apps: first.status.bindings.map((b) => b.app) });
  assert.deepEqual(all.unbound, [apps.one, apps.two]);
  assert.equal(all.removed.length, 2, JSON.stringify(all, null, 2));
  assert.deepEqual(all.status.bindings, []);
  assert.deepEqual(
    all.status.files.map((f) => f.path),
    [foreignSettings],
  );
  assert.ok(existsSync(foreignSettings));
  for (const app of [apps.one, apps.two, apps.unbound]) assert.deepEqual((await runProbe(app, home.env)).chain, [], `${app} gets no layer after Disable`);
  // Still listed (how to launch them is kept), no longer bound.
  assert.deepEqual(
    readApplications(o).applications.map((a) => [a.path, a.profile ?? null]),
    [
      [apps.one, null],
      [apps.two, null],
    ],
  );
});
