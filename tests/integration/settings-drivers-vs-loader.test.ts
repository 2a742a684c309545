import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { loaderDriverScan } from '../helpers/loader-log';
import { APP_ROOT } from '../helpers/strata-cli';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { loaderHas, NEWEST_PROVEN, setRuleSinceForTest, sinceOf } from '../../shared/loader/loader-rules';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';
import { DEBIAN_LINUX } from '../../shared/loader/search-paths';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import type { ManifestInventory } from '../../shared/discovery/manifest-inventory';
import { readLoaderSettings, stderrLogFor } from '../../shared/loader/loader-settings-file';
import { devicesWithSettings, type PhysicalDeviceIds } from '../../shared/loader/settings-drivers';
import { matchesAny } from '../../shared/profiles/loader-filters';
import { loaderLogColumn, parseLoaderLogLine } from '../../shared/sessions/loader-log-line';

/**
 * vk_loader_settings.json's drivers (additional_drivers, additional_drivers_use_exclusively, and
 * device_configurations turning the driver filters off), as each real loader of the matrix reads
 * them: the driver manifests the loader parses in vkCreateInstance ("Found ICD manifest file …" of
 * VK_LOADER_DEBUG=driver, less those the filters then ignore) must be, in order, the drivers
 * Strata's discovery lists for that loader version (shared/loader/settings-drivers.ts), the file's
 * own named by it. Loaders before 1.4.323 ignore the file's drivers, and the same scenarios prove it.
 * The drivers are fake ones (tests/fixtures/icd/fake-icd.c), next to the system's real Mesa drivers.
 */

let work = '';
let probe = '';
let fakeLibrary = '';
before(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'strata-settings-drivers-')));
  probe = join(work, 'loader-scan-probe');
  execFileSync('gcc', ['-O1', '-Wall', '-Werror', join(APP_ROOT, 'tests', 'fixtures', 'discovery', 'loader-scan-probe.c'), '-o', probe, '-lvulkan'], {
    stdio: 'pipe',
  });
  fakeLibrary = join(work, 'libfake_good.so');
  execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-D', 'FAKE_GOOD', join(APP_ROOT, 'tests', 'fixtures', 'icd', 'fake-icd.c'), '-o', fakeLibrary], {
    stdio: 'pipe',
  });
});
after(() => rmSync(work, { recursive: true, force: true }));

class Tree {
  constructor(readonly home: TempHome) {}
  p(...parts: string[]) {
    return join(this.home.dir, ...parts);
  }
  /** A driver manifest for the fake driver at `icds/<name>` (or a path under the home). */
  driver(name: string): string {
    const path = name.includes('/') ? this.p(name) : this.p('icds', name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: fakeLibrary, api_version: '1.3.0' } }));
    return path;
  }
}

type Settings = Record<string, unknown>;

interface Scenario {
  name: string;
  /** Writes the manifests; returns the settings file's content and the variables to set. */
  setup(t: Tree): { settings: Settings; env?: Record<string, string> };
  /** Strata's list for this version (already proven equal to the loader's): what the scenario is about. */
  expect(list: string[], t: Tree, version: string, inv: ManifestInventory): void;
}

const withFile = (v: string) => loaderHas(v, 'settings-drivers');
const ours = (list: string[], t: Tree) => list.filter((p) => p.startsWith(t.home.dir)).map((p) => p.slice(t.home.dir.length + 1));
const settingsOf = (object: Settings) => ({ file_format_version: '1.0.0', settings: object });
const path = (p: string) => ({ path: p });

const scenarios: Scenario[] = [
  {
    name: 'additional_drivers go in front of the searched drivers, the last one first',
    setup(t) {
      t.driver('.local/share/vulkan/icd.d/home.json');
      return { settings: settingsOf({ additional_drivers: [path(t.driver('a.json')), path(t.driver('b.json'))] }) };
    },
    expect(list, t, v) {
      const home = '.local/share/vulkan/icd.d/home.json';
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/b.json', 'icds/a.json', home] : [home]);
      assert.ok(list.length > ours(list, t).length, 'the system drivers stay');
    },
  },
  {
    name: 'additional_drivers_use_exclusively: only the file drivers',
    setup: (t) => ({
      settings: settingsOf({ additional_drivers: [path(t.driver('a.json')), path(t.driver('b.json'))], additional_drivers_use_exclusively: true }),
    }),
    expect(list, _t, v) {
      if (withFile(v)) assert.equal(list.length, 2);
      else assert.ok(list.length > 0);
    },
  },
  {
    name: 'VK_DRIVER_FILES replaces the search, not the file drivers',
    setup: (t) => ({
      settings: settingsOf({ additional_drivers: [path(t.driver('a.json')), path(t.driver('b.json'))] }),
      env: { VK_DRIVER_FILES: t.driver('c.json') },
    }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/b.json', 'icds/a.json', 'icds/c.json'] : ['icds/c.json']);
      assert.equal(list.length, ours(list, t).length);
    },
  },
  {
    name: 'VK_ICD_FILENAMES and VK_ADD_DRIVER_FILES: the file drivers still come first',
    setup: (t) => ({
      settings: settingsOf({ additional_drivers: [path(t.driver('a.json'))] }),
      env: { VK_ADD_DRIVER_FILES: t.driver('added.json') },
    }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t).slice(0, 2), withFile(v) ? ['icds/a.json', 'icds/added.json'] : ['icds/added.json']);
    },
  },
  {
    name: 'use exclusively with VK_ICD_FILENAMES: the variable is dropped too',
    setup: (t) => ({
      settings: settingsOf({ additional_drivers: [path(t.driver('a.json'))], additional_drivers_use_exclusively: true }),
      env: { VK_ICD_FILENAMES: t.driver('c.json') },
    }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/a.json'] : ['icds/c.json']);
    },
  },
  {
    name: 'the last additional driver not ending in .json: no driver at all',
    setup: (t) => ({ settings: settingsOf({ additional_drivers: [path(t.driver('a.json')), path(t.p('icds'))] }) }),
    expect(list, _t, v, inv) {
      if (withFile(v)) {
        assert.deepEqual(list, []);
        assert.match((inv.driverNotes ?? []).join('\n'), /does not end in "\.json", and it is the last one/);
      } else assert.ok(list.length > 0);
    },
  },
  {
    name: 'an earlier additional driver not ending in .json is skipped',
    setup: (t) => ({ settings: settingsOf({ additional_drivers: [path(t.p('icds')), path(t.driver('a.json'))] }) }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/a.json'] : []);
      assert.ok(list.length > 1);
    },
  },
  {
    name: 'a malformed additional driver drops them all; the searched drivers stay',
    setup: (t) => ({ settings: settingsOf({ additional_drivers: [path(t.driver('a.json')), 3, { pth: 'x.json' }] }) }),
    expect(list, t) {
      assert.deepEqual(ours(list, t), []);
      assert.ok(list.length > 0);
    },
  },
  {
    name: 'use exclusively, a malformed driver and layers: no driver at all (the flag stays)',
    // stderr_log: an active file without it silences VK_LOADER_DEBUG on loaders before 1.3.302 (settings-stderr-log-fallback).
    setup: (t) => ({
      settings: settingsOf({
        layers: [],
        stderr_log: ['driver'],
        additional_drivers: [path(t.driver('a.json')), 'x'],
        additional_drivers_use_exclusively: true,
      }),
    }),
    expect(list, _t, v) {
      assert.equal(list.length === 0, withFile(v));
    },
  },
  {
    name: 'use exclusively alone does not make the settings active: the usual drivers',
    setup: () => ({ settings: settingsOf({ additional_drivers_use_exclusively: true }) }),
    expect(list) {
      assert.ok(list.length > 0);
    },
  },
  {
    name: 'a driver named by the file and by VK_DRIVER_FILES is read twice',
    setup: (t) => ({ settings: settingsOf({ additional_drivers: [path(t.driver('a.json'))] }), env: { VK_DRIVER_FILES: t.driver('a.json') } }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/a.json', 'icds/a.json'] : ['icds/a.json']);
    },
  },
  {
    name: 'a missing additional driver is skipped; additional_drivers as an object is read like an array',
    setup: (t) => ({ settings: settingsOf({ additional_drivers: { one: path(t.p('icds', 'gone.json')), two: path(t.driver('a.json')) } }) }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/a.json'] : []);
    },
  },
  {
    name: "the application's own entry (app_keys) gives its drivers, not the global entry's",
    setup: (t) => ({
      settings: {
        file_format_version: '1.0.0',
        settings_array: [{ additional_drivers: [path(t.driver('global.json'))] }, { app_keys: [probe], additional_drivers: [path(t.driver('app.json'))] }],
      },
    }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/app.json'] : []);
    },
  },
  {
    name: 'VK_LOADER_DRIVERS_DISABLE applies to the file drivers',
    setup: (t) => ({
      settings: settingsOf({ additional_drivers: [path(t.driver('a.json')), path(t.driver('b.json'))] }),
      env: { VK_LOADER_DRIVERS_DISABLE: 'a.json' },
    }),
    expect(list, t, v) {
      assert.deepEqual(ours(list, t), withFile(v) ? ['icds/b.json'] : []);
    },
  },
  {
    // An empty list counts from 1.4.336 (002a13d8f); 1.4.323–1.4.335 have no device list then, and the filter applies.
    name: 'device_configurations (empty) turns VK_LOADER_DRIVERS_DISABLE off from 1.4.336',
    setup: (t) => ({
      settings: settingsOf({ additional_drivers: [path(t.driver('a.json'))], device_configurations: [] }),
      env: { VK_LOADER_DRIVERS_DISABLE: 'a.json' },
    }),
    expect(list, t, v, inv) {
      const devices = loaderHas(v, 'settings-layer-configurations');
      assert.deepEqual(ours(list, t), devices ? ['icds/a.json'] : []);
      assert.equal(/VK_LOADER_DRIVERS_SELECT and VK_LOADER_DRIVERS_DISABLE/.test((inv.driverNotes ?? []).join('\n')), devices);
    },
  },
  {
    name: 'device_configurations (empty) turns VK_DRIVER_FILES off from 1.4.336: the usual folders are searched',
    setup(t) {
      t.driver('.config/vulkan/icd.d/cfg.json');
      return {
        settings: settingsOf({ additional_drivers: [path(t.driver('a.json'))], device_configurations: [] }),
        env: { VK_DRIVER_FILES: t.driver('c.json') },
      };
    },
    expect(list, t, v) {
      const devices = loaderHas(v, 'settings-layer-configurations');
      assert.deepEqual(
        ours(list, t),
        devices ? ['icds/a.json', '.config/vulkan/icd.d/cfg.json'] : withFile(v) ? ['icds/a.json', 'icds/c.json'] : ['icds/c.json'],
      );
    },
  },
];

/** Strata's list for this version, less the drivers the filters drop where the loader applies them. */
function strataDrivers(inv: ManifestInventory, env: NodeJS.ProcessEnv): string[] {
  const filtersOff = (inv.driverNotes ?? []).some((n) => /VK_LOADER_DRIVERS_SELECT and VK_LOADER_DRIVERS_DISABLE/.test(n));
  const disable = filtersOff ? [] : (env['VK_LOADER_DRIVERS_DISABLE'] ?? '').split(',').filter(Boolean);
  return inv.manifests.driver.filter((m) => m.problem === null && m.driver !== null && !disable.includes(m.path.split('/').at(-1)!)).map((m) => m.path);
}

interface Outcome {
  strata: string[];
  loader: string[];
  inv: ManifestInventory;
  file: string;
}

/** One scenario on one loader, in a temporary home; `check` runs before the home is removed. */
async function runScenario(b: LoaderBuild, s: Scenario, check: (o: Outcome, t: Tree) => void): Promise<void> {
  const home = makeTempHome();
  const t = new Tree(home);
  try {
    const { settings, env: extra = {} } = s.setup(t);
    const env: NodeJS.ProcessEnv = { ...home.env, ...extra };
    // Where this loader looks first (a loader without a settings file: where the newest looks).
    const file = settingsFileSearch({ env, loaderVersion: b.version })[0] ?? settingsFileSearch({ env, loaderVersion: NEWEST_PROVEN })[0]!;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(settings));

    const r = spawnSync(probe, [], { env: { ...env, VK_LOADER_DEBUG: 'driver', LD_LIBRARY_PATH: b.libDir }, cwd: home.dir, encoding: 'utf8', timeout: 30_000 });
    if (r.error) throw r.error;
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    const inv = await discoveryManifests({
      env,
      loaderVersion: b.version,
      platform: DEBIAN_LINUX,
      user: { home: home.dir, elevated: false },
      cwd: home.dir,
      libraries: false,
      appPath: probe,
    });
    check({ strata: strataDrivers(inv, env), loader: loaderDriverScan(r.stderr), inv, file }, t);
  } finally {
    home.cleanup();
  }
}

const skip = matrixSkip();
const builds: LoaderBuild[] = skip ? [] : loaderMatrix();

for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : builds)
  for (const s of scenarios)
    test(`loader ${b.version}: the settings file's drivers as the loader reads them: ${s.name}`, { skip }, () =>
      runScenario(b, s, ({ strata, loader, inv, file }, t) => {
        assert.deepEqual(strata, loader, `loader ${b.version}: the drivers it reads differ from Strata's list`);
        // The file's drivers are named as coming from it; loaders without them list none.
        const fromFile = inv.manifests.driver.filter((d) => d.origin.startsWith('additional_drivers'));
        for (const m of fromFile) assert.ok(m.origin.endsWith(` of ${file}`), m.origin);
        if (!withFile(b.version)) assert.deepEqual(fromFile, []);
        s.expect(strata, t, b.version, inv);
      }),
    );

/** The CLI from source (tsx), so the test does not depend on a fresh `npm run build`. */
function strataFromSource(args: string[], env: NodeJS.ProcessEnv) {
  const script = `import('./main/hosts/cli/cli.ts').then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`;
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: APP_ROOT, env, encoding: 'utf8', timeout: 120_000 });
}

test("strata driver list: with the installed loader 1.4.341, the settings file's drivers are listed first, named by the file", { skip }, () => {
  const [b] = loaderMatrix(['1.4.341']);
  assert.ok(b, 'loader 1.4.341 is not in the matrix');
  const home = makeTempHome();
  const t = new Tree(home);
  try {
    const env: NodeJS.ProcessEnv = { ...home.env, LD_LIBRARY_PATH: b.libDir };
    const file = settingsFileSearch({ env, loaderVersion: b.version })[0]!;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(settingsOf({ additional_drivers: [path(t.driver('a.json')), path(t.p('icds'))] })));
    const human = strataFromSource(['driver', 'list'], env);
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /No driver manifests found/);
    assert.match(human.stdout, /note: .*additional_drivers\[1\] \(".*icds"\) does not end in "\.json", and it is the last one/);

    writeFileSync(file, JSON.stringify(settingsOf({ additional_drivers: [path(t.driver('a.json'))], additional_drivers_use_exclusively: true })));
    const json = strataFromSource(['driver', 'list', '--json'], env);
    assert.equal(json.status, 0, json.stderr);
    const list = JSON.parse(json.stdout) as { path: string; origin: string }[];
    assert.deepEqual(
      list.map((d) => [d.path, d.origin]),
      [[t.p('icds', 'a.json'), `additional_drivers[0] of ${file}`]],
    );
  } finally {
    home.cleanup();
  }
});

test("strata device list: with a settings file's drivers, no device is paired with a manifest loaded alone, and the notes say why", { skip }, () => {
  const [b] = loaderMatrix(['1.4.341']);
  assert.ok(b, 'loader 1.4.341 is not in the matrix');
  const home = makeTempHome();
  try {
    const lavapipe = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
    const env: NodeJS.ProcessEnv = { ...home.env, LD_LIBRARY_PATH: b.libDir, VK_DRIVER_FILES: lavapipe };
    type Devices = { devices: { deviceName: string; origin?: { manifest: string } | null }[]; driverManifests: unknown; notes?: string[] };
    const list = () => {
      const r = strataFromSource(['device', 'list', '--json'], env);
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as Devices;
    };
    // Without a settings file each device is paired with the manifest that gives it alone.
    const plain = list();
    assert.ok(plain.devices.length > 0, 'lavapipe gives a device');
    assert.ok(plain.devices.every((d) => d.origin?.manifest === lavapipe));
    assert.equal(plain.notes, undefined);

    // The file's driver joins every vkCreateInstance, VK_DRIVER_FILES or not: loading one driver alone
    // is impossible, so no device is paired, and the notes name the file.
    const file = settingsFileSearch({ env, loaderVersion: b.version })[0]!;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(settingsOf({ additional_drivers: [path(lavapipe)] })));
    const withFile = list();
    assert.equal(withFile.devices.length, plain.devices.length * 2, 'the loader reads lavapipe twice: from the file and from VK_DRIVER_FILES');
    assert.ok(withFile.devices.every((d) => !d.origin));
    assert.equal(withFile.driverManifests, null);
    assert.match(withFile.notes?.join('\n') ?? '', /additional_drivers/);
    assert.match(withFile.notes?.join('\n') ?? '', /cannot load one driver alone/);
    const human = strataFromSource(['device', 'list'], env);
    assert.match(human.stdout, /Notes:\n {2}- .*loader settings file/);
  } finally {
    home.cleanup();
  }
});

// ---- device_configurations: which physical devices vkEnumeratePhysicalDevices reports ----

/** Asks for the count, then for that many; prints each device's API version, UUIDs, driver version and name. */
const DEVICE_PROBE = `#include <stdio.h>
#include <vulkan/vulkan.h>
static void hex(const uint8_t *u) { for (int i = 0; i < 16; i++) printf("%02x", u[i]); }
int main(void) {
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkInstance instance;
  VkResult r = vkCreateInstance(&info, NULL, &instance);
  if (r != VK_SUCCESS) { printf("create %d\\n", r); return 0; }
  uint32_t count = 0;
  r = vkEnumeratePhysicalDevices(instance, &count, NULL);
  printf("count %d %u\\n", r, count);
  VkPhysicalDevice devs[16];
  if (count > 16) count = 16;
  if (count > 0) {
    r = vkEnumeratePhysicalDevices(instance, &count, devs);
    printf("fill %d\\n", r);
    for (uint32_t i = 0; i < count && r >= 0; i++) {
      VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
      VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
      vkGetPhysicalDeviceProperties2(devs[i], &p2);
      printf("device %u ", p2.properties.apiVersion); hex(id.deviceUUID); printf(" "); hex(id.driverUUID);
      printf(" %u %s\\n", p2.properties.driverVersion, p2.properties.deviceName);
    }
  }
  vkDestroyInstance(instance, NULL);
  return 0;
}
`;
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

interface DeviceRun {
  create: number;
  count: number;
  fill: number | null;
  devices: (PhysicalDeviceIds & { line: string })[];
}

function parseDeviceRun(out: string): DeviceRun {
  const create = /^create (-?\d+)/m.exec(out);
  if (create) return { create: Number(create[1]), count: 0, fill: null, devices: [] };
  const count = /^count (-?\d+) (\d+)/m.exec(out);
  assert.ok(count, `no count in the device probe's output:\n${out}`);
  const fill = /^fill (-?\d+)/m.exec(out);
  const devices = [...out.matchAll(/^device (\d+) ([0-9a-f]{32}) ([0-9a-f]{32}) (\d+) (.*)$/gm)].map((m) => ({
    apiVersion: Number(m[1]),
    deviceUUID: m[2]!,
    driverUUID: m[3]!,
    driverVersion: Number(m[4]),
    name: m[5]!,
    line: m[0],
  }));
  return { create: 0, count: Number(count[2]), fill: fill ? Number(fill[1]) : null, devices };
}

const RESULT: Record<string, number> = { VK_SUCCESS: 0, VK_INCOMPLETE: 5, VK_ERROR_INITIALIZATION_FAILED: -3 };

interface DeviceScenario {
  name: string;
  /** The settings object, given lavapipe's ids as the loader reports them. */
  settings(lvp: PhysicalDeviceIds): Settings;
  env?: Record<string, string>;
  /** What the scenario is about, on Strata's prediction (already proven equal to the loader). */
  expect(run: DeviceRun, version: string): void;
}

const config = (d: PhysicalDeviceIds, name = d.name) => ({
  deviceName: name,
  deviceUUID: [...Buffer.from(d.deviceUUID, 'hex')],
  driverUUID: [...Buffer.from(d.driverUUID, 'hex')],
  driverVersion: d.driverVersion,
});
const devicesOn = (v: string) => loaderHas(v, 'settings-device-configurations');

const deviceScenarios: DeviceScenario[] = [
  {
    name: 'one configuration of two lavapipe devices: only the first, however many the drivers give',
    settings: (lvp) => settingsOf({ device_configurations: [config(lvp)] }),
    expect: (r, v) => assert.equal(r.devices.length, devicesOn(v) ? 1 : 2),
  },
  {
    name: 'a configuration no device matches: the count says 1, the list fails with VK_ERROR_INITIALIZATION_FAILED (1.4.325+; before, no device)',
    settings: (lvp) => settingsOf({ device_configurations: [{ ...config(lvp), deviceUUID: new Array(16).fill(7) }] }),
    expect: (r, v) => assert.equal(r.fill, loaderHas(v, 'settings-device-none-matched-fails') ? -3 : 0),
  },
  {
    name: 'an empty device_configurations: no device at all (1.4.336+)',
    settings: () => settingsOf({ device_configurations: [] }),
    expect: (r, v) => assert.equal(r.count, loaderHas(v, 'settings-layer-configurations') ? 0 : 2),
  },
  {
    name: 'a malformed last configuration: the list ignored before 1.4.336, no device 1.4.336–1.4.357, skipped after',
    settings: (lvp) => settingsOf({ device_configurations: [config(lvp), { deviceName: 'broken', deviceUUID: [1, 2] }] }),
    expect: (r, v) =>
      assert.equal(r.count, !devicesOn(v) ? 2 : loaderHas(v, 'settings-device-malformed-skipped') ? 1 : loaderHas(v, 'settings-layer-configurations') ? 0 : 2),
  },
  {
    name: 'a malformed first configuration: the list ignored before 1.4.325, skipped after (and counted until 1.4.358)',
    settings: (lvp) => settingsOf({ device_configurations: [{ deviceName: 'broken', deviceUUID: [1, 2] }, config(lvp)] }),
    expect: (r, v) => {
      const skipped = devicesOn(v) && loaderHas(v, 'settings-device-malformed-continue');
      assert.equal(r.devices.length, skipped ? 1 : 2);
      assert.equal(r.count, skipped && loaderHas(v, 'settings-device-malformed-skipped') ? 1 : 2);
    },
  },
  {
    name: 'two configurations of the same device: it is listed twice',
    settings: (lvp) => settingsOf({ device_configurations: [config(lvp), config(lvp, 'again')] }),
    expect: (r) => assert.equal(r.devices.length, 2),
  },
  {
    name: 'a configuration whose driverVersion differs: no match (1.4.329+ match driverUUID and driverVersion too)',
    settings: (lvp) => settingsOf({ device_configurations: [{ ...config(lvp), driverVersion: lvp.driverVersion + 1 }] }),
    expect: (r, v) => assert.equal(r.fill, !devicesOn(v) ? 0 : loaderHas(v, 'settings-device-driver-uuid') ? -3 : 0),
  },
  {
    name: 'device_configurations turns VK_LOADER_DRIVERS_SELECT off',
    settings: (lvp) => settingsOf({ device_configurations: [config(lvp)] }),
    env: { VK_LOADER_DRIVERS_SELECT: 'nothing_*' },
    expect: (r, v) => assert.equal(r.create, devicesOn(v) ? 0 : -9),
  },
];

/** Strata's prediction: the devices of a run without the file, through the file as this loader reads it. */
function predictDevices(text: string, app: string, version: string, env: NodeJS.ProcessEnv, baseline: DeviceRun, drivers: string[]): DeviceRun {
  const read = readLoaderSettings(text, app, version);
  const d = read.active ? read.drivers : null;
  if (!d?.devicesActive) {
    const select = env['VK_LOADER_DRIVERS_SELECT'];
    if (select && !drivers.some((p) => matchesAny(p.split('/').at(-1)!, [select]))) return { create: -9, count: 0, fill: null, devices: [] };
    return baseline;
  }
  const r = devicesWithSettings(baseline.devices, d.devices, version, d.deviceCount);
  return { create: 0, count: r.count, fill: r.count > 0 ? RESULT[r.result]! : null, devices: r.devices };
}

let deviceProbe = '';
const lines = (r: DeviceRun) => ({ ...r, devices: r.devices.map((d) => d.line) });

/** One device scenario on one loader: Strata's prediction and the loader's answer. */
function runDeviceScenario(b: LoaderBuild, s: DeviceScenario): { strata: DeviceRun; loader: DeviceRun } {
  if (!deviceProbe) {
    writeFileSync(join(work, 'device-probe.c'), DEVICE_PROBE);
    deviceProbe = join(work, 'device-probe');
    execFileSync('gcc', ['-O1', '-Wall', '-Werror', join(work, 'device-probe.c'), '-o', deviceProbe, '-lvulkan'], { stdio: 'pipe' });
  }
  const home = makeTempHome();
  try {
    // Lavapipe twice (a second manifest for the same library, in a folder the loader searches: with
    // device_configurations it reads no VK_DRIVER_FILES): two devices with the same ids.
    const copy = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'icd.d', 'lvp-again.json');
    mkdirSync(dirname(copy), { recursive: true });
    writeFileSync(copy, readFileSync(LAVAPIPE));
    const drivers = [copy, LAVAPIPE];
    // Mesa's implicit device_select layer asks the loader for the count and the list itself, which
    // turns the loader's answers into its own (a failed list becomes a failed count): off, so
    // the probe talks to the loader's terminator.
    const env: NodeJS.ProcessEnv = { ...home.env, LD_LIBRARY_PATH: b.libDir, NODEVICE_SELECT: '1' };
    const run = (extra: Record<string, string> = {}) => {
      const r = spawnSync(deviceProbe, [], { env: { ...env, ...extra }, encoding: 'utf8', timeout: 60_000 });
      if (r.error) throw r.error;
      assert.equal(r.status, 0, r.stderr.slice(-2000));
      return parseDeviceRun(r.stdout);
    };
    const baseline = run();
    assert.equal(baseline.devices.filter((d) => d.name.startsWith('llvmpipe')).length, 2, `lavapipe (Mesa) is needed twice: ${JSON.stringify(baseline)}`);
    const file = settingsFileSearch({ env, loaderVersion: b.version })[0] ?? settingsFileSearch({ env, loaderVersion: NEWEST_PROVEN })[0]!;
    mkdirSync(dirname(file), { recursive: true });
    const text = JSON.stringify(s.settings(baseline.devices.find((d) => d.name.startsWith('llvmpipe'))!));
    writeFileSync(file, text);
    const loader = run(s.env);
    return { strata: predictDevices(text, deviceProbe, b.version, { ...env, ...s.env }, baseline, drivers), loader };
  } finally {
    home.cleanup();
  }
}

for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : builds)
  for (const s of deviceScenarios)
    test(`loader ${b.version}: device_configurations as the loader applies it: ${s.name}`, { skip }, () => {
      const { strata, loader } = runDeviceScenario(b, s);
      assert.deepEqual(lines(strata), lines(loader), `loader ${b.version}: the devices it reports differ from Strata's prediction`);
      s.expect(strata, b.version);
    });

// ---- stderr_log: what the loader writes to stderr (what a Strata session captures) ----

const logScenarios: { name: string; settings: Settings }[] = [
  { name: 'an active file without stderr_log', settings: settingsOf({ layers: [{ control: 'unordered_layer_location' }] }) },
  { name: 'stderr_log without "driver" replaces VK_LOADER_DEBUG=driver', settings: settingsOf({ layers: [], stderr_log: ['error', 'warn'] }) },
  { name: 'stderr_log "all"', settings: settingsOf({ layers: [], stderr_log: ['all'] }) },
  { name: 'stderr_log with unknown names only', settings: settingsOf({ layers: [], stderr_log: ['warning', 'drivers'] }) },
  { name: 'stderr_log alone (no layers)', settings: settingsOf({ stderr_log: ['error'] }) },
];

/** One log scenario on one loader: whether the loader wrote its driver messages, and whether Strata predicts it. */
function runLogScenario(b: LoaderBuild, s: { settings: Settings }): { strata: boolean; loader: boolean; why: string; unparsed: string[] } {
  const home = makeTempHome();
  try {
    const env: NodeJS.ProcessEnv = { ...home.env, VK_LOADER_DEBUG: 'driver', LD_LIBRARY_PATH: b.libDir };
    const file = settingsFileSearch({ env, loaderVersion: b.version })[0] ?? settingsFileSearch({ env, loaderVersion: NEWEST_PROVEN })[0]!;
    mkdirSync(dirname(file), { recursive: true });
    const text = JSON.stringify(s.settings);
    writeFileSync(file, text);
    const r = spawnSync(probe, [], { env, cwd: home.dir, encoding: 'utf8', timeout: 30_000 });
    if (r.error) throw r.error;
    assert.equal(r.status, 0, r.stderr.slice(-2000));
    const after = r.stderr.split('STRATA-PROBE: layers enumerated')[1] ?? '';
    const log = stderrLogFor(readLoaderSettings(text, probe, b.version), b.version);
    return {
      loader: /Found ICD manifest file/.test(after),
      strata: log.source === 'environment' ? true : log.filters.includes('driver') || log.filters.includes('all'),
      why: JSON.stringify(log),
      // What a Strata session captures: the session parser must read every line the settings file let through.
      unparsed: r.stderr
        .split('\n')
        .filter((l) => l.length > 0 && !l.includes('STRATA-PROBE'))
        .filter((l) => parseLoaderLogLine(l, loaderLogColumn(b.version)) === null),
    };
  } finally {
    home.cleanup();
  }
}

for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : builds)
  for (const s of logScenarios)
    test(`loader ${b.version}: the loader's stderr log with a settings file: ${s.name}`, { skip }, () => {
      const r = runLogScenario(b, s);
      assert.equal(r.strata, r.loader, `loader ${b.version}: Strata predicts ${r.why}; the loader ${r.loader ? 'logged' : 'did not log'} its driver messages`);
      assert.deepEqual(r.unparsed, [], `loader ${b.version}: lines the session parser does not read as the loader's`);
    });

// Mutation check: moving a version-keyed row of the table to the other side of each loader makes
// some scenario of this suite disagree with some real loader.
const MUTATED = [
  'settings-drivers',
  'settings-device-configurations',
  'settings-device-driver-uuid',
  'settings-device-malformed-continue',
  'settings-device-none-matched-fails',
  'settings-device-malformed-skipped',
  'settings-stderr-log-fallback',
] as const;
for (const rule of MUTATED)
  test(`mutation: flipping ${rule} makes some scenario disagree with a real loader`, { skip }, async () => {
    assert.ok(builds.length > 0, 'no loader build to run against');
    const original = sinceOf(rule);
    let disagreements = 0;
    try {
      // Newest first: these rows arrived late, so the newest loaders catch a flip soonest.
      for (const b of [...builds].reverse()) {
        setRuleSinceForTest(rule, loaderHas(b.version, rule) ? '9.9.9' : '1.0.0');
        for (const s of scenarios)
          await runScenario(b, s, ({ strata, loader }) => {
            if (JSON.stringify(strata) !== JSON.stringify(loader)) disagreements++;
          });
        for (const s of deviceScenarios) {
          const r = runDeviceScenario(b, s);
          if (JSON.stringify(lines(r.strata)) !== JSON.stringify(lines(r.loader))) disagreements++;
        }
        for (const s of logScenarios) {
          const r = runLogScenario(b, s);
          if (r.strata !== r.loader) disagreements++;
        }
        setRuleSinceForTest(rule, original);
        if (disagreements > 0) break;
      }
    } finally {
      setRuleSinceForTest(rule, original);
    }
    assert.ok(disagreements > 0, `flipping ${rule} changed no outcome on any loader`);
  });
