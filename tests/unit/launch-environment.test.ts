import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchEnvironment, withLaunchEnvironment } from '../../shared/profiles/launch-environment';
import { chooseDrivers } from '../../shared/profiles/loader-filters';
import type { Profile } from '../../shared/profiles/profile-schema';
import { explicitLayer, fakeInventory, implicitLayer } from '../helpers/profile-inventory';

/**
 * shared/profiles/launch-environment.ts: a profile as the variables a given loader version obeys,
 * with a note for what it cannot express. (The real loader checks these in
 * tests/integration/profile-bindings.test.ts.)
 */
const inventory = fakeInventory({
  implicit: [
    implicitLayer('VK_LAYER_MESA_device_select', 'NODEVICE_SELECT'),
    implicitLayer('VK_LAYER_MANGOHUD_overlay', 'DISABLE_MANGOHUD', ['MANGOHUD', '1']),
    {
      path: '/home/u/.local/share/vulkan/implicit_layer.d/VkLayer_override.json',
      layer: {
        name: 'VK_LAYER_LUNARG_override',
        type: 'GLOBAL',
        api_version: '1.3.0',
        implementation_version: '1',
        description: 'o',
        component_layers: [],
        disable_environment: { DISABLE_STRATA_OVERRIDE: '1' },
      },
    },
  ],
  explicit: [explicitLayer('VK_LAYER_A'), explicitLayer('VK_LAYER_B'), explicitLayer('VK_LAYER_KHRONOS_validation')],
  drivers: ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/radeon_icd.x86_64.json'],
});
const p = (layers: Profile['layers'], extra: Partial<Profile> = {}): Profile => ({ schemaVersion: 2, name: 'T', layers, ...extra });

test('loader 1.3.239: explicit on → VK_INSTANCE_LAYERS; off → VK_LOADER_LAYERS_DISABLE and disable_environment; the installed override is switched off', () => {
  const r = launchEnvironment(
    p([
      { name: 'VK_LAYER_A', state: 'on' },
      { name: 'VK_LAYER_MESA_device_select', state: 'off' },
      { name: 'VK_LAYER_B', state: 'auto' },
    ]),
    { inventory, loaderVersion: '1.3.239' },
  );
  assert.deepEqual(r.env, {
    DISABLE_STRATA_OVERRIDE: '1',
    VK_INSTANCE_LAYERS: 'VK_LAYER_A',
    NODEVICE_SELECT: '1',
    VK_LOADER_LAYERS_DISABLE: 'VK_LAYER_MESA_device_select',
  });
  assert.equal(r.notes.length, 1);
  assert.match(r.notes[0]!, /installed override layer is switched off/);
});

test('an implicit layer turned on: VK_LOADER_LAYERS_ENABLE on 1.3.234+, its enable_environment before; its disable variable unset', () => {
  const profile = p([{ name: 'VK_LAYER_MANGOHUD_overlay', state: 'on' }]);
  assert.deepEqual(launchEnvironment(profile, { inventory, loaderVersion: '1.3.239' }).env, {
    DISABLE_STRATA_OVERRIDE: '1',
    DISABLE_MANGOHUD: null,
    VK_LOADER_LAYERS_ENABLE: 'VK_LAYER_MANGOHUD_overlay',
  });
  assert.deepEqual(launchEnvironment(profile, { inventory, loaderVersion: '1.3.230' }).env, {
    DISABLE_STRATA_OVERRIDE: '1',
    DISABLE_MANGOHUD: null,
    MANGOHUD: '1',
  });
});

test('loader 1.3.230 has no VK_LOADER_LAYERS_DISABLE: an explicit layer turned off is a note, an implicit one still has its disable variable', () => {
  const r = launchEnvironment(
    p([
      { name: 'VK_LAYER_A', state: 'off' },
      { name: 'VK_LAYER_MESA_device_select', state: 'off' },
    ]),
    { inventory, loaderVersion: '1.3.230' },
  );
  assert.equal(r.env['VK_LOADER_LAYERS_DISABLE'], undefined);
  assert.equal(r.env['NODEVICE_SELECT'], '1');
  assert.ok(
    r.notes.some((n) => /has no VK_LOADER_LAYERS_DISABLE \(1\.3\.234\+\): an application that enables VK_LAYER_A itself still gets it/.test(n)),
    r.notes.join('\n'),
  );
});

test('order: VK_INSTANCE_LAYERS follows discovery order in loader 1.3.239, so a different profile order is a note naming the order that will run', () => {
  const r = launchEnvironment(
    p([
      { name: 'VK_LAYER_B', state: 'on' },
      { name: 'VK_LAYER_A', state: 'on' },
    ]),
    { inventory, loaderVersion: '1.3.239' },
  );
  assert.equal(r.env['VK_INSTANCE_LAYERS'], 'VK_LAYER_B:VK_LAYER_A');
  assert.ok(
    r.notes.some((n) => n.includes('it will run VK_LAYER_A → VK_LAYER_B')),
    r.notes.join('\n'),
  );
  const inOrder = launchEnvironment(
    p([
      { name: 'VK_LAYER_A', state: 'on' },
      { name: 'VK_LAYER_B', state: 'on' },
    ]),
    { inventory, loaderVersion: '1.3.239' },
  );
  assert.ok(!inOrder.notes.some((n) => n.includes('it will run')));
});

test('an existing VK_INSTANCE_LAYERS / VK_LOADER_LAYERS_DISABLE is merged: profile first, its off layers taken out of VK_INSTANCE_LAYERS (1.3.239 adds them regardless)', () => {
  const env = { VK_INSTANCE_LAYERS: 'VK_LAYER_B:VK_LAYER_KHRONOS_validation', VK_LOADER_LAYERS_DISABLE: 'VK_LAYER_X,VK_LAYER_A' };
  const r = launchEnvironment(
    p([
      { name: 'VK_LAYER_A', state: 'on' },
      { name: 'VK_LAYER_KHRONOS_validation', state: 'off' },
    ]),
    { inventory, loaderVersion: '1.3.239', env },
  );
  assert.equal(r.env['VK_INSTANCE_LAYERS'], 'VK_LAYER_A:VK_LAYER_B');
  assert.equal(r.env['VK_LOADER_LAYERS_DISABLE'], 'VK_LAYER_KHRONOS_validation,VK_LAYER_X');
});

test('missing layers, settings without a settings file, application layers position and the "validation" message level are notes', () => {
  const r = launchEnvironment(
    p(
      [
        { name: 'VK_LAYER_NOT_HERE', state: 'on' },
        { name: 'VK_LAYER_A', state: 'on' },
      ],
      { applicationLayersAt: 0, settings: { VK_LAYER_A: { k: true } }, loaderMessages: ['warn', 'validation'] },
    ),
    { inventory, loaderVersion: '1.3.239' },
  );
  assert.equal(r.env['VK_LOADER_DEBUG'], 'warn');
  for (const re of [
    /not installed here, so the loader skips it: VK_LAYER_NOT_HERE/,
    /application layers position cannot be expressed/,
    /VK_LAYER_SETTINGS_PATH/,
    /no "validation" level/,
  ])
    assert.ok(
      r.notes.some((n) => re.test(n)),
      `${re}\n${r.notes.join('\n')}`,
    );
  const withFile = launchEnvironment(p([{ name: 'VK_LAYER_A', state: 'on' }], { settings: { VK_LAYER_A: { k: true } } }), {
    inventory,
    loaderVersion: '1.3.239',
    layerSettingsPath: '/tmp/s/vk_layer_settings.txt',
  });
  assert.equal(withFile.env['VK_LAYER_SETTINGS_PATH'], '/tmp/s/vk_layer_settings.txt');
});

test('drivers: select / disable as the loader filters (file names, globs); order is a note; a filter that leaves none is a note', () => {
  const r = launchEnvironment(p([], { drivers: { select: ['lvp_icd*'], disable: ['*radeon*'], order: ['lvp*'] } }), { inventory, loaderVersion: '1.3.239' });
  assert.equal(r.env['VK_LOADER_DRIVERS_SELECT'], 'lvp_icd*');
  assert.equal(r.env['VK_LOADER_DRIVERS_DISABLE'], '*radeon*');
  assert.ok(r.notes.some((n) => /cannot order drivers/.test(n)));
  const none = launchEnvironment(p([], { drivers: { select: ['nvidia*'] } }), { inventory, loaderVersion: '1.3.239' });
  assert.ok(none.notes.some((n) => /leave no driver/.test(n)));
  assert.deepEqual(
    chooseDrivers({ disable: ['*'], select: ['RADEON_icd.x86_64.json'] }, ['/a/lvp_icd.x86_64.json', '/b/radeon_icd.x86_64.json']).map((c) => [c.path, c.kept]),
    [
      ['/b/radeon_icd.x86_64.json', true],
      ['/a/lvp_icd.x86_64.json', false],
    ],
    'select wins over disable, without regard to case',
  );
  assert.deepEqual(
    chooseDrivers({ order: ['radeon*'] }, ['/a/lvp_icd.x86_64.json', '/b/radeon_icd.x86_64.json']).map((c) => c.path),
    ['/b/radeon_icd.x86_64.json', '/a/lvp_icd.x86_64.json'],
  );
});

test('withLaunchEnvironment: null unsets, strings set, the rest is kept', () => {
  assert.deepEqual(withLaunchEnvironment({ A: '1', B: '2', C: undefined }, { A: null, D: '4' }), { B: '2', D: '4' });
});
