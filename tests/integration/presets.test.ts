import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import {
  profilesApply,
  profilesExplain,
  profilesExport,
  profilesImport,
  profilesList,
  profilesOverrideExport,
  type ProfileServiceOptions,
} from '../../main/profiles/profile-service';
import { lintManifest } from '../../shared/lint/manifest-lint';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { builtInPresets, VALIDATION_LAYER, VALIDATION_PRESET_VALUES } from '../../shared/profiles/presets';
import { profileToOverrideConfig } from '../../shared/profiles/profile-override';
import { PROFILE_SCHEMA_VERSION } from '../../shared/profiles/profile-schema';
import { buildLoaderKit, runProbe, writeRecordingManifests } from '../helpers/profile-loader-kit';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * The built-in presets on this machine (Debian's validation layers, Mesa's device-select, MangoHud,
 * vkBasalt): their validation settings are the real manifest's presets; each goes through export
 * and import unchanged; each one's override layer lints clean; and the real loader obeys the
 * override of every preset whose layers are installed, and of a profile of recording layers.
 */
const VALIDATION_MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
const RECORDING = ['VK_LAYER_STRATA_p1', 'VK_LAYER_STRATA_p2', 'VK_LAYER_STRATA_p3'];
const work = realpathSync(mkdtempSync(join(tmpdir(), 'strata-profile-presets-')));
after(() => rmSync(work, { recursive: true, force: true }));

const service = (home: TempHome): ProfileServiceOptions => ({ env: home.env, loaderVersion: async () => '1.3.239' });

test("the validation presets carry exactly the settings of the real validation manifest's presets of the same label", () => {
  const manifest = JSON.parse(readFileSync(VALIDATION_MANIFEST, 'utf8')) as {
    layer: { features: { presets: { label: string; settings: { key: string; value: unknown }[] }[] } };
  };
  for (const [label, values] of Object.entries(VALIDATION_PRESET_VALUES)) {
    const real = manifest.layer.features.presets.find((p) => p.label === label);
    assert.ok(real, `the manifest has a preset labelled ${label}`);
    for (const key of ['enables', 'disables'] as const) assert.deepEqual(real.settings.find((s) => s.key === key)?.value, values[key], `${label}: ${key}`);
  }
});

test(
  'availability here: validation presets available, API dump and frame capture missing (said so), no-layers turns off every implicit layer found',
  withTempHome(async (home) => {
    const list = await profilesList(service(home));
    const byId = new Map(list.presets.map((p) => [p.id, p]));
    for (const id of ['validation-standard', 'validation-synchronization', 'validation-best-practices', 'validation-gpu-assisted'])
      assert.equal(byId.get(id)?.available, true, id);
    assert.deepEqual(byId.get('api-dump')?.missing, ['VK_LAYER_LUNARG_api_dump']);
    assert.match(byId.get('api-dump')?.note ?? '', /Not installed here: VK_LAYER_LUNARG_api_dump/);
    assert.equal(byId.get('frame-capture')?.available, false);
    const off = byId.get('no-layers')!.profile.layers;
    for (const name of ['VK_LAYER_MESA_device_select', 'VK_LAYER_MANGOHUD_overlay', 'VK_LAYER_VKBASALT_post_processing'])
      assert.ok(
        off.some((l) => l.name === name && l.state === 'off'),
        `${name} off`,
      );
  }),
);

test(
  'every preset: export → import → identical profile; its override layer lints clean',
  withTempHome(async (home) => {
    const o = service(home);
    const presets = builtInPresets(await discoveryManifests({ env: home.env }));
    assert.equal(presets.length, 7);
    for (const preset of presets) {
      const exported = await profilesExport(o, { name: preset.id });
      const imported = await profilesImport(o, { text: exported.text, source: exported.fileName, name: `Copy of ${preset.id}` });
      assert.equal(imported.kind, 'profile');
      assert.deepEqual({ ...imported.stored.profile, name: preset.profile.name }, preset.profile, preset.id);
      assert.equal(
        readFileSync(imported.stored.file, 'utf8'),
        exported.text.replace(JSON.stringify(preset.profile.name), JSON.stringify(`Copy of ${preset.id}`)),
      );
      const override = await profilesOverrideExport(o, { name: preset.profile.name });
      assert.deepEqual(lintManifest(parseManifest(override.text), { role: 'implicit-layer' }), [], `${preset.id} override lints clean:\n${override.text}`);
      assert.equal(imported.stored.profile.schemaVersion, PROFILE_SCHEMA_VERSION);
    }
  }),
);

test(
  'the real loader obeys the override of every preset whose layers are installed',
  withTempHome(async (home) => {
    const kit = buildLoaderKit(join(work, 'kit-real'), []);
    const o = service(home);
    const presets = builtInPresets(await discoveryManifests({ env: home.env })).filter((p) => p.available);
    assert.ok(presets.length >= 5);
    const baseline = await runProbe(kit.probe, home.env);
    assert.ok(baseline.result === 0 && baseline.inserted('VK_LAYER_MESA_device_select') && !baseline.inserted(VALIDATION_LAYER), baseline.log);
    for (const preset of presets) {
      await profilesApply(o, { name: preset.id, force: true });
      // MangoHud and vkBasalt asked for by their enable variables: the no-layers blacklist must still keep them out.
      const run = await runProbe(kit.probe, { ...home.env, MANGOHUD: '1', ENABLE_VKBASALT: '1' });
      assert.equal(run.result, 0, `${preset.id}: vkCreateInstance\n${run.log}`);
      const converted = profileToOverrideConfig(preset.profile);
      assert.ok(converted.ok);
      for (const l of preset.profile.layers) {
        if (l.state === 'on') assert.ok(run.inserted(l.name), `${preset.id}: ${l.name} is on\n${run.log}`);
        if (l.state === 'off') assert.ok(!run.inserted(l.name), `${preset.id}: ${l.name} is off\n${run.log}`);
      }
      assert.match(run.log, /Using the global override layer/);
    }
  }),
);

test(
  'a profile of recording layers: the loader runs them in the profile order; an application asking for the one it turns off fails with VK_ERROR_LAYER_NOT_PRESENT (loader 1.3.239 blacklisting), as the model says',
  withTempHome(async (home) => {
    const kit = buildLoaderKit(join(work, 'kit-rec'), RECORDING);
    const env = { ...home.env, VK_LAYER_PATH: join(home.dir, 'layers') };
    writeRecordingManifests(kit, join(home.dir, 'layers'), RECORDING);
    const o = { env, loaderVersion: async () => '1.3.239' };
    const text = JSON.stringify({
      schemaVersion: 2,
      name: 'Recording order',
      layers: [
        { name: 'VK_LAYER_STRATA_p3', state: 'on' },
        { name: 'VK_LAYER_STRATA_p1', state: 'on' },
        { name: 'VK_LAYER_STRATA_p2', state: 'off' },
      ],
    });
    await profilesImport(o, { text, source: 'recording.json' });
    await profilesApply(o, { name: 'Recording order' });
    const run = await runProbe(kit.probe, env);
    assert.equal(run.result, 0, run.log);
    assert.deepEqual(run.chain, ['VK_LAYER_STRATA_p3', 'VK_LAYER_STRATA_p1']);
    const asking = await runProbe(kit.probe, env, ['VK_LAYER_STRATA_p2']);
    assert.equal(asking.result, -6, asking.log);
    assert.deepEqual(asking.chain, []);
    const model = await profilesExplain(o, { name: 'Recording order', appPath: kit.probe, requestedLayers: ['VK_LAYER_STRATA_p2'] });
    assert.equal(model.chain.result, 'VK_ERROR_LAYER_NOT_PRESENT');
    assert.deepEqual(
      (await profilesExplain(o, { name: 'Recording order', appPath: kit.probe })).chain.chain.map((e) => e.name).filter((n) => RECORDING.includes(n)),
      run.chain,
    );
  }),
);
