import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import {
  bundleForLane,
  installRecordingLayer,
  mingwBuild,
  recordedChain,
  openWindowsLane,
  windowsLoader,
  windowsLaneSkip,
  winPath,
  type RegValue,
  type WindowsLane,
  type WineRun,
} from '../helpers/windows-lane';
import { ProfileBindResultSchema } from '../../shared/profiles/profile-channels';
import { LayerChainSchema } from '../../shared/loader/chain-schema';
import { LayersInspectReportSchema } from '../../shared/vulkan/layer-inspection';
import { ActivityStatusSchema, activityHeadline } from '../../shared/activity/activity-status';
import { OverrideApplyResultSchema, OverrideRemoveResultSchema, OverrideStatusSchema } from '../../shared/override/override-status';

/**
 * The override on Windows, obeyed by the real Windows loader (1.4.359) under Wine: `strata override
 * apply` writes VkLayer_override.json into Strata's own folder and registers it under
 * HKLM/HKCU SOFTWARE\Khronos\Vulkan\ImplicitLayers; recording layer DLLs
 * (tests/fixtures/layers/recording-layer.c, mingw-built) then show the chain the loader built for
 * tests/fixtures/layers/chain-probe.c, which must be the chain `strata explain` predicted. Under Wine
 * every process is elevated: the system scope (HKLM) reaches applications, the user scope (HKCU)
 * does not, and Strata must say so.
 */

const skip = windowsLaneSkip('windows-override-vs-loader');
let lane: WindowsLane;
let probe = '';
const LAYERS = ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_b', 'VK_LAYER_STRATA_c'] as const;
const HKLM_IMPLICIT = 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers';
const HKLM_EXPLICIT = 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers';
const SYSTEM_FILE = 'C:\\ProgramData\\Strata\\override\\VkLayer_override.json';
const FOREIGN = 'C:\\vkconfig\\override\\VkLayer_override.json';

before(() => {
  if (skip) return;
  lane = openWindowsLane();
  const src = join(APP_ROOT, 'tests', 'fixtures', 'layers');
  probe = mingwBuild([join(src, 'chain-probe.c')], 'chain-probe.exe', [], { vulkan: true });
  const dir = join(lane.driveC, 'layers');
  mkdirSync(dir, { recursive: true });
  // Each also reads its settings file as the Khronos layers do (READ_SETTINGS), for the layer settings tests below.
  const features = { settings: [{ key: 'marker', label: 'Marker', description: 'What the layer records', type: 'STRING', default: '' }] };
  for (const name of LAYERS) installRecordingLayer(dir, name, { flags: ['-DREAD_SETTINGS'], layer: { features } });
});
after(() => lane?.close());

let channelRunner: Promise<string> | null = null;
/** A router channel answered by Windows Node (tests/helpers/windows-channel-runner.ts), for channels no command prints. */
async function channel(name: string, request: unknown): Promise<unknown> {
  channelRunner ??= bundleForLane(lane, join(APP_ROOT, 'tests', 'helpers', 'windows-channel-runner.ts'));
  const runner = await channelRunner;
  const requestFile = join(lane.home.dir, `request-${name}.json`);
  const resultFile = join(lane.home.dir, `result-${name}.json`);
  writeFileSync(requestFile, JSON.stringify(request));
  rmSync(resultFile, { force: true });
  const r = lane.node(runner, [name, winPath(requestFile), winPath(resultFile)]);
  assert.ok(existsSync(resultFile), `the channel runner wrote no answer (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
  const answer = JSON.parse(readFileSync(resultFile, 'utf8')) as { ok: boolean; value?: unknown; error?: string };
  assert.ok(answer.ok, answer.error);
  return answer.value;
}

const explicitLayers = (): RegValue[] => LAYERS.map((n) => ({ name: `C:\\layers\\${n}.json`, data: 0 }));

/** A fresh registry (the three explicit layers, winevulkan) and no Strata state. */
function reset(extra: Record<string, RegValue[]> = {}) {
  lane.setKhronosRegistry({ [HKLM_EXPLICIT]: explicitLayers(), ...extra });
  for (const d of ['ProgramData/Strata', 'vkconfig']) rmSync(join(lane.driveC, d), { recursive: true, force: true });
  // Strata's profiles and bound applications (XDG_CONFIG_HOME of the lane's HOME): no binding of an earlier test is left.
  rmSync(join(lane.home.dir, '.config', 'strata'), { recursive: true, force: true });
  for (const user of readdirSync(join(lane.driveC, 'users')))
    rmSync(join(lane.driveC, 'users', user, 'AppData', 'Local', 'Strata'), { recursive: true, force: true });
}

function writeConfig(config: unknown): string {
  const file = join(lane.home.dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  return winPath(file);
}

/** The chain the real loader built: the recording layers in call order (application side first). */
function loaderChain(): string[] {
  const { chain, run } = recordedChain(lane, probe, ['1.3']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^loader 1\.4\.359$/m);
  return chain;
}

/** What `strata explain` predicts for the probe (no layers requested), the recording layers only. */
function predictedChain(): string[] {
  const r = lane.strata(['explain', '--api-version', '1.3', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const chain = LayerChainSchema.parse(JSON.parse(r.stdout));
  return chain.chain.map((e) => e.name).filter((n) => (LAYERS as readonly string[]).includes(n));
}

const json = (r: WineRun) => {
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout) as unknown;
};

test('without an override the loader runs no recording layer, and strata explain predicts none', { skip }, () => {
  reset();
  assert.deepEqual(loaderChain(), []);
  assert.deepEqual(predictedChain(), []);
});

test('override apply --system: the file in ProgramData\\Strata, registered in HKLM; the loader builds the chain strata explain predicted', { skip }, () => {
  reset();
  const config = writeConfig({
    layers: [
      { name: 'VK_LAYER_STRATA_c', state: 'on' },
      { name: 'VK_LAYER_STRATA_a', state: 'on' },
      { name: 'VK_LAYER_STRATA_b', state: 'off' },
    ],
  });
  const applied = OverrideApplyResultSchema.parse(json(lane.strata(['override', 'apply', '--system', '--config', config, '--json'])));
  assert.equal(applied.path, SYSTEM_FILE);
  assert.deepEqual([applied.registration?.key, applied.registration?.value, applied.registration?.action], [HKLM_IMPLICIT, SYSTEM_FILE, 'added']);
  assert.match(lane.regQuery(HKLM_IMPLICIT), /C:\\ProgramData\\Strata\\override\\VkLayer_override\.json\s+REG_DWORD\s+0x0/);

  const predicted = predictedChain();
  assert.deepEqual(predicted, ['VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_a']);
  assert.deepEqual(loaderChain(), predicted);

  // Applying the same configuration again changes nothing, the value included.
  const again = OverrideApplyResultSchema.parse(json(lane.strata(['override', 'apply', '--system', '--config', config, '--json'])));
  assert.deepEqual([again.action, again.registration?.action], ['unchanged', 'unchanged']);

  // Surrender: the file and the value go, the loader is back to no layers.
  const removed = OverrideRemoveResultSchema.parse(json(lane.strata(['override', 'remove', '--system', '--json'])));
  assert.deepEqual([removed.action, removed.registration?.action], ['deleted', 'removed']);
  assert.doesNotMatch(lane.regQuery(HKLM_IMPLICIT), /Strata/);
  assert.equal(existsSync(join(lane.driveC, 'ProgramData', 'Strata', 'override', 'VkLayer_override.json')), false);
  assert.deepEqual(loaderChain(), []);
  assert.deepEqual(predictedChain(), []);
});

test('override apply (user scope): registered in HKCU, which the elevated loader skips; Strata says so and predicts what the loader does', { skip }, () => {
  reset();
  const config = writeConfig({ layers: [{ name: 'VK_LAYER_STRATA_b', state: 'on' }] });
  const r = lane.strata(['override', 'apply', '--config', config]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers/);
  assert.match(r.stdout, /skip HKEY_CURRENT_USER.*Strata itself runs elevated/s);
  assert.match(lane.regQuery('HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'), /\\Strata\\override\\VkLayer_override\.json\s+REG_DWORD\s+0x0/);
  // Elevated, the loader never reads HKCU: no chain; and Strata, elevated too, predicts exactly that.
  assert.deepEqual(loaderChain(), []);
  assert.deepEqual(predictedChain(), []);
  const status = OverrideStatusSchema.parse(json(lane.strata(['override', 'status', '--json'])));
  assert.equal(status.registration?.registered, true);
  assert.match(status.registration?.note ?? '', /elevated/);
  const removed = OverrideRemoveResultSchema.parse(json(lane.strata(['override', 'remove', '--json'])));
  assert.equal(removed.registration?.action, 'removed');
  assert.doesNotMatch(lane.regQuery('HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers'), /Strata/);
});

test("another tool's override registered in HKLM: refused without --force; forced, it is disabled and remove enables it again", { skip }, () => {
  reset({ [HKLM_IMPLICIT]: [{ name: FOREIGN, data: 0 }] });
  mkdirSync(join(lane.driveC, 'vkconfig', 'override'), { recursive: true });
  writeFileSync(
    join(lane.driveC, 'vkconfig', 'override', 'VkLayer_override.json'),
    JSON.stringify({
      file_format_version: '1.1.2',
      layer: {
        name: 'VK_LAYER_LUNARG_override',
        type: 'GLOBAL',
        api_version: '1.3.0',
        implementation_version: '1',
        description: 'vkconfig',
        component_layers: ['VK_LAYER_STRATA_b'],
        disable_environment: { DISABLE_VKCONFIG_OVERRIDE: '1' },
      },
    }),
  );
  assert.deepEqual(loaderChain(), ['VK_LAYER_STRATA_b'], "the other tool's override is what the loader obeys before Strata writes");
  assert.deepEqual(predictedChain(), ['VK_LAYER_STRATA_b']);

  const config = writeConfig({
    layers: [
      { name: 'VK_LAYER_STRATA_a', state: 'on' },
      { name: 'VK_LAYER_STRATA_c', state: 'on' },
    ],
  });
  const refused = lane.strata(['override', 'apply', '--system', '--config', config]);
  assert.equal(refused.status, 1, refused.stdout);
  assert.match(refused.stderr, /holds a value Strata did not write: .*vkconfig.*another override layer is registered there/);
  assert.equal(existsSync(join(lane.driveC, 'ProgramData', 'Strata', 'override', 'VkLayer_override.json')), false, 'a refused apply wrote the file');

  const forced = OverrideApplyResultSchema.parse(json(lane.strata(['override', 'apply', '--system', '--force', '--config', config, '--json'])));
  assert.deepEqual(forced.registration?.disabled, [FOREIGN]);
  assert.match(lane.regQuery(HKLM_IMPLICIT), /C:\\vkconfig\\override\\VkLayer_override\.json\s+REG_DWORD\s+0x1/);
  assert.deepEqual(loaderChain(), ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_c']);
  assert.deepEqual(predictedChain(), ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_c']);

  json(lane.strata(['override', 'remove', '--system', '--json']));
  const after = lane.regQuery(HKLM_IMPLICIT);
  assert.match(after, /C:\\vkconfig\\override\\VkLayer_override\.json\s+REG_DWORD\s+0x0/);
  assert.doesNotMatch(after, /Strata/);
  assert.deepEqual(loaderChain(), ['VK_LAYER_STRATA_b']);
});

test('layers inspect reads a DLL before loading it: a 32-bit (i686) DLL is the wrong architecture, a missing one is named', { skip }, () => {
  const dir = join(lane.driveC, 'layers');
  execFileSync(
    'i686-w64-mingw32-gcc-posix',
    [
      '-shared',
      '-O1',
      `-I${lane.loader.include}`,
      '-DLAYER_NAME="VK_LAYER_STRATA_wrong"',
      join(APP_ROOT, 'tests', 'fixtures', 'layers', 'recording-layer.c'),
      '-o',
      join(dir, 'wrong32.dll'),
    ],
    { stdio: 'pipe' },
  );
  const manifest = (name: string, library: string) =>
    JSON.stringify({
      file_format_version: '1.1.2',
      layer: { name, type: 'GLOBAL', library_path: library, api_version: '1.3.0', implementation_version: '1', description: 'inspect test' },
    });
  writeFileSync(join(dir, 'wrong.json'), manifest('VK_LAYER_STRATA_wrong', '.\\wrong32.dll'));
  writeFileSync(join(dir, 'gone.json'), manifest('VK_LAYER_STRATA_gone', 'C:\\layers\\not_there.dll'));
  reset({ [HKLM_EXPLICIT]: [...explicitLayers(), { name: 'C:\\layers\\wrong.json', data: 0 }, { name: 'C:\\layers\\gone.json', data: 0 }] });
  const r = lane.strata(['layer', 'inspect', '--json', 'VK_LAYER_STRATA_wrong', 'VK_LAYER_STRATA_gone'], {}, { timeoutMs: 90_000 });
  assert.equal(r.status, 1, r.stderr);
  const report = LayersInspectReportSchema.parse(JSON.parse(r.stdout));
  const byName = new Map(report.layers.map((l) => [l.name, l]));
  assert.equal(byName.get('VK_LAYER_STRATA_wrong')?.error?.code, 'layer/wrong-architecture');
  assert.equal(byName.get('VK_LAYER_STRATA_wrong')?.resolution?.path, 'C:\\layers\\.\\wrong32.dll');
  assert.equal(byName.get('VK_LAYER_STRATA_gone')?.error?.code, 'layer/library-not-found');
  // The real loader agrees that the 32-bit DLL cannot be loaded: enabling it fails.
  const app = lane.run(probe, ['1.3', 'VK_LAYER_STRATA_wrong'], { VK_LOADER_DEBUG: 'error' });
  assert.match(app.stdout, /^create -6$/m, `${app.stdout}\n${app.stderr}`); // VK_ERROR_LAYER_NOT_PRESENT
});

// ---- Layer settings on Windows (main/override/windows-override.ts, shared/settings/windows-layer-settings.ts) ----

const HKLM_LAYER_SETTINGS = 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\Settings';
const HKCU_LAYER_SETTINGS = 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\Settings';
const STRATA_LAYER_SETTINGS = 'C:\\ProgramData\\Strata\\settings\\vk_layer_settings.txt';
const VKCONFIG_LAYER_SETTINGS = 'C:\\vkconfig\\vk_layer_settings.txt';

/** What each recording layer in the chain read from its settings file (`requested`: layers the probe asks for): layer → [marker, file]. */
function layerSettingsRead(requested: string[] = []): Map<string, [string, string]> {
  const log = join(lane.driveC, 'settings.log');
  rmSync(log, { force: true });
  const r = lane.run(probe, ['1.3', ...requested], { STRATA_SETTINGS_LOG: 'C:\\settings.log' });
  assert.equal(r.status, 0, r.stderr);
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split(/\r?\n/).filter(Boolean) : [];
  return new Map(lines.map((l) => l.split('\t') as [string, string, string]).map(([layer, marker, file]) => [layer, [marker, file]]));
}

const settingsConfig = (marker: string) => writeConfig({ layers: [{ name: 'VK_LAYER_STRATA_a', state: 'on' }], settings: { VK_LAYER_STRATA_a: { marker } } });

test(
  'layer settings --system: vk_layer_settings.txt in ProgramData\\Strata, registered in HKLM\\…\\Settings; the layer reads what Strata wrote, and nothing after remove',
  { skip },
  () => {
    reset();
    const applied = OverrideApplyResultSchema.parse(json(lane.strata(['override', 'apply', '--system', '--config', settingsConfig('from Strata'), '--json'])));
    assert.equal(applied.settings?.path, STRATA_LAYER_SETTINGS);
    assert.deepEqual([applied.settings?.registration?.key, applied.settings?.registration?.action], [HKLM_LAYER_SETTINGS, 'added']);
    assert.match(lane.regQuery(HKLM_LAYER_SETTINGS), /C:\\ProgramData\\Strata\\settings\\vk_layer_settings\.txt\s+REG_DWORD\s+0x0/);
    assert.deepEqual(layerSettingsRead().get('VK_LAYER_STRATA_a'), ['from Strata', STRATA_LAYER_SETTINGS]);

    const status = OverrideStatusSchema.parse(json(lane.strata(['override', 'status', '--system', '--json'])));
    assert.deepEqual([status.settings?.ownership, status.settings?.registration?.registered], ['strata', true]);

    const removed = OverrideRemoveResultSchema.parse(json(lane.strata(['override', 'remove', '--system', '--json'])));
    assert.equal(removed.settings?.registration?.action, 'removed');
    assert.doesNotMatch(lane.regQuery(HKLM_LAYER_SETTINGS), /Strata/);
    assert.equal(existsSync(join(lane.driveC, 'ProgramData', 'Strata', 'settings', 'vk_layer_settings.txt')), false);
    // Asked for by name now (the override went too): the layer finds no registered file and reads the working folder's, which is not there.
    const [marker, file] = layerSettingsRead(['VK_LAYER_STRATA_a']).get('VK_LAYER_STRATA_a') ?? [];
    assert.deepEqual([marker, /Strata/.test(file ?? '')], ['(unset)', false]);
  },
);

test(
  "layer settings: another tool's registered settings file is refused without --force; forced, it is disabled (the layer reads Strata's), and remove gives it back",
  { skip },
  () => {
    reset({ [HKLM_LAYER_SETTINGS]: [{ name: VKCONFIG_LAYER_SETTINGS, data: 0 }] });
    mkdirSync(join(lane.driveC, 'vkconfig'), { recursive: true });
    writeFileSync(join(lane.driveC, 'vkconfig', 'vk_layer_settings.txt'), 'strata_a.marker = from vkconfig\n');
    const config = settingsConfig('from Strata');
    const refused = lane.strata(['override', 'apply', '--system', '--config', config]);
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /holds a value Strata did not write: .*vkconfig.*a layer reads the first enabled value/s);
    assert.equal(existsSync(join(lane.driveC, 'ProgramData', 'Strata')), false, 'a refused apply wrote nothing');

    const forced = OverrideApplyResultSchema.parse(json(lane.strata(['override', 'apply', '--system', '--force', '--config', config, '--json'])));
    assert.deepEqual(forced.settings?.registration?.disabled, [VKCONFIG_LAYER_SETTINGS]);
    assert.match(lane.regQuery(HKLM_LAYER_SETTINGS), /C:\\vkconfig\\vk_layer_settings\.txt\s+REG_DWORD\s+0x1/);
    assert.deepEqual(layerSettingsRead().get('VK_LAYER_STRATA_a'), ['from Strata', STRATA_LAYER_SETTINGS]);

    json(lane.strata(['override', 'remove', '--system', '--json']));
    assert.match(lane.regQuery(HKLM_LAYER_SETTINGS), /C:\\vkconfig\\vk_layer_settings\.txt\s+REG_DWORD\s+0x0/);
    // The override went too: the layer, asked for by name, reads vkconfig's file again.
    assert.deepEqual(layerSettingsRead(['VK_LAYER_STRATA_a']).get('VK_LAYER_STRATA_a'), ['from vkconfig', VKCONFIG_LAYER_SETTINGS]);
  },
);

test(
  'layer settings (user scope): registered in HKCU, which an elevated layer skips; Strata says so, and the layer reads the working folder instead',
  { skip },
  () => {
    reset();
    // The override itself goes system-wide (the user's would not reach the elevated probe either), the settings per user.
    json(lane.strata(['override', 'apply', '--system', '--config', writeConfig({ layers: [{ name: 'VK_LAYER_STRATA_a', state: 'on' }] }), '--json']));
    const r = lane.strata(['override', 'apply', '--config', settingsConfig('per user')]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /HKCU\\SOFTWARE\\Khronos\\Vulkan\\Settings/);
    assert.match(r.stdout, /skip HKEY_CURRENT_USER, so their layers do not read this file.*Strata itself runs elevated/s);
    assert.match(lane.regQuery(HKCU_LAYER_SETTINGS), /\\Strata\\settings\\vk_layer_settings\.txt\s+REG_DWORD\s+0x0/);
    const [marker, file] = layerSettingsRead().get('VK_LAYER_STRATA_a') ?? [];
    assert.equal(marker, '(unset)');
    assert.match(file ?? '', /vk_layer_settings\.txt$/);
    assert.doesNotMatch(file ?? '', /Strata/, 'the elevated layer did not read the HKCU file');
    json(lane.strata(['override', 'remove', '--json']));
    json(lane.strata(['override', 'remove', '--system', '--json']));
    assert.doesNotMatch(lane.regQuery(HKCU_LAYER_SETTINGS), /Strata/);
  },
);

// ---- The loader settings file on Windows (shared/loader/windows-settings-file.ts, main/override/windows-loader-settings.ts) ----

const HKLM_SETTINGS = 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings';
const HKCU_SETTINGS = 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings';
const STRATA_SETTINGS = 'C:\\ProgramData\\Strata\\loader-settings\\vk_loader_settings.json';
const VKCONFIG_SETTINGS = 'C:\\vkconfig\\vk_loader_settings.json';
const BOUND = 'C:\\apps\\bound.exe';
const FREE = 'C:\\apps\\free.exe';
// The writer is what these tests check: the installed loader's version is given, not asked of the probe
// (which can time out on a loaded machine, and then the rules version, 1.3.239, would be used).
const INSTALLED = ['--loader-version', '1.4.359'];

/** Two copies of the probe: app_keys compare full paths. */
function installApps() {
  mkdirSync(join(lane.driveC, 'apps'), { recursive: true });
  for (const exe of ['bound.exe', 'free.exe']) copyFileSync(probe, join(lane.driveC, 'apps', exe));
}

/** Another tool's settings file: a global entry that turns VK_LAYER_STRATA_b on. */
function writeVkconfigSettings() {
  mkdirSync(join(lane.driveC, 'vkconfig'), { recursive: true });
  writeFileSync(
    join(lane.driveC, 'vkconfig', 'vk_loader_settings.json'),
    JSON.stringify({
      file_format_version: '1.0.0',
      settings_array: [
        {
          layers: [
            { control: 'on', name: 'VK_LAYER_STRATA_b', path: 'C:\\layers\\VK_LAYER_STRATA_b.json', treat_as_implicit_manifest: false },
            { control: 'unordered_layer_location' },
          ],
        },
      ],
    }),
  );
}

const VK_RESULTS: Record<string, number> = {
  VK_SUCCESS: 0,
  VK_ERROR_OUT_OF_HOST_MEMORY: -1,
  VK_ERROR_INITIALIZATION_FAILED: -3,
  VK_ERROR_LAYER_NOT_PRESENT: -6,
};

/** The chain the real loader built for the program at `exe` (a Windows path), after checking the version it reported and vkCreateInstance's result. */
function loaderChainOf(exe: string, version = '1.4.359', result = 'VK_SUCCESS'): string[] {
  const { chain, run: r } = recordedChain(lane, exe, ['1.3']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^loader ${version.replaceAll('.', '\\.')}$`, 'm'));
  assert.match(r.stdout, new RegExp(`^create ${VK_RESULTS[result] ?? result}$`, 'm'), `the model predicted ${result}`);
  return chain;
}

/** `strata explain --app EXE`: the predicted vkCreateInstance result and chain (the recording layers only). */
function predictionFor(app: string): { result: string; chain: string[] } {
  const r = lane.strata(['explain', '--app', app, '--api-version', '1.3', '--json']);
  assert.match(r.stdout, /^\{/, `strata explain printed no chain (exit ${r.status}): ${r.stderr}`);
  const chain = LayerChainSchema.parse(JSON.parse(r.stdout));
  // explain exits 1 when it predicts a failed vkCreateInstance.
  assert.equal(r.status, chain.result === 'VK_SUCCESS' ? 0 : 1, r.stderr);
  return { result: chain.result, chain: chain.chain.map((e) => e.name).filter((n) => (LAYERS as readonly string[]).includes(n)) };
}

function predictedFor(app: string): string[] {
  const p = predictionFor(app);
  assert.equal(p.result, 'VK_SUCCESS');
  return p.chain;
}

/** A name with spaces and a non-ASCII dash, as the presets' names are: it must reach Strata whole on the Windows command line. */
const PROFILE = 'Wine — bound';

function importProfile() {
  const file = join(lane.home.dir, 'wine-bound.json');
  writeFileSync(
    file,
    JSON.stringify({
      schemaVersion: 2,
      name: PROFILE,
      layers: [
        { name: 'VK_LAYER_STRATA_c', state: 'on' },
        { name: 'VK_LAYER_STRATA_a', state: 'on' },
        { name: 'VK_LAYER_STRATA_b', state: 'off' },
      ],
    }),
  );
  json(lane.strata(['profile', 'import', winPath(file), '--replace', '--json']));
}

test(
  'profile bind: Strata (elevated) writes vk_loader_settings.json in ProgramData\\Strata and registers it in HKLM\\…\\LoaderSettings; the loader gives the bound application the chain strata explain predicted',
  { skip },
  () => {
    reset();
    installApps();
    importProfile();
    const bound = ProfileBindResultSchema.parse(json(lane.strata(['profile', 'bind', BOUND, PROFILE, '--json', ...INSTALLED])));
    assert.equal(bound.sync.mechanism, 'loader-settings');
    assert.deepEqual(
      bound.sync.files.map((f) => f.path),
      [STRATA_SETTINGS],
    );
    assert.match(lane.regQuery(HKLM_SETTINGS), /C:\\ProgramData\\Strata\\loader-settings\\vk_loader_settings\.json\s+REG_DWORD\s+0x0/);

    const predicted = predictedFor(BOUND);
    assert.deepEqual(predicted, ['VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_a']);
    assert.deepEqual(loaderChainOf(BOUND), predicted);
    // Another application has no entry in the file: the usual rules, no layer.
    assert.deepEqual(predictedFor(FREE), []);
    assert.deepEqual(loaderChainOf(FREE), []);

    // Surrender: unbinding the last application removes the file and the value; the loader is back to no layers.
    json(lane.strata(['profile', 'unbind', BOUND, '--json', ...INSTALLED]));
    assert.doesNotMatch(lane.regQuery(HKLM_SETTINGS), /Strata/);
    assert.equal(existsSync(join(lane.driveC, 'ProgramData', 'Strata', 'loader-settings', 'vk_loader_settings.json')), false);
    assert.deepEqual(loaderChainOf(BOUND), []);
  },
);

test(
  "another tool's settings file in HKLM\\…\\LoaderSettings: obeyed and predicted; bind refused without --force; forced, its value is deleted and unbind puts it back",
  { skip },
  () => {
    // The loader reads the data of no LoaderSettings value: a DWORD 1 names the file as well as a 0.
    reset({ [HKLM_SETTINGS]: [{ name: VKCONFIG_SETTINGS, data: 1 }] });
    installApps();
    writeVkconfigSettings();
    importProfile();
    assert.deepEqual(loaderChainOf(BOUND), ['VK_LAYER_STRATA_b']);
    assert.deepEqual(predictedFor(BOUND), ['VK_LAYER_STRATA_b']);

    const refused = lane.strata(['profile', 'bind', BOUND, PROFILE, ...INSTALLED]);
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /LoaderSettings holds a value Strata did not write: C:\\vkconfig\\vk_loader_settings\.json/);
    assert.equal(existsSync(join(lane.driveC, 'ProgramData', 'Strata', 'loader-settings', 'vk_loader_settings.json')), false, 'a refused bind wrote the file');

    json(lane.strata(['profile', 'bind', BOUND, PROFILE, '--force', '--json', ...INSTALLED]));
    assert.doesNotMatch(lane.regQuery(HKLM_SETTINGS), /vkconfig/);
    assert.deepEqual(predictedFor(BOUND), ['VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_a']);
    assert.deepEqual(loaderChainOf(BOUND), ['VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_a']);

    const unbound = lane.strata(['profile', 'unbind', BOUND, '--json', ...INSTALLED]);
    json(unbound);
    const values = lane.regQuery(HKLM_SETTINGS);
    assert.match(values, /C:\\vkconfig\\vk_loader_settings\.json\s+REG_DWORD\s+0x1/);
    assert.doesNotMatch(values, /Strata/, unbound.stdout);
    assert.deepEqual(loaderChainOf(BOUND), ['VK_LAYER_STRATA_b'], `${values}\n${unbound.stdout}`);
  },
);

test(
  "another tool's settings file registered in HKLM\\…\\LoaderSettings shows in `strata lint` and in the status strip's data (activity.status), found as explain finds it; one registered in HKCU, which the elevated loader skips, is listed and not read",
  { skip },
  async () => {
    const hkcuFile = 'C:\\users-tool\\vk_loader_settings.json';
    reset({ [HKLM_SETTINGS]: [{ name: VKCONFIG_SETTINGS, data: 0 }], [HKCU_SETTINGS]: [{ name: hkcuFile, data: 0 }] });
    writeVkconfigSettings();
    // The HKCU file names a manifest that is not there: lint would report it, if it were the file read.
    mkdirSync(join(lane.driveC, 'users-tool'), { recursive: true });
    writeFileSync(
      join(lane.driveC, 'users-tool', 'vk_loader_settings.json'),
      JSON.stringify({
        file_format_version: '1.0.0',
        settings_array: [{ layers: [{ control: 'on', name: 'VK_LAYER_gone', path: 'C:\\gone.json', treat_as_implicit_manifest: false }] }],
      }),
    );
    installApps();
    // The real loader reads the HKLM file (elevated: HKCU skipped), and explain says so.
    assert.deepEqual(loaderChainOf(FREE), ['VK_LAYER_STRATA_b']);
    assert.deepEqual(predictedFor(FREE), ['VK_LAYER_STRATA_b']);

    const lint = lane.strata(['lint', '--json']);
    const results = JSON.parse(lint.stdout) as { uri: string; diagnostics: { code?: unknown }[] }[];
    const settings = results.filter((r) => /vk_loader_settings\.json$/i.test(r.uri));
    assert.deepEqual(
      settings.map((r) => r.uri),
      [VKCONFIG_SETTINGS],
      `strata lint did not lint the settings file the loader reads (exit ${lint.status}): ${lint.stderr}`,
    );
    assert.deepEqual(settings[0]?.diagnostics, [], JSON.stringify(settings[0]));

    const status = ActivityStatusSchema.parse(await channel('activity.status', {}));
    const listed = status.files.filter((f) => f.role === 'loader-settings');
    assert.deepEqual(
      listed.map((f) => ({ path: f.path, owner: f.owner, readByLoader: f.readByLoader })),
      [
        { path: hkcuFile, owner: 'foreign', readByLoader: false },
        { path: VKCONFIG_SETTINGS, owner: 'foreign', readByLoader: true },
      ],
      JSON.stringify(status, null, 1),
    );
    assert.match(listed[1]!.loaders, /HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings/);
    assert.match(listed[1]!.summary, /loader 1\.4\.359 reads it/);
    assert.match(activityHeadline(status), /2 files of another tool/);
  },
);

test(
  'loader 1.3.275 on Windows: a settings file whose unordered_layer_location is left in the list (no other layer found) fails vkCreateInstance with VK_ERROR_OUT_OF_HOST_MEMORY, as strata explain predicts (rules table settings-unordered-windows-oom)',
  { skip },
  () => {
    const system32 = join(lane.driveC, 'windows', 'system32', 'vulkan-1.dll');
    reset();
    // No layer registered: the loader finds none to put at the unordered location.
    lane.setKhronosRegistry({ [HKLM_SETTINGS]: [{ name: VKCONFIG_SETTINGS, data: 0 }] });
    installApps();
    mkdirSync(join(lane.driveC, 'vkconfig'), { recursive: true });
    writeFileSync(
      join(lane.driveC, 'vkconfig', 'vk_loader_settings.json'),
      JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: [{ control: 'unordered_layer_location' }] }] }),
    );
    copyFileSync(windowsLoader('1.3.275').dll, system32);
    try {
      const p = lane.strata(['explain', '--app', FREE, '--api-version', '1.3', '--loader-version', '1.3.275', '--json']);
      const chain = LayerChainSchema.parse(JSON.parse(p.stdout));
      assert.equal(chain.result, 'VK_ERROR_OUT_OF_HOST_MEMORY', chain.notes.join('\n'));
      assert.equal(p.status, 1);
      assert.deepEqual(loaderChainOf(FREE, '1.3.275', chain.result), []);
    } finally {
      copyFileSync(lane.loader.dll, system32);
    }
    // The same file on 1.4.359: the entry is skipped, the instance is created.
    assert.deepEqual(predictedFor(FREE), []);
    assert.deepEqual(loaderChainOf(FREE), []);
  },
);

test(
  'the loader walks LoaderSettings with a name buffer that shrinks to each name read: a shorter value before the file hides it, a longer one does not',
  { skip },
  () => {
    // Under Wine RegEnumValue returns values sorted by name: "C:\a.txt" comes first and is shorter.
    reset({
      [HKLM_SETTINGS]: [
        { name: 'C:\\a.txt', data: 0 },
        { name: VKCONFIG_SETTINGS, data: 0 },
      ],
    });
    installApps();
    writeVkconfigSettings();
    assert.deepEqual(loaderChainOf(FREE), []);
    assert.deepEqual(predictedFor(FREE), []);
    lane.setKhronosRegistry({
      [HKLM_EXPLICIT]: explicitLayers(),
      [HKLM_SETTINGS]: [
        { name: `C:\\${'a'.repeat(60)}.txt`, data: 0 },
        { name: VKCONFIG_SETTINGS, data: 0 },
      ],
    });
    assert.deepEqual(loaderChainOf(FREE), ['VK_LAYER_STRATA_b']);
    assert.deepEqual(predictedFor(FREE), ['VK_LAYER_STRATA_b']);
  },
);

test(
  'strata launch --profile under Wine: the profile reaches the application through its environment (VK_INSTANCE_LAYERS split at ";"), and the loader\'s and the application\'s output land in a session that strata session show reads',
  { skip },
  () => {
    reset();
    installApps();
    importProfile();
    const log = join(lane.driveC, 'chain.log');
    rmSync(log, { force: true });
    // "C:\apps\free" without .exe: found as Windows finds programs.
    const r = lane.strata(
      ['launch', '--profile', PROFILE, '--loader-debug', 'layer', '--env', 'STRATA_LAYER_LOG=C:\\chain.log', '--', 'C:\\apps\\free', '1.3'],
      {},
      { timeoutMs: 180_000 },
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const chain = readFileSync(log, 'utf8')
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(' ')[0]);
    assert.deepEqual(chain, ['VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_a']);
    const shown = lane.strata(['session', 'show', 'latest', '--lines', '--json']);
    assert.equal(shown.status, 0, shown.stderr);
    const session = JSON.parse(shown.stdout) as { header: unknown; records: { stream?: string; text?: string }[] };
    const texts = session.records.map((x) => `${x.stream ?? ''} ${x.text ?? ''}`);
    // The application's stdout and the loader's own log (stderr), as the loader wrote them.
    assert.ok(
      texts.some((t) => /^stdout create 0/.test(t)),
      texts.slice(0, 20).join('\n'),
    );
    assert.ok(
      texts.some((t) => /^stderr .*VK_LAYER_STRATA_c/.test(t)),
      texts.slice(0, 20).join('\n'),
    );
    assert.match(JSON.stringify(session.header), /VK_LAYER_STRATA_c;VK_LAYER_STRATA_a/);
  },
);
