import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { elapsed, mingwBuild, openWindowsLane, windowsLaneSkip, type RegValue, type WindowsLane } from '../helpers/windows-lane';
import { AppInfoSchema } from '../../shared/app/app-info';
import { LoaderInfoSchema } from '../../shared/vulkan/loader-info';
import { LayersInspectReportSchema } from '../../shared/vulkan/layer-inspection';
import { DevicesReportSchema } from '../../shared/vulkan/devices';
import { DriversNegotiateReportSchema } from '../../shared/vulkan/driver-negotiation';

/**
 * The probe on Windows: `strata info` and `strata loader show` run by Windows Node under Wine load the
 * real Windows loader (1.4.359, mingw-built vulkan-1.dll) in the probe process through koffi, and
 * answer what that loader says — compared with tests/fixtures/windows/enumerate.c, a mingw-built
 * program asking the same loader in the same prefix. Layers come from the registry (HKLM; the HKCU
 * one is skipped, as every Wine process is elevated).
 *
 * Both commands used to answer and then never exit under Wine: after the probe was stopped, its
 * stderr pipe never reached EOF (a process Wine starts on the probe's behalf outlives it), and the
 * CLI waited for it (main/bridge/probe-transport.ts). The lane's time limit is what fails then.
 */

const skip = windowsLaneSkip('windows-probe-vs-loader');
let lane: WindowsLane;
let enumerate = '';
/** The Khronos keys before() registers (a test that changes them puts these back). */
let registry: Record<string, RegValue[]> = {};
const HKLM = 'HKLM\\SOFTWARE\\Khronos\\Vulkan';

before(() => {
  if (skip) return;
  lane = openWindowsLane();
  enumerate = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'windows', 'enumerate.c')], 'enumerate.exe', [], { vulkan: true });
  const dir = join(lane.driveC, 'probe-layers');
  mkdirSync(dir, { recursive: true });
  const layer = (name: string, extra: Record<string, unknown> = {}) => {
    const dll = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'layers', 'recording-layer.c')], `${name}.dll`, [`-DLAYER_NAME="${name}"`], { vulkan: true });
    copyFileSync(dll, join(dir, `${name}.dll`));
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({
        file_format_version: '1.2.0',
        layer: {
          name,
          type: 'GLOBAL',
          library_path: `.\\${name}.dll`,
          api_version: '1.3.250',
          implementation_version: '7',
          description: `probe test ${name}`,
          ...extra,
        },
      }),
    );
    return `C:\\probe-layers\\${name}.json`;
  };
  // A 32-bit build of the same layer: a 64-bit loader cannot load it (LoadLibrary error 193).
  execFileSync(
    'i686-w64-mingw32-gcc-posix',
    [
      '-shared',
      '-O1',
      `-I${lane.loader.include}`,
      '-DLAYER_NAME="VK_LAYER_STRATA_wrong32"',
      join(APP_ROOT, 'tests', 'fixtures', 'layers', 'recording-layer.c'),
      '-o',
      join(dir, 'wrong32.dll'),
    ],
    { stdio: 'pipe' },
  );
  writeFileSync(
    join(dir, 'wrong32.json'),
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: {
        name: 'VK_LAYER_STRATA_wrong32',
        type: 'GLOBAL',
        library_path: '.\\wrong32.dll',
        api_version: '1.3.250',
        implementation_version: '1',
        description: '32-bit',
      },
    }),
  );
  // A layer that imports a DLL which is not there: LoadLibrary fails although the layer's own file is fine.
  const dep = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'windows', 'strata-dep.c')], 'strata_dep.dll');
  const needsDep = mingwBuild(
    [join(APP_ROOT, 'tests', 'fixtures', 'layers', 'recording-layer.c'), join(APP_ROOT, 'tests', 'fixtures', 'windows', 'needs-dep.c'), dep],
    'needsdep.dll',
    ['-DLAYER_NAME="VK_LAYER_STRATA_needsdep"'],
    { vulkan: true },
  );
  copyFileSync(needsDep, join(dir, 'needsdep.dll'));
  writeFileSync(
    join(dir, 'needsdep.json'),
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: {
        name: 'VK_LAYER_STRATA_needsdep',
        type: 'GLOBAL',
        library_path: '.\\needsdep.dll',
        api_version: '1.3.250',
        implementation_version: '1',
        description: 'needs strata_dep.dll',
      },
    }),
  );
  const on = (name: string) => ({ name, data: 0 });
  registry = {
    [`${HKLM}\\ExplicitLayers`]: [
      on(layer('VK_LAYER_STRATA_b')),
      on(layer('VK_LAYER_STRATA_a')),
      on('C:\\probe-layers\\wrong32.json'),
      on('C:\\probe-layers\\needsdep.json'),
    ],
    [`${HKLM}\\ImplicitLayers`]: [
      on(
        layer('VK_LAYER_STRATA_c', {
          disable_environment: { DISABLE_STRATA_C: '1' },
          instance_extensions: [{ name: 'VK_EXT_debug_utils', spec_version: '2' }],
        }),
      ),
    ],
    'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers': [on(layer('VK_LAYER_STRATA_d'))],
  };
  lane.setKhronosRegistry(registry);
});
after(() => lane?.close());

interface Oracle {
  version: string;
  layers: { name: string; spec: number; impl: number }[];
  extensions: { name: string; specVersion: number }[];
  module: string;
  devices: { apiVersion: string; name: string }[];
}

function parseOracle(out: string): Oracle {
  const o: Oracle = { version: '', layers: [], extensions: [], module: '', devices: [] };
  for (const line of out.split(/\r?\n/)) {
    const [kind, ...rest] = line.split(' ');
    if (kind === 'version') o.version = rest[0]!;
    else if (kind === 'layer') o.layers.push({ name: rest[0]!, spec: Number(rest[1]), impl: Number(rest[2]) });
    else if (kind === 'extension') o.extensions.push({ name: rest[0]!, specVersion: Number(rest[1]) });
    else if (kind === 'module') o.module = rest.join(' ');
    else if (kind === 'device') o.devices.push({ apiVersion: rest[0]!, name: rest.slice(1).join(' ') });
  }
  return o;
}

test(
  'strata info and strata loader show under Wine: the real vulkan-1.dll answers through the probe, and the CLI exits',
  { skip, timeout: 300_000 },
  async () => {
    const t = Date.now();
    const [oracleRun, infoRun, loaderRun, devicesRun] = await Promise.all([
      lane.runAsync(enumerate, []),
      lane.strataAsync(['info', '--json'], {}, { timeoutMs: 120_000 }),
      lane.strataAsync(['loader', 'show', '--json'], {}, { timeoutMs: 120_000 }),
      lane.strataAsync(['device', 'list', '--json'], {}, { timeoutMs: 120_000 }),
    ]);
    process.stderr.write(`windows-probe-vs-loader: the oracle, strata info and strata loader show side by side in ${elapsed(t)} s\n`);
    assert.equal(oracleRun.status, 0, oracleRun.stderr);
    const oracle = parseOracle(oracleRun.stdout);
    assert.equal(oracle.version, '1.4.359', `the oracle did not reach the built loader:\n${oracleRun.stdout}`);
    assert.deepEqual(
      oracle.layers.map((l) => l.name).sort(),
      ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_b', 'VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_needsdep', 'VK_LAYER_STRATA_wrong32'],
      'the registry layers the elevated loader reads (HKCU skipped)',
    );

    // null: the lane's time limit killed it (the CLI did not exit).
    assert.equal(infoRun.status, 0, `strata info --json: ${infoRun.stderr}`);
    const info = AppInfoSchema.parse(JSON.parse(infoRun.stdout));
    assert.equal(info.platform, 'win32');
    assert.ok(info.loader.found, `strata info found no loader: ${JSON.stringify(info.loader)}`);
    assert.equal(info.loader.version, oracle.version);
    assert.equal(info.loader.path?.toLowerCase(), oracle.module.toLowerCase(), 'the probe names the vulkan-1.dll it loaded');

    assert.equal(loaderRun.status, 0, `strata loader show --json: ${loaderRun.stderr}`);
    const loader = LoaderInfoSchema.parse(JSON.parse(loaderRun.stdout));
    assert.equal(loader.version, oracle.version);
    assert.deepEqual(
      loader.layers.map((l) => ({ name: l.name, spec: l.specVersionRaw, impl: l.implementationVersion })),
      oracle.layers,
    );
    assert.deepEqual(loader.extensions, oracle.extensions);
    assert.ok(
      loader.extensions.some((e) => e.name === 'VK_EXT_debug_utils'),
      'the implicit layer adds its instance extension to the list',
    );
    assert.deepEqual(loader.layers.find((l) => l.name === 'VK_LAYER_STRATA_c')?.extensions, [{ name: 'VK_EXT_debug_utils', specVersion: 2 }]);

    // Devices: winevulkan (the prefix's driver, HKLM\…\Drivers) over the host's lavapipe.
    assert.equal(devicesRun.status, 0, `strata device list --json: ${devicesRun.stderr}`);
    const devices = DevicesReportSchema.parse(JSON.parse(devicesRun.stdout));
    assert.ok(oracle.devices.length > 0, `the oracle saw no device:\n${oracleRun.stdout}`);
    assert.deepEqual(
      devices.devices.map((d) => ({ apiVersion: d.apiVersion, name: d.deviceName })),
      oracle.devices,
    );
  },
);

test('strata info (text) under Wine names the loader and exits', { skip, timeout: 180_000 }, () => {
  const r = lane.strata(['info'], {}, { timeoutMs: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Vulkan loader\s+1\.4\.359 \(.*vulkan-1\.dll\)$/m);
});

test(
  'layers inspect under Wine: a layer DLL loaded in the probe, negotiated, and the file it came from; a 32-bit DLL refused from its PE header',
  { skip, timeout: 180_000 },
  () => {
    const r = lane.strata(['layer', 'inspect', '--json', 'VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_wrong32'], {}, { timeoutMs: 120_000 });
    assert.equal(r.status, 1, `one layer fails, so exit 1: ${r.stderr}`);
    assert.ok(r.stdout.trim(), `no report: ${r.stderr}`);
    const report = LayersInspectReportSchema.parse(JSON.parse(r.stdout));
    const byName = new Map(report.layers.map((l) => [l.name, l]));
    const good = byName.get('VK_LAYER_STRATA_a');
    assert.ok(good, `VK_LAYER_STRATA_a is not in the report: ${r.stdout.slice(0, 3000)}`);
    assert.equal(good?.error, null, JSON.stringify(good?.error));
    assert.equal(good?.interfaceVersion, 2);
    assert.equal(good?.library?.toLowerCase(), 'c:\\probe-layers\\vk_layer_strata_a.dll');
    assert.ok(good?.symbols.some((s) => s.symbol === 'vkNegotiateLoaderLayerInterfaceVersion' && s.exported));
    assert.equal(byName.get('VK_LAYER_STRATA_wrong32')?.error?.code, 'layer/wrong-architecture');
  },
);

test('lint under Wine reports the 32-bit layer DLL a 64-bit loader skips', { skip, timeout: 180_000 }, () => {
  const r = lane.strata(['lint', '--json'], {}, { timeoutMs: 120_000 });
  const diagnostics = (JSON.parse(r.stdout) as { diagnostics?: { code: string; file?: string; message: string }[] }[]).flatMap((f) => f.diagnostics ?? []);
  const wrong = diagnostics.filter((d) => /wrong32/.test(JSON.stringify(d)));
  assert.ok(
    wrong.some((d) => d.code === 'library/wrong-class'),
    `no library/wrong-class diagnostic for wrong32.dll: ${JSON.stringify(wrong)}\n${r.stdout.slice(0, 3000)}`,
  );
});

test(
  'layers inspect under Wine: a DLL whose import is missing fails to load; its PE export table still says what it exports, and the loader fails it too',
  { skip, timeout: 180_000 },
  () => {
    const r = lane.strata(['layer', 'inspect', '--json', 'VK_LAYER_STRATA_needsdep'], {}, { timeoutMs: 120_000 });
    assert.equal(r.status, 1, r.stderr);
    const layer = LayersInspectReportSchema.parse(JSON.parse(r.stdout)).layers[0];
    assert.equal(layer?.error?.code, 'layer/load-failed', JSON.stringify(layer?.error));
    assert.match(layer?.error?.message ?? '', /export table, read from the file, lists \d+ functions/);
    assert.match(layer?.error?.fix ?? '', /DLL it imports is missing/);
    // What binutils reads from the same file is the oracle of the export table.
    const dump = execFileSync('x86_64-w64-mingw32-objdump', ['-p', join(lane.driveC, 'probe-layers', 'needsdep.dll')], { encoding: 'utf8' });
    const table = dump.slice(dump.indexOf('[Ordinal/Name Pointer] Table'));
    const exports = new Set([...table.slice(0, table.indexOf('\n\n')).matchAll(/^\s*\[\s*\d+\] (\S+)$/gm)].map((m) => m[1]!));
    assert.ok(exports.has('vkNegotiateLoaderLayerInterfaceVersion'), dump.slice(0, 2000));
    assert.ok(layer && layer.symbols.length > 0);
    for (const s of layer!.symbols) assert.equal(s.exported, exports.has(s.symbol), `${s.symbol}: ${JSON.stringify([...exports])}`);
    // The real loader cannot load it either: enabling it fails.
    const probe = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'layers', 'chain-probe.c')], 'chain-probe.exe', [], { vulkan: true });
    const app = lane.run(probe, ['1.3', 'VK_LAYER_STRATA_needsdep']);
    assert.match(app.stdout, /^create -6$/m, app.stdout); // VK_ERROR_LAYER_NOT_PRESENT
  },
);

test("drivers negotiate under Wine: the registry's driver (winevulkan) loaded alone in a probe of its own and negotiated", { skip, timeout: 180_000 }, () => {
  const r = lane.strata(['driver', 'negotiate', '--json'], {}, { timeoutMs: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const report = DriversNegotiateReportSchema.parse(JSON.parse(r.stdout));
  // What the loader reads: HKLM\…\Drivers (VK_LOADER_DEBUG output compared in windows-discovery-vs-loader).
  assert.deepEqual(
    report.drivers.map((d) => d.manifest),
    ['C:\\windows\\system32\\winevulkan.json'],
  );
  const d = report.drivers[0]!;
  assert.equal(d.ok, true, JSON.stringify(d.error));
  assert.equal(d.createInstanceFound, true);
  // The same handshake in C (tests/fixtures/windows/negotiate-oracle.c) on the same DLL, offered the same version.
  const oracle = mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'windows', 'negotiate-oracle.c')], 'negotiate-oracle.exe');
  const o = lane.run(oracle, [d.library ?? d.libraryPath ?? '', String(d.requestedVersion)]);
  assert.equal(o.status, 0, o.stderr);
  assert.equal(`${d.negotiateResult === 'VK_SUCCESS' ? 0 : d.negotiateResult} ${d.interfaceVersion}`, o.stdout.trim());
});

test(
  'drivers negotiate under Wine: a driver DLL that crashes and one that hangs in vk_icdNegotiateLoaderICDInterfaceVersion are each reported (crashed, timed out) from a probe of their own; the other drivers negotiate normally',
  { skip, timeout: 300_000 },
  () => {
    // tests/fixtures/icd/fake-icd.c, the Linux suite's fake drivers, built as DLLs.
    const dir = join(lane.driveC, 'fake-icds');
    mkdirSync(dir, { recursive: true });
    const manifests: Record<string, string> = {};
    for (const [name, macro] of [
      ['segv', 'FAKE_SEGV'],
      ['hang', 'FAKE_HANG'],
      ['good', 'FAKE_GOOD'],
    ] as const) {
      copyFileSync(mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'icd', 'fake-icd.c')], `fake_${name}.dll`, [`-D${macro}`]), join(dir, `fake_${name}.dll`));
      writeFileSync(
        join(dir, `${name}.json`),
        JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: `.\\fake_${name}.dll`, api_version: '1.3.239' } }),
      );
      manifests[name] = `C:\\fake-icds\\${name}.json`;
    }
    const winevulkan = 'C:\\windows\\system32\\winevulkan.json';
    lane.setKhronosRegistry({
      ...registry,
      [`${HKLM}\\Drivers`]: [winevulkan, manifests['segv']!, manifests['hang']!, manifests['good']!].map((name) => ({ name, data: 0 })),
    });
    try {
      const TIMEOUT_MS = 8000;
      const r = lane.strata(['driver', 'negotiate', '--json', '--timeout', String(TIMEOUT_MS)], {}, { timeoutMs: 240_000 });
      assert.equal(r.status, 1, `a failing driver must make the command exit 1: ${r.stderr}`);
      const report = DriversNegotiateReportSchema.parse(JSON.parse(r.stdout));
      const by = new Map(report.drivers.map((d) => [d.manifest, d]));
      // All four, as the loader finds them (HKLM\…\Drivers): the failures take no other driver with them.
      assert.deepEqual([...by.keys()].sort(), [winevulkan, ...Object.values(manifests)].sort());
      const segv = by.get(manifests['segv']!)!;
      assert.equal(segv.ok, false);
      assert.equal(segv.error?.code, 'driver/crashed', JSON.stringify(segv.error));
      assert.match(segv.error?.message ?? '', /segv\.json \(.*fake_segv\.dll\) crashed the probe during vk_icdNegotiateLoaderICDInterfaceVersion/);
      // An access violation ends a Windows process with its NTSTATUS as the exit code.
      assert.match(segv.error?.message ?? '', /0xC0000005|EXCEPTION_ACCESS_VIOLATION/);
      const hang = by.get(manifests['hang']!)!;
      assert.equal(hang.ok, false);
      assert.equal(hang.error?.code, 'driver/timeout', JSON.stringify(hang.error));
      assert.match(hang.error?.message ?? '', new RegExp(`did not return during vk_icdNegotiateLoaderICDInterfaceVersion within ${TIMEOUT_MS} ms`));
      const good = by.get(manifests['good']!)!;
      assert.deepEqual([good.ok, good.interfaceVersion, good.negotiateResult], [true, 5, 'VK_SUCCESS'], JSON.stringify(good.error));
      const wine = by.get(winevulkan)!;
      assert.equal(wine.ok, true, JSON.stringify(wine.error));
    } finally {
      lane.setKhronosRegistry(registry);
    }
  },
);

test(
  'layers inspect under Wine: a layer DLL that crashes or hangs in vkNegotiateLoaderLayerInterfaceVersion is reported from a probe of its own, one whose DllMain crashes fails to load (as Windows makes it); the good one is inspected as usual',
  { skip, timeout: 300_000 },
  () => {
    // tests/fixtures/layers/fake-layer.c, the Linux suite's fake layers, built as DLLs.
    const dir = join(lane.driveC, 'fake-layers');
    mkdirSync(dir, { recursive: true });
    const names: Record<string, string> = {};
    const values: RegValue[] = [];
    for (const [kind, macro] of [
      ['good', 'FAKE_GOOD'],
      ['ctor_segv', 'FAKE_CTOR_SEGV'],
      ['negotiate_segv', 'FAKE_NEGOTIATE_SEGV'],
      ['negotiate_hang', 'FAKE_NEGOTIATE_HANG'],
    ] as const) {
      const name = `VK_LAYER_STRATA_fake_${kind}`;
      copyFileSync(
        mingwBuild([join(APP_ROOT, 'tests', 'fixtures', 'layers', 'fake-layer.c')], `fake_${kind}.dll`, [`-D${macro}`], { vulkan: true }),
        join(dir, `fake_${kind}.dll`),
      );
      writeFileSync(
        join(dir, `${kind}.json`),
        JSON.stringify({
          file_format_version: '1.1.2',
          layer: { name, type: 'GLOBAL', library_path: `.\\fake_${kind}.dll`, api_version: '1.3.0', implementation_version: '1', description: `fake ${kind}` },
        }),
      );
      names[kind] = name;
      values.push({ name: `C:\\fake-layers\\${kind}.json`, data: 0 });
    }
    const explicit = `${HKLM}\\ExplicitLayers`;
    lane.setKhronosRegistry({ ...registry, [explicit]: [...(registry[explicit] ?? []), ...values] });
    try {
      const TIMEOUT_MS = 8000;
      const r = lane.strata(['layer', 'inspect', '--json', '--timeout', String(TIMEOUT_MS), ...Object.values(names)], {}, { timeoutMs: 240_000 });
      assert.equal(r.status, 1, `a failing layer must make the command exit 1: ${r.stderr}`);
      const report = LayersInspectReportSchema.parse(JSON.parse(r.stdout));
      const by = (kind: string) => report.layers.find((l) => l.name === names[kind]);
      const good = by('good');
      assert.deepEqual([good?.ok, good?.interfaceVersion], [true, 2], JSON.stringify(good?.error));
      // Windows runs DllMain under an exception handler: an access violation there fails LoadLibrary
      // (ERROR_NOACCESS) instead of ending the process, for the loader as for the probe.
      const ctor = by('ctor_segv');
      assert.equal(ctor?.error?.code, 'layer/load-failed', JSON.stringify(ctor));
      assert.match(ctor?.error?.message ?? '', /cannot be loaded: .*memory location/);
      assert.match(ctor?.error?.fix ?? '', /DllMain/);
      // Inside a call the probe makes, it ends the probe: an access violation exits with its NTSTATUS.
      const crashed = by('negotiate_segv');
      assert.equal(crashed?.error?.code, 'layer/crashed', JSON.stringify(crashed));
      assert.match(crashed?.error?.message ?? '', /during vkNegotiateLoaderLayerInterfaceVersion.*(0xC0000005|EXCEPTION_ACCESS_VIOLATION)/);
      const hang = by('negotiate_hang');
      assert.equal(hang?.error?.code, 'layer/timeout', JSON.stringify(hang));
      assert.match(hang?.error?.message ?? '', new RegExp(`during vkNegotiateLoaderLayerInterfaceVersion within ${TIMEOUT_MS} ms`));
    } finally {
      lane.setKhronosRegistry(registry);
    }
  },
);
