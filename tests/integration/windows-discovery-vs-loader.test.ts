import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { mingwBuild, openWindowsLane, windowsLaneSkip, type RegValue, type WindowsLane } from '../helpers/windows-lane';
import { parseWindowsLoaderLog, type WindowsLoaderLog } from '../helpers/windows-loader-log';
import { DiscoveryPathsSchema } from '../../shared/loader/search-paths-schema';

/**
 * Discovery on Windows, against the real Windows loader (1.4.359, mingw-built vulkan-1.dll) under
 * Wine: for each scenario the registry (HKLM, HKCU, WOW6432Node) and the files are set up, then
 * tests/fixtures/discovery/loader-scan-probe.c runs with VK_LOADER_DEBUG=all and Strata runs as a
 * Windows user runs it (Windows Node, the built CLI: `strata layer list --json`). Both must open
 * the same manifest files in the same order.
 *
 * Every process under Wine is elevated (high integrity), so these are the elevated rules of
 * "Windows Layer Discovery": HKEY_CURRENT_USER and the VK_* path variables are ignored — by the
 * loader, which says so in its log, and by Strata, which must detect the elevation by itself.
 */

const skip = windowsLaneSkip('windows-discovery-vs-loader');
let lane: WindowsLane;
let probe = '';

before(() => {
  if (skip) return;
  lane = openWindowsLane();
  probe = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'discovery', 'loader-scan-probe.c')], 'loader-scan-probe.exe', [], { vulkan: true });
});
after(() => lane?.close());

const ROOT = 'C:\\st';
const HKLM = 'HKLM\\SOFTWARE\\Khronos\\Vulkan';
const HKCU = 'HKCU\\SOFTWARE\\Khronos\\Vulkan';
const WOW = 'HKLM\\SOFTWARE\\WOW6432Node\\Khronos\\Vulkan';
const on = (name: string): RegValue => ({ name, data: 0 });
const off = (name: string, data = 1): RegValue => ({ name, data });

/** Files of a scenario, under C:\st of the prefix. */
class Files {
  /** `C:\st\a\b.json` → the Unix path in the prefix. */
  unix(win: string) {
    if (!win.startsWith('C:\\')) throw new Error(`not a C: path: ${win}`);
    return join(lane.driveC, ...win.slice(3).split('\\'));
  }
  write(win: string, text: string) {
    const p = this.unix(win);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return win;
  }
  driver(rel: string) {
    return this.write(`${ROOT}\\${rel}`, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: '.\\missing_icd.dll', api_version: '1.3.0' } }));
  }
  layer(rel: string, name = `VK_LAYER_STRATA_${rel.replace(/\W/g, '_')}`, implicit = false) {
    const layer: Record<string, unknown> = {
      name,
      type: 'GLOBAL',
      library_path: '.\\missing.dll',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'strata windows discovery test',
    };
    if (implicit) layer['disable_environment'] = { STRATA_TEST_DISABLE: '1' };
    return this.write(`${ROOT}\\${rel}`, JSON.stringify({ file_format_version: '1.1.0', layer }));
  }
  implicit(rel: string) {
    return this.layer(rel, undefined, true);
  }
  folder(rel: string) {
    mkdirSync(this.unix(`${ROOT}\\${rel}`), { recursive: true });
    return `${ROOT}\\${rel}`;
  }
}

interface Scenario {
  name: string;
  /** Also compare the driver search (`strata driver list --json`). */
  drivers?: boolean;
  setup(f: Files): { registry: Record<string, RegValue[]>; env?: Record<string, string> };
  expect(loader: WindowsLoaderLog, strata: StrataEntry[]): void;
}

interface StrataEntry {
  path: string;
  kind: 'implicit_layer' | 'explicit_layer' | 'driver';
  origin: string;
  problem: string | null;
}

const layerPaths = (s: StrataEntry[], kind: StrataEntry['kind']) => s.filter((e) => e.kind === kind).map((e) => e.path);

const scenarios: Scenario[] = [
  {
    name: 'no Khronos layer keys: no layers',
    setup: () => ({ registry: {} }),
    expect(l, s) {
      assert.deepEqual(s, []);
      assert.deepEqual(l.explicit_layer.keys, ['HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers']);
    },
  },
  {
    // The order is RegEnumValue's: Windows returns a key's values in creation order, Wine keeps
    // them sorted by name. Strata asks RegEnumValueW, so it follows whichever the system does.
    name: 'HKLM ExplicitLayers: values in the order RegEnumValue returns them (Wine: sorted by name)',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.layer('z.json')), on(f.layer('a.json')), on(f.layer('m.json'))] } }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\a.json`, `${ROOT}\\m.json`, `${ROOT}\\z.json`]);
    },
  },
  {
    name: 'HKLM ImplicitLayers: DWORD 0 enables, DWORD 1 disables',
    setup: (f) => ({ registry: { [`${HKLM}\\ImplicitLayers`]: [on(f.implicit('i1.json')), off(f.implicit('i2.json')), on(f.implicit('i3.json'))] } }),
    expect(l) {
      assert.deepEqual(l.implicit_layer.files, [`${ROOT}\\i1.json`, `${ROOT}\\i3.json`]);
    },
  },
  {
    name: 'HKCU layer keys are skipped: the process is elevated',
    setup: (f) => ({
      registry: {
        [`${HKLM}\\ExplicitLayers`]: [on(f.layer('machine.json'))],
        [`${HKCU}\\ExplicitLayers`]: [on(f.layer('user.json'))],
        [`${HKCU}\\ImplicitLayers`]: [on(f.implicit('user_implicit.json'))],
      },
    }),
    expect(l, s) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\machine.json`]);
      assert.deepEqual(l.implicit_layer.files, []);
      assert.ok(!s.some((e) => e.origin.startsWith('HKCU')), 'Strata listed an HKCU layer the elevated loader skips');
    },
  },
  {
    name: 'VK_LAYER_PATH (";"-separated folders) is ignored when elevated',
    setup: (f) => {
      f.layer('lp1\\one.json');
      f.layer('lp2\\two.json');
      return { registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.layer('reg.json'))] }, env: { VK_LAYER_PATH: `${ROOT}\\lp1;${ROOT}\\lp2` } };
    },
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\reg.json`]);
      assert.ok(l.explicit_layer.ignoredVariables.includes('VK_LAYER_PATH'));
    },
  },
  {
    name: 'VK_ADD_LAYER_PATH and VK_ADD_IMPLICIT_LAYER_PATH are ignored when elevated',
    setup: (f) => {
      f.layer('add\\added.json');
      f.implicit('addi\\added_implicit.json');
      return { registry: {}, env: { VK_ADD_LAYER_PATH: `${ROOT}\\add`, VK_ADD_IMPLICIT_LAYER_PATH: `${ROOT}\\addi`, VK_IMPLICIT_LAYER_PATH: `${ROOT}\\addi` } };
    },
    expect(l, s) {
      assert.deepEqual(s, []);
      assert.ok(l.explicit_layer.ignoredVariables.includes('VK_ADD_LAYER_PATH'));
    },
  },
  {
    name: 'a registered manifest that does not exist is still opened (and fails)',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.layer('here.json')), on(`${ROOT}\\gone.json`)] } }),
    expect(l, s) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\gone.json`, `${ROOT}\\here.json`]);
      assert.equal(s.find((e) => e.path.endsWith('gone.json'))?.problem, 'missing');
    },
  },
  {
    name: 'a value naming a folder: its *.json files, in directory order',
    setup: (f) => {
      for (const n of ['q', 'c', 'x', 'a', 'k']) f.layer(`dir\\${n}.json`);
      f.write(`${ROOT}\\dir\\notes.txt`, 'not a manifest');
      return { registry: { [`${HKLM}\\ExplicitLayers`]: [on(`${ROOT}\\dir`)] } };
    },
    expect(l) {
      assert.equal(l.explicit_layer.files.length, 5);
    },
  },
  {
    name: 'a value with two manifests joined by ";"',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [on(`${f.layer('p1.json')};${f.layer('p2.json')}`)] } }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\p1.json`, `${ROOT}\\p2.json`]);
    },
  },
  {
    name: 'a name ending in ".JSON" (upper case) is not a manifest: it is read as a folder, which does not exist',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.write(`${ROOT}\\UPPER.JSON`, '{}')), on(f.layer('lower.json'))] } }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\lower.json`]);
    },
  },
  {
    name: 'a REG_SZ value whose data does not fit 4 bytes ends the enumeration: later values are never read',
    setup: (f) => ({
      registry: {
        [`${HKLM}\\ExplicitLayers`]: [on(f.layer('a_before.json')), { name: f.layer('m_string.json'), data: 'C:\\some\\path' }, on(f.layer('z_after.json'))],
      },
    }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\a_before.json`]);
    },
  },
  {
    name: 'a REG_QWORD 0 (8 bytes) ends the enumeration too',
    setup: (f) => ({
      registry: {
        [`${HKLM}\\ImplicitLayers`]: [
          on(f.implicit('a_before.json')),
          { name: f.implicit('m_qword.json'), data: { hex: 'b', bytes: [0, 0, 0, 0, 0, 0, 0, 0] } },
          on(f.implicit('z_after.json')),
        ],
      },
    }),
    expect(l) {
      assert.deepEqual(l.implicit_layer.files, [`${ROOT}\\a_before.json`]);
    },
  },
  {
    name: 'a REG_BINARY of four zero bytes enables a manifest like the DWORD 0',
    setup: (f) => ({
      registry: {
        [`${HKLM}\\ExplicitLayers`]: [
          { name: f.layer('binary.json'), data: { hex: '3', bytes: [0, 0, 0, 0] } },
          { name: f.layer('binary1.json'), data: { hex: '3', bytes: [0, 0, 0, 1] } },
        ],
      },
    }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\binary.json`]);
    },
  },
  {
    name: 'a short REG_SZ ("ab": 3 bytes) is skipped and the enumeration goes on',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [{ name: f.layer('short.json'), data: 'ab' }, on(f.layer('next.json'))] } }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\next.json`]);
    },
  },
  {
    name: 'DWORD 2 and DWORD 0xFFFFFFFF disable',
    setup: (f) => ({
      registry: { [`${HKLM}\\ExplicitLayers`]: [off(f.layer('two.json'), 2), off(f.layer('ffff.json'), 0xffffffff), on(f.layer('zero.json'))] },
    }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\zero.json`]);
    },
  },
  {
    name: 'WOW6432Node keys are for 32-bit applications: a 64-bit loader does not read them',
    setup: (f) => ({
      registry: {
        [`${WOW}\\ExplicitLayers`]: [on(f.layer('wow.json'))],
        [`${WOW}\\ImplicitLayers`]: [on(f.implicit('wow_i.json'))],
        [`${HKLM}\\ExplicitLayers`]: [on(f.layer('native.json'))],
      },
    }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\native.json`]);
    },
  },
  {
    name: 'forward slashes in a value name are kept as written',
    setup: (f) => {
      f.layer('fwd\\slash.json');
      return { registry: { [`${HKLM}\\ExplicitLayers`]: [on('C:/st/fwd/slash.json')] } };
    },
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, ['C:/st/fwd/slash.json']);
    },
  },
  {
    name: 'spaces and parentheses in the path (C:\\st\\Program Files (x86)\\…)',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.layer('Program Files (x86)\\Tool  Two\\layer one.json'))] } }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\Program Files (x86)\\Tool  Two\\layer one.json`]);
    },
  },
  {
    // Value names are case-insensitive (C:\st\same.json and c:\st\SAME.json are one value), so the
    // second spelling differs by a "." segment.
    name: 'the same file under two spellings is opened twice',
    setup: (f) => ({ registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.layer('same.json')), on(`${ROOT}\\.\\same.json`)] } }),
    expect(l, s) {
      assert.equal(l.explicit_layer.files.length, 2);
      assert.equal(s.filter((e) => e.kind === 'explicit_layer').length, 2);
    },
  },
  {
    name: 'a manifest that is not JSON is opened, fails to parse, and stays in the list',
    setup: (f) => ({
      registry: { [`${HKLM}\\ExplicitLayers`]: [on(f.write(`${ROOT}\\broken.json`, '{"file_format_version": "1.1.0", "layer": {')), on(f.layer('fine.json'))] },
    }),
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\broken.json`, `${ROOT}\\fine.json`]);
    },
  },
  {
    name: 'twelve implicit layers in RegEnumValue order',
    setup: (f) => ({
      registry: { [`${HKLM}\\ImplicitLayers`]: ['k', 'b', 'w', 'a', 'r', 'c', 'z', 'd', 'p', 'e', 'y', 'f'].map((n) => on(f.implicit(`many\\${n}.json`))) },
    }),
    expect(l) {
      assert.equal(l.implicit_layer.files.length, 12);
      assert.equal(l.implicit_layer.files[0], `${ROOT}\\many\\a.json`);
    },
  },
  {
    name: 'a Z: path (the Unix side of Wine) is an ordinary path',
    setup: (f) => {
      const unix = f.unix(f.layer('zdrive.json'));
      return { registry: { [`${HKLM}\\ExplicitLayers`]: [on(`Z:${unix.replace(/\//g, '\\')}`)] } };
    },
    expect(l) {
      assert.match(l.explicit_layer.files[0] ?? '', /^Z:\\.*\\zdrive\.json$/);
    },
  },
  {
    name: 'implicit and explicit keys naming the same file: each search opens it',
    setup: (f) => {
      const both = f.implicit('both.json');
      return { registry: { [`${HKLM}\\ImplicitLayers`]: [on(both)], [`${HKLM}\\ExplicitLayers`]: [on(both)] } };
    },
    expect(l) {
      assert.deepEqual([l.implicit_layer.files, l.explicit_layer.files], [[`${ROOT}\\both.json`], [`${ROOT}\\both.json`]]);
    },
  },
  {
    name: 'an empty folder, and a folder named with a trailing backslash',
    setup: (f) => {
      f.folder('empty');
      f.layer('trail\\t.json');
      return { registry: { [`${HKLM}\\ExplicitLayers`]: [on(`${ROOT}\\empty`), on(`${ROOT}\\trail\\`)] } };
    },
    expect(l) {
      assert.deepEqual(l.explicit_layer.files, [`${ROOT}\\trail\\\\t.json`]);
    },
  },
  {
    // Wine registers its own driver (winevulkan, over the host's lavapipe) in HKLM\…\Drivers; the
    // loader reads that key only when DXGI works (the lane's Xvfb), and never HKCU's.
    name: 'drivers: HKLM Drivers in RegEnumValue order with winevulkan, a disabled one skipped, HKCU Drivers never read',
    drivers: true,
    setup: (f) => ({
      registry: {
        [`${HKLM}\\Drivers`]: [
          { name: 'C:\\windows\\system32\\winevulkan.json', data: 0 },
          on(f.driver('icd_one.json')),
          off(f.driver('icd_off.json')),
          on(`${ROOT}\\icd_gone.json`),
        ],
        [`${HKCU}\\Drivers`]: [on(f.driver('icd_user.json'))],
      },
    }),
    expect(l) {
      assert.deepEqual(l.driver.files, [`${ROOT}\\icd_gone.json`, `${ROOT}\\icd_one.json`, 'C:\\windows\\system32\\winevulkan.json']);
    },
  },
  {
    name: 'drivers: VK_DRIVER_FILES and VK_ADD_DRIVER_FILES are ignored when elevated',
    drivers: true,
    setup: (f) => ({ registry: {}, env: { VK_DRIVER_FILES: f.driver('env\\replace.json'), VK_ADD_DRIVER_FILES: f.driver('env\\add.json') } }),
    expect(l) {
      assert.deepEqual(l.driver.files, ['C:\\windows\\system32\\winevulkan.json']);
      assert.ok(l.driver.ignoredVariables.includes('VK_DRIVER_FILES'));
    },
  },
];

for (const s of scenarios) {
  test(`Windows discovery matches the loader under Wine: ${s.name}`, { skip }, async () => {
    rmSync(join(lane.driveC, 'st'), { recursive: true, force: true });
    const files = new Files();
    const { registry, env = {} } = s.setup(files);
    // Without a driver vkCreateInstance fails at once; only the driver scenarios need winevulkan.
    lane.setKhronosRegistry(registry, { wineDriver: s.drivers === true });

    // Both only read the registry and the files: they run side by side.
    const [loaderRun, strataRun, driversRun] = await Promise.all([
      lane.runAsync(probe, [], { VK_LOADER_DEBUG: 'all', ...env }),
      lane.strataAsync(['layer', 'list', '--json'], env),
      s.drivers ? lane.strataAsync(['driver', 'list', '--json'], env) : null,
    ]);
    assert.equal(loaderRun.status, 0, loaderRun.stderr.slice(-2000));
    const loader = parseWindowsLoaderLog(loaderRun.stderr);
    assert.equal(strataRun.status, 0, strataRun.stderr);
    const strata = JSON.parse(strataRun.stdout) as StrataEntry[];

    for (const kind of ['implicit_layer', 'explicit_layer'] as const)
      assert.deepEqual(layerPaths(strata, kind), loader[kind].files, `${kind}: Strata's manifests differ from the loader's`);
    if (driversRun) {
      assert.equal(driversRun.status, 0, driversRun.stderr);
      const listed = JSON.parse(driversRun.stdout) as StrataEntry[];
      assert.deepEqual(
        listed.map((e) => e.path),
        loader.driver.files,
        "drivers: Strata's manifests differ from the loader's",
      );
      assert.ok(
        listed.every((e) => e.origin === 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\Drivers'),
        `driver origins: ${listed.map((e) => e.origin).join(', ')}`,
      );
    }
    // Where each came from: the loader names the hive and key of every registry value it took.
    for (const [hive] of [...loader.implicit_layer.registry, ...loader.explicit_layer.registry])
      assert.match(hive, /^HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\(Im|Ex)plicitLayers$/);
    assert.ok(
      strata.every((e) => e.origin.startsWith('HKLM\\SOFTWARE\\Khronos\\Vulkan\\')),
      `origins: ${strata.map((e) => e.origin).join(', ')}`,
    );
    s.expect(loader, strata);
  });
}

test('strata path list under Wine: elevated (detected from the token), HKCU not searched, said in plain words', { skip }, () => {
  lane.setKhronosRegistry({});
  const json = lane.strata(['path', 'list', '--json']);
  assert.equal(json.status, 0, json.stderr);
  const paths = DiscoveryPathsSchema.parse(JSON.parse(json.stdout));
  assert.equal(paths.platform.os, 'windows');
  assert.equal(paths.elevated, true, 'Strata did not see that the process is elevated (every Wine process is high integrity)');
  for (const kind of ['implicit_layer', 'explicit_layer', 'driver'] as const)
    assert.ok(!paths.locations[kind].some((l) => l.path.startsWith('HKCU')), `${kind}: HKCU listed`);
  assert.deepEqual(
    paths.locations.explicit_layer.map((l) => l.path).filter((p) => p.startsWith('HKLM\\SOFTWARE')),
    ['HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers'],
  );
  const text = lane.strata(['path', 'list']);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /elevated/i);
  assert.match(text.stdout, /HKEY_CURRENT_USER/);
});
