import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { describeScenario, FOLDERS, makeScenario, pinnedScenarios, RECORDING_LAYERS, type Folder, type Scenario } from '../helpers/chain-scenarios';
import { bundleForLane, elapsed, mingwBuild, openWindowsLane, windowsLaneSkip, winPath, type WindowsLane } from '../helpers/windows-lane';
import type { RunnerPlan, RunnerResult, RunnerScenario } from '../helpers/windows-chain-runner';

/**
 * The chain model on Windows, against the real Windows loader (1.4.359, mingw-built vulkan-1.dll)
 * under Wine. The Linux generator's scenarios (tests/helpers/chain-scenarios.ts) are laid out the
 * Windows way: each scenario in its own C:\chain\sN, its manifests registered in the registry
 * instead of XDG folders (below), recording layer DLLs (tests/fixtures/layers/recording-layer.c,
 * mingw-built; one copy per manifest, so the log tells which manifest the loader used), VK_* lists
 * with ";". Then one Windows Node process (tests/helpers/windows-chain-runner.ts) runs every scenario:
 * it sets the scenario's registry values and variables, asks Strata for the chain through the entry
 * `strata explain --json` uses (Windows discovery through the registry, elevation from its own
 * token), and creates an instance with the real loader. Chain (recording order, application side
 * first) and VkResult must be equal, in every scenario.
 *
 * Every process under Wine is elevated (high integrity), so these are the loader's elevated rules:
 * HKCU is skipped, and VK_LAYER_PATH and the VK_LOADER_LAYERS_* filters are ignored (read with
 * loader_secure_getenv, loader_environment.c) — the generator's filters and VK_LAYER_PATH stay in
 * the scenarios, and Strata must ignore them as the loader does.
 *
 * Folders → registry:
 * - implicit: .config/… (XDG_CONFIG_HOME) each manifest its own value; .local/share/… and data-dirs/…
 *   (XDG_DATA_*) one value naming the folder; all in HKLM\SOFTWARE\Khronos\Vulkan\ImplicitLayers;
 * - explicit: .config/… each manifest; data-dirs/… and layer-path-0 the folder, in HKLM\…\ExplicitLayers;
 *   layer-path-1 the folder in HKCU\…\ExplicitLayers (per-user: the elevated loader does not see it);
 * - override-paths: only the override layer's override_paths name it.
 */

const skip = windowsLaneSkip('windows-chain-vs-loader');
const SCENARIOS = Number(process.env['STRATA_WINDOWS_CHAIN_SCENARIOS'] ?? 110);
const FIRST_SEED = Number(process.env['STRATA_CHAIN_SEED'] ?? 1);
const HKLM = 'HKLM\\SOFTWARE\\Khronos\\Vulkan';
const HKCU = 'HKCU\\SOFTWARE\\Khronos\\Vulkan';
const LOG = 'C:\\chain\\layers.log';

const REGISTERED: Record<Folder, { key: string; each: boolean } | null> = {
  'config-implicit': { key: `${HKLM}\\ImplicitLayers`, each: true },
  'data-implicit': { key: `${HKLM}\\ImplicitLayers`, each: false },
  'sys-implicit': { key: `${HKLM}\\ImplicitLayers`, each: false },
  'config-explicit': { key: `${HKLM}\\ExplicitLayers`, each: true },
  'sys-explicit': { key: `${HKLM}\\ExplicitLayers`, each: false },
  'layer-path-0': { key: `${HKLM}\\ExplicitLayers`, each: false },
  'layer-path-1': { key: `${HKCU}\\ExplicitLayers`, each: false },
  override: null,
  // Only a settings file names these; the Windows lane writes no settings file yet (the loader finds it through the registry).
  'settings-only': null,
};

const DRIVER = 'C:\\chain-driver\\null-icd.json';

let lane: WindowsLane;
let dlls: Map<string, string>;
let runner = '';
/** Windows Node's path as the loader sees the application (the override layer's app_keys). */
let app = '';

before(async () => {
  if (skip) return;
  const t = Date.now();
  lane = openWindowsLane();
  const src = join(APP_ROOT, 'tests', 'fixtures', 'layers', 'recording-layer.c');
  dlls = new Map(RECORDING_LAYERS.map((name) => [name, mingwBuild([src], `${name}.dll`, [`-DLAYER_NAME="${name}"`], { vulkan: true })]));
  // A driver without devices (tests/fixtures/windows/null-icd.c) instead of winevulkan: the chain
  // is the same, and it does not depend on the host's Vulkan driver under winevulkan.
  const icd = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'windows', 'null-icd.c')], 'null-icd.dll', [], { vulkan: true });
  mkdirSync(join(lane.driveC, 'chain-driver'), { recursive: true });
  copyFileSync(icd, join(lane.driveC, 'chain-driver', 'null-icd.dll'));
  writeFileSync(
    join(lane.driveC, 'chain-driver', 'null-icd.json'),
    JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: 'C:\\chain-driver\\null-icd.dll', api_version: '1.0.0' } }),
  );
  app = winPath(lane.nodeExe);
  runner = await bundleForLane(lane, join(APP_ROOT, 'tests', 'helpers', 'windows-chain-runner.ts'));
  process.stderr.write(`windows-chain-vs-loader: lane, layers and runner ready in ${elapsed(t)} s\n`);
});
after(() => lane?.close());

/** Every string in `v`, mapped by `f`. */
function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  return v;
}

/** Lays scenario `n` out under C:\chain\sN and says what the runner sets for it. */
function layOut(s: Scenario, n: number): RunnerScenario {
  const root = `C:\\chain\\s${n}`;
  const unix = (win: string) => join(lane.driveC, ...win.slice(3).split('\\'));
  const folderOf = (f: Folder) => `${root}\\${FOLDERS[f].replaceAll('/', '\\')}`;
  // "$HOME/x/y" → C:\chain\sN\x\y; "$APP" is the application: Windows Node running the runner.
  const fill = (v: string) => (v.includes('$HOME') ? v.replaceAll('$HOME', root).replaceAll('/', '\\') : v.replaceAll('$APP', app));
  const registry: RunnerScenario['registry'] = [];
  const registered = new Set<string>();
  for (const m of s.manifests) {
    const dir = folderOf(m.folder);
    mkdirSync(unix(dir), { recursive: true });
    const file = `${dir}\\${m.file}`;
    let layer = mapStrings(m.layer, fill) as Record<string, unknown>;
    if (m.layer['library_path'] === '$LIB') {
      const lib = `${dir}\\lib-${m.file.replace(/\.json$/, '')}.dll`;
      copyFileSync(dlls.get(String(m.layer['name']))!, unix(lib));
      layer = { ...layer, library_path: lib };
    }
    writeFileSync(unix(file), JSON.stringify({ file_format_version: '1.2.0', layer }, null, 2));
    const reg = REGISTERED[m.folder];
    if (!reg) continue;
    const name = reg.each ? file : dir;
    if (!registered.has(`${reg.key}|${name}`)) registry.push({ key: reg.key, name });
    registered.add(`${reg.key}|${name}`);
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.env)) {
    // PATH_SEPARATOR is ";" on Windows (vk_loader_platform.h), for the path lists and VK_INSTANCE_LAYERS.
    env[k] = k === 'VK_LAYER_PATH' || k === 'VK_INSTANCE_LAYERS' ? v.split(':').map(fill).join(';') : fill(v);
  }
  return { id: s.title ? `pinned: ${s.title}` : `seed ${s.seed}`, registry, env, requested: s.requested, apiVersion: s.apiVersion };
}

/**
 * Windows rules a random draw may not pin down; each fails if Strata applied the rule the other way
 * (read HKCU, obeyed a filter or VK_LAYER_PATH while elevated, split VK_INSTANCE_LAYERS at ":").
 */
function windowsPinned(): Scenario[] {
  const layer = (name: string, folder: Folder, extra: Record<string, unknown> = {}) => ({
    folder,
    file: `${name}.json`,
    layer: { name, type: 'GLOBAL', library_path: '$LIB', api_version: '1.3.0', implementation_version: '1', description: 'recording layer', ...extra },
  });
  const implicit = (name: string, folder: Folder = 'config-implicit') => layer(name, folder, { disable_environment: { [`DISABLE_${name}`]: '1' } });
  const [a, b, c, d] = RECORDING_LAYERS;
  const base = { seed: 0, apiVersion: '1.3' };
  const scenarios: Scenario[] = [
    {
      ...base,
      title: 'Windows, elevated: a layer registered only in HKCU is not found (VK_ERROR_LAYER_NOT_PRESENT)',
      manifests: [layer(a, 'layer-path-1'), layer(b, 'config-explicit')],
      env: {},
      requested: [b, a],
    },
    {
      ...base,
      title: 'Windows, elevated: VK_LOADER_LAYERS_DISABLE=~all~ and VK_LOADER_LAYERS_ENABLE are ignored',
      manifests: [implicit(a), layer(b, 'sys-explicit'), layer(c, 'config-explicit')],
      env: { VK_LOADER_LAYERS_DISABLE: '~all~', VK_LOADER_LAYERS_ENABLE: c },
      requested: [b],
    },
    {
      ...base,
      title: 'Windows, elevated: VK_LAYER_PATH is ignored, the registry is read',
      manifests: [layer(a, 'layer-path-0'), layer(b, 'sys-explicit')],
      env: { VK_LAYER_PATH: '$HOME/nowhere' },
      requested: [a, b],
    },
    {
      ...base,
      title: 'Windows: VK_INSTANCE_LAYERS is separated by ";", in its order',
      manifests: [layer(a, 'config-explicit'), layer(b, 'sys-explicit'), layer(c, 'layer-path-0')],
      env: { VK_INSTANCE_LAYERS: `${c}:${a}:${b}` },
      requested: [],
    },
    {
      ...base,
      title: 'Windows: the override layer (HKLM, app_keys this application) forces explicit components on, found only in its override_paths',
      manifests: [
        implicit(a, 'sys-implicit'),
        layer(b, 'override'),
        layer(c, 'override'),
        layer(d, 'config-explicit'),
        {
          folder: 'data-implicit',
          file: 'override.json',
          layer: {
            name: 'VK_LAYER_LUNARG_override',
            type: 'GLOBAL',
            api_version: '1.3.0',
            implementation_version: '1',
            description: 'override',
            disable_environment: { DISABLE_OVERRIDE: '1' },
            component_layers: [c, b],
            blacklisted_layers: [a],
            app_keys: ['$APP'],
            override_paths: ['$HOME/override-paths'],
          },
        },
      ],
      env: { VK_LAYER_PATH: '$HOME/layer-path-0' },
      requested: [],
    },
  ];
  // The same with the application asking for a layer registered in HKLM: with override_paths the
  // loader searches explicit layers only there, not the registry (loader_get_data_files).
  return [...scenarios, { ...scenarios.at(-1)!, title: 'Windows: with override_paths the registry is not searched for explicit layers', requested: [d] }];
}

/** Reason codes some scenario must reach, or a green run proves little (the elevated rules: no filter acts). */
const NEEDED = [
  'result 0',
  'result -6',
  'chain of 3 or more',
  'implicit/enabled',
  'implicit/not-enabled',
  'implicit/disabled-by-env',
  'implicit/enabled-by-override',
  'explicit/requested-by-app',
  'explicit/vk-instance-layers',
  'explicit/not-requested',
  'meta/expanded',
  'meta/component-missing',
  'override/active',
  'override/component',
  'override/blacklisted',
  'override/app-keys-mismatch',
  'duplicate/shadowed',
  'api-version/older-than-app',
];

test(
  `Windows: the chain model equals the real Windows loader under Wine (elevated) on ${SCENARIOS} seeded scenarios and the pinned ones`,
  { skip, timeout: 900_000 },
  () => {
    const scenarios = [...windowsPinned(), ...pinnedScenarios(), ...Array.from({ length: SCENARIOS }, (_, i) => makeScenario(FIRST_SEED + i))];
    rmSync(join(lane.driveC, 'chain'), { recursive: true, force: true });
    let t = Date.now();
    const plan: RunnerPlan = { logFile: LOG, loaderPath: 'C:\\windows\\system32\\vulkan-1.dll', scenarios: scenarios.map(layOut) };
    const planFile = join(lane.home.dir, 'chain-plan.json');
    const resultsFile = join(lane.home.dir, 'chain-results.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const layout = elapsed(t);
    // Only the driver before the runner sets each scenario's values.
    lane.setKhronosRegistry({ [`${HKLM}\\Drivers`]: [{ name: DRIVER, data: 0 }] }, { wineDriver: false });
    t = Date.now();
    const r = lane.node(runner, [winPath(planFile), winPath(resultsFile)], { STRATA_LAYER_LOG: LOG }, { timeoutMs: 600_000 });
    assert.equal(r.status, 0, `the runner failed:\n${r.stdout}\n${r.stderr.slice(-4000)}`);
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunnerResult[];
    assert.equal(results.length, scenarios.length);
    const ms = results.reduce((a, x) => ({ model: a.model + x.ms.model, loader: a.loader + x.ms.loader }), { model: 0, loader: 0 });
    process.stderr.write(
      `windows-chain-vs-loader: ${scenarios.length} scenarios laid out in ${layout} s, run in one Windows Node process in ${elapsed(t)} s (model ${(ms.model / 1000).toFixed(1)} s, loader ${(ms.loader / 1000).toFixed(1)} s)\n`,
    );

    assert.equal(results[0]?.loaderVersion, '1.4.359', 'the runner did not reach the built loader (WINEDLLOVERRIDES=vulkan-1=n?)');
    assert.equal(results[0]?.app, app, "the application's path is not the one the scenarios' app_keys name");
    const tally = new Map<string, number>();
    const failures: string[] = [];
    results.forEach((res, i) => {
      const s = scenarios[i]!;
      // Wine reports a module's path as it was loaded; Windows paths compare without case.
      const real = { result: res.result, chain: res.log.map((l) => l.toLowerCase()) };
      if ('error' in res.model) {
        failures.push(`${describeScenario(s)}\n  Strata failed: ${res.model.error}`);
        return;
      }
      const model = { result: res.model.result, chain: res.model.chain.map((l) => l.toLowerCase()) };
      const covered = new Set([...res.model.reasons.flatMap(([, codes]) => codes), ...res.model.excluded.flatMap(([, rs]) => rs.map((x) => x.split(':')[0]!))]);
      covered.add(`result ${res.result}`);
      if (res.log.length >= 3) covered.add('chain of 3 or more');
      for (const k of covered) tally.set(k, (tally.get(k) ?? 0) + 1);
      if (JSON.stringify(real) === JSON.stringify(model)) return;
      const short = (o: { result: number; chain: string[] }) =>
        `result ${o.result}\n${o.chain.map((l, j) => `    ${j}. ${l}`).join('\n') || '    (no layers)'}`;
      failures.push(
        [
          describeScenario(s),
          `  as run on Windows: registry ${JSON.stringify(plan.scenarios[i]!.registry.map((x) => `${x.key}: ${x.name}`))}, env ${JSON.stringify(plan.scenarios[i]!.env)}`,
          `  loader: ${short(real)}`,
          `  model:  ${short(model)}`,
          `  model reasons: ${JSON.stringify(res.model.reasons)}`,
          `  excluded: ${JSON.stringify(res.model.excluded)}`,
          `  notes: ${JSON.stringify(res.model.notes)}`,
        ].join('\n'),
      );
    });
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${scenarios.length} scenarios differ (rerun one with STRATA_CHAIN_SEED=<seed> STRATA_WINDOWS_CHAIN_SCENARIOS=1):\n\n${failures.slice(0, 6).join('\n\n')}`,
    );
    if (SCENARIOS >= 100) {
      const unreached = NEEDED.filter((k) => !tally.has(k));
      assert.deepEqual(unreached, [], `rules no scenario reached: ${unreached.join(', ')}; tally ${JSON.stringify(Object.fromEntries(tally))}`);
    }
  },
);
