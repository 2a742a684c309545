import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * `strata profile …`, `strata override export --profile` and `strata explain --profile` as a user
 * runs them (the built bin/strata, a throwaway HOME): exit codes 0 / 1 / 2, one-line errors naming
 * the file and the field, JSON output.
 */
const FIXTURES = join(APP_ROOT, 'tests', 'fixtures', 'profiles');
let home: TempHome;
const strata = (...args: string[]) => runStrata(args, home.env);
const profilesDir = () => join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles');

before(() => {
  home = makeTempHome();
});
after(() => home?.cleanup());

test('create from a preset, show, list --json; a taken name is exit 1 with a fix; no name is a usage error (exit 2)', () => {
  const created = strata('profile', 'create', 'Sync checks', '--from', 'Validation — synchronization');
  assert.equal(created.status, 0, created.stderr);
  assert.match(created.stdout, /^Created "Sync checks" in .*Sync-checks\.json\.$/m);
  const shown = JSON.parse(strata('profile', 'show', 'sync checks', '--json').stdout);
  assert.deepEqual(shown.layers, [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' }]);
  assert.deepEqual(shown.settings.VK_LAYER_KHRONOS_validation.enables, ['VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT']);
  const human = strata('profile', 'show', 'Sync checks').stdout;
  assert.match(human, /^on \(in order\) +VK_LAYER_KHRONOS_validation$/m);

  const list = JSON.parse(strata('profile', 'list', '--json').stdout);
  assert.deepEqual(
    list.profiles.map((p: { name: string }) => p.name),
    ['Sync checks'],
  );
  assert.equal(list.presets.length, 7);

  const taken = strata('profile', 'create', 'SYNC CHECKS');
  assert.equal(taken.status, 1);
  assert.match(taken.stderr, /^strata: A profile named "Sync checks" exists already \(.*Sync-checks\.json\)\. Fix: choose another name/);
  assert.equal(taken.stderr.trim().split('\n').length, 1);
  assert.equal(strata('profile', 'create').status, 2);
  assert.equal(strata('profile', 'show', 'Nope').status, 1);
});

test('import: a broken file is exit 1 naming the file and field, and writes nothing', () => {
  const before = readdirSync(profilesDir());
  const file = join(FIXTURES, 'bad', 'layer-state-unknown.json');
  const r = strata('profile', 'import', file);
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(
    r.stderr,
    /^strata: layers\[0\]\.state: Invalid option: expected one of "on"\|"off"\|"auto" \(.*layer-state-unknown\.json, field layers\[0\]\.state\)\. Fix: /,
  );
  assert.deepEqual(readdirSync(profilesDir()), before);
  const missing = strata('profile', 'import', join(home.dir, 'nowhere.json'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /Cannot read the profile: ENOENT/);
});

test("import of a version-1 profile converts it; import of vkconfig's VkLayer_override.json keeps unknown layers, with a warning", () => {
  const v1 = strata('profile', 'import', join(FIXTURES, 'v1-synchronization.json'), '--json');
  assert.equal(v1.status, 0, v1.stderr);
  const r1 = JSON.parse(v1.stdout);
  assert.equal(r1.migratedFrom, 1);
  assert.equal(JSON.parse(readFileSync(r1.stored.file, 'utf8')).schemaVersion, 2);

  const ov = strata('profile', 'import', join(FIXTURES, 'vkconfig-override.json'), '--name', 'From vkconfig');
  assert.equal(ov.status, 0, ov.stderr);
  assert.match(ov.stderr, /^strata: warning: not installed here \(kept in the profile; the loader skips it\): VK_LAYER_LUNARG_not_installed_here$/m);
  const p = JSON.parse(strata('profile', 'show', 'From vkconfig', '--json').stdout);
  assert.deepEqual(p.layers, [
    { name: 'VK_LAYER_KHRONOS_validation', state: 'on' },
    { name: 'VK_LAYER_LUNARG_not_installed_here', state: 'on' },
    { name: 'VK_LAYER_MESA_device_select', state: 'off' },
  ]);
  assert.deepEqual(p.overridePaths, ['/usr/share/vulkan/explicit_layer.d']);
  assert.deepEqual(p.applications, ['/usr/bin/vkcube']);
});

test('export -o then import under another name gives the same profile; copy and rename; override export --profile', () => {
  const out = join(home.dir, 'sync.strata-profile.json');
  assert.equal(strata('profile', 'export', 'Sync checks', '-o', out).status, 0);
  assert.equal(strata('profile', 'import', out, '--name', 'Sync again').status, 0);
  const a = JSON.parse(strata('profile', 'show', 'Sync checks', '--json').stdout);
  const b = JSON.parse(strata('profile', 'show', 'Sync again', '--json').stdout);
  assert.deepEqual({ ...b, name: a.name }, a);
  assert.equal(strata('profile', 'copy', 'No layers (all implicit layers off)', 'Quiet').status, 0);
  const renamed = strata('profile', 'rename', 'Quiet', 'Very quiet', '--json');
  assert.equal(renamed.status, 0, renamed.stderr);
  assert.ok(JSON.parse(renamed.stdout).file.endsWith('Very-quiet.json'));

  const exported = strata('override', 'export', '--profile', 'Very quiet');
  assert.equal(exported.status, 0, exported.stderr);
  const manifest = JSON.parse(exported.stdout);
  assert.equal(manifest.layer.name, 'VK_LAYER_LUNARG_override');
  assert.ok(manifest.layer.blacklisted_layers.includes('VK_LAYER_MESA_device_select'));
  assert.equal(strata('override', 'export').status, 2, 'neither --config nor --profile');
  const o = join(home.dir, 'VkLayer_override.json');
  assert.equal(strata('override', 'export', '--profile', 'Very quiet', '-o', o).status, 0);
  const lint = strata('lint', o, '--json');
  assert.equal(lint.status, 0, lint.stdout);
});

test('explain --profile: the chain as if the profile were the override, with the drivers; nothing is installed', () => {
  const r = strata('explain', '--profile', 'Sync checks', '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.ok(j.chain.some((e: { name: string }) => e.name === 'VK_LAYER_KHRONOS_validation'));
  assert.ok(j.drivers.some((d: { path: string; kept: boolean }) => d.path.endsWith('lvp_icd.x86_64.json') && d.kept));
  assert.ok(!existsSync(join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d', 'VkLayer_override.json')));
  const human = strata('explain', '--profile', 'Very quiet');
  assert.match(human.stdout, /^Profile "Very quiet" as the override layer:/);
  assert.match(human.stdout, /VK_LAYER_MESA_device_select[^\n]*\n\s+override\/blacklisted/);
  assert.equal(strata('explain', '--profile', 'Sync checks', '--env', 'A=1').status, 2);
});

test('env: the launch environment of a profile and what loader 1.3.239 cannot express', () => {
  const profile = join(home.dir, 'drivers.json');
  writeFileSync(
    profile,
    JSON.stringify({
      schemaVersion: 2,
      name: 'Only lavapipe',
      layers: [{ name: 'VK_LAYER_MESA_device_select', state: 'off' }],
      drivers: { select: ['lvp_icd*'], order: ['lvp_icd*'] },
      loaderMessages: ['error', 'validation'],
    }),
  );
  assert.equal(strata('profile', 'import', profile).status, 0);
  const r = JSON.parse(strata('profile', 'env', 'Only lavapipe', '--json', '--loader-version', '1.3.239').stdout);
  assert.equal(r.env.VK_LOADER_DRIVERS_SELECT, 'lvp_icd*');
  assert.equal(r.env.NODEVICE_SELECT, '1');
  assert.equal(r.env.VK_LOADER_LAYERS_DISABLE, 'VK_LAYER_MESA_device_select');
  assert.equal(r.env.VK_LOADER_DEBUG, 'error');
  assert.ok(
    r.notes.some((n: string) => /cannot order drivers/.test(n)),
    JSON.stringify(r.notes),
  );
  assert.ok(
    r.notes.some((n: string) => /no "validation" level/.test(n)),
    JSON.stringify(r.notes),
  );
  const old = JSON.parse(strata('profile', 'env', 'Only lavapipe', '--json', '--loader-version', '1.3.230').stdout);
  assert.equal(old.env.VK_LOADER_DRIVERS_SELECT, undefined);
  assert.ok(old.notes.some((n: string) => /no driver filters \(1\.3\.234\+\)/.test(n)));
});

test('delete: refused while an application is bound, --force unbinds it', () => {
  const app = join(home.dir, 'app');
  writeFileSync(app, '#!/bin/sh\n', { mode: 0o755 });
  const bound = strata('profile', 'bind', app, 'Sync again', '--arg', '--fullscreen', '--env', 'FOO=1', '--json');
  assert.equal(bound.status, 0, bound.stderr);
  assert.deepEqual(JSON.parse(bound.stdout).application, { path: app, profile: 'Sync again', args: ['--fullscreen'], env: { FOO: '1' } });
  const refused = strata('profile', 'delete', 'Sync again');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /is bound to .*app.*Fix: unbind them first/);
  const forced = strata('profile', 'delete', 'Sync again', '--force', '--json');
  assert.equal(forced.status, 0, forced.stderr);
  assert.deepEqual(JSON.parse(forced.stdout).unbound, [app]);
  assert.equal(strata('profile', 'bind', join(home.dir, 'no-such-app'), 'Sync checks').status, 1);
});

test('list exits 1 and names the file when a profile file is broken, and leaves it alone', () => {
  const broken = join(profilesDir(), 'broken.json');
  writeFileSync(broken, '{"schemaVersion": 2, "name": "Broken", "layers": [{"name": "X", "state": "yes"}]}');
  const r = strata('profile', 'list');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /layers\[0\]\.state: .*broken\.json, field layers\[0\]\.state/);
  assert.equal(readFileSync(broken, 'utf8'), '{"schemaVersion": 2, "name": "Broken", "layers": [{"name": "X", "state": "yes"}]}');
});

test('explain --profile predicts the chain `profile apply` then gives: the override is placed where it will be written (one what-if pipeline)', () => {
  const own = makeTempHome();
  const run = (...args: string[]) => runStrata(args, own.env);
  const chainOf = (r: ReturnType<typeof run>) => {
    assert.equal(r.status, 0, r.stderr);
    return (JSON.parse(r.stdout) as { chain: { name: string }[] }).chain.map((e) => e.name);
  };
  try {
    assert.equal(run('profile', 'create', 'Sync checks', '--from', 'Validation — synchronization').status, 0);
    // Strata's override file goes in $XDG_DATA_HOME, before the system's implicit layers (/usr/share: device_select).
    const predicted = chainOf(run('explain', '--profile', 'Sync checks', '--json'));
    assert.equal(run('profile', 'apply', 'Sync checks').status, 0);
    const installed = chainOf(run('explain', '--json'));
    assert.deepEqual(predicted, installed, 'the what-if chain is the installed one');
    assert.ok(installed.includes('VK_LAYER_KHRONOS_validation'));
  } finally {
    own.cleanup();
  }
});
