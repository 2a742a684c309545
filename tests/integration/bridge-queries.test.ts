/**
 * The probe's Vulkan queries against the real loader and Mesa lavapipe, with vulkaninfo (run in the
 * same environment) as the oracle. VK_DRIVER_FILES names only lavapipe's manifest, so the machine's
 * other drivers (radv, anv, a real GPU) cannot change the answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { parseVulkaninfoSummary, runVulkaninfo } from '../helpers/real-vulkan';
import { runStrata } from '../helpers/strata-cli';
import { createAppContext } from '../../main/hosts/app-context';
import { findAppRoot } from '../../main/platform/app-paths';
import { DevicesReportSchema } from '../../shared/vulkan/devices';
import { LoaderInfoSchema } from '../../shared/vulkan/loader-info';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

function lavapipeHome() {
  return makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
}

/** The Vulkan Profiles JSON that `vulkaninfo --json` writes for GPU0 (raw numbers, extensions, queue families). */
function vulkaninfoProfile(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), 'strata-vulkaninfo-'));
  try {
    runVulkaninfo(['--json'], env, dir);
    const file = readdirSync(dir).find((f) => f.endsWith('.json'));
    assert.ok(file, 'vulkaninfo --json wrote a profile');
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      capabilities: Record<
        string,
        {
          extensions: Record<string, number>;
          properties: Record<string, Record<string, unknown>>;
          queueFamiliesProperties: { VkQueueFamilyProperties: { queueCount: number; queueFlags: string[] } }[];
        }
      >;
    };
    const caps = Object.values(doc.capabilities)[0]!;
    return caps;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('strata device list --json agrees with vulkaninfo --summary and --json on lavapipe', () => {
  const home = lavapipeHome();
  try {
    const r = runStrata(['device', 'list', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const report = DevicesReportSchema.parse(JSON.parse(r.stdout));
    const summary = parseVulkaninfoSummary(runVulkaninfo(['--summary'], home.env));
    assert.equal(report.devices.length, summary.devices.length, 'same number of devices');
    assert.equal(report.devices.length, 1, 'VK_DRIVER_FILES leaves lavapipe alone');
    assert.ok(report.enabledExtensions.includes('VK_KHR_portability_enumeration'), 'the 1.3.239 loader offers portability enumeration');

    const d = report.devices[0]!;
    const v = summary.devices[0]!;
    assert.equal(d.deviceName, v['deviceName']);
    assert.equal(d.apiVersion, v['apiVersion']);
    assert.equal(d.driverVersion, v['driverVersion']);
    assert.equal(d.vendorID, Number(v['vendorID']));
    assert.equal(d.deviceID, Number(v['deviceID']));
    assert.equal(`PHYSICAL_DEVICE_TYPE_${d.deviceType.toUpperCase().replace('-', '_')}`, v['deviceType']);
    assert.ok(d.driver, 'lavapipe is Vulkan 1.3: driver properties are read');
    assert.equal(`DRIVER_ID_${d.driver.driverIDName}`, v['driverID']);
    assert.equal(d.driver.driverName, v['driverName']);
    assert.equal(d.driver.driverInfo, v['driverInfo']);
    assert.equal(d.driver.conformanceVersion, v['conformanceVersion']);

    // Raw numbers, the UUID, extensions and queue families from the profile JSON.
    const profile = vulkaninfoProfile(home.env);
    const props = profile.properties['VkPhysicalDeviceProperties']!;
    assert.equal(d.apiVersionRaw, props['apiVersion']);
    assert.equal(d.driverVersionRaw, props['driverVersion']);
    assert.equal(d.pipelineCacheUUID, Buffer.from(props['pipelineCacheUUID'] as number[]).toString('hex'));
    assert.deepEqual(
      Object.fromEntries(d.extensions.map((e) => [e.name, e.specVersion]).sort(([a], [b]) => String(a).localeCompare(String(b)))),
      Object.fromEntries(Object.entries(profile.extensions).sort(([a], [b]) => a.localeCompare(b))),
    );
    assert.deepEqual(
      d.queueFamilies.map((q) => ({ count: q.count, flags: q.flags.map((f) => `VK_QUEUE_${f.toUpperCase().replace(/-/g, '_')}_BIT`) })),
      profile.queueFamiliesProperties.map((q) => ({ count: q.VkQueueFamilyProperties.queueCount, flags: q.VkQueueFamilyProperties.queueFlags })),
    );

    // Memory heaps from the text report ("size = 2147483648 (0x80000000) (2.00 GiB)").
    const text = runVulkaninfo(['--text'], home.env);
    const heapSizes = [...text.matchAll(/memoryHeaps\[\d+\]:\n\s+size\s+= (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      d.memoryHeaps.map((h) => h.size),
      heapSizes,
    );
  } finally {
    home.cleanup();
  }
});

test('strata device list (human form) names the device, its driver and its versions', () => {
  const home = lavapipeHome();
  try {
    const r = runStrata(['device', 'list'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const v = parseVulkaninfoSummary(runVulkaninfo(['--summary'], home.env)).devices[0]!;
    assert.match(r.stdout, new RegExp(`^GPU0\\s+${v['deviceName']!.replace(/[()]/g, '\\$&')}$`, 'm'));
    assert.match(r.stdout, new RegExp(`^\\s+driverVersion\\s+${v['driverVersion']!.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(r.stdout, /^\s+driver\s+llvmpipe \(MESA_LLVMPIPE\)$/m);
  } finally {
    home.cleanup();
  }
});

test('strata loader show --json agrees with vulkaninfo --summary: instance version, layers, instance extensions', () => {
  const home = lavapipeHome();
  try {
    const r = runStrata(['loader', 'show', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const info = LoaderInfoSchema.parse(JSON.parse(r.stdout));
    const summary = parseVulkaninfoSummary(runVulkaninfo(['--summary'], home.env));
    assert.equal(info.version, summary.instanceVersion);
    assert.deepEqual(
      info.layers
        .map((l) => ({ name: l.name, description: l.description, specVersion: l.specVersion, implementationVersion: l.implementationVersion }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      [...summary.layers].sort((a, b) => a.name.localeCompare(b.name)),
    );
    assert.ok(info.layers.length > 0, 'Debian installs at least the Mesa device-select layer');
    assert.deepEqual(
      info.extensions.map((e) => ({ name: e.name, revision: e.specVersion })).sort((a, b) => a.name.localeCompare(b.name)),
      [...summary.instanceExtensions].sort((a, b) => a.name.localeCompare(b.name)),
    );
  } finally {
    home.cleanup();
  }
});

test('a request with env gets a probe started with that environment; without it, the default one', async () => {
  // The app's own environment has a broken VK_DRIVER_FILES and no user layers; the request's env
  // fixes the driver and adds an explicit layer under XDG_DATA_HOME.
  const home = makeTempHome({ VK_DRIVER_FILES: join(tmpdir(), 'strata-no-such-icd.json') });
  const dataHome = join(home.dir, 'alt-data');
  const layerDir = join(dataHome, 'vulkan', 'explicit_layer.d');
  mkdirSync(layerDir, { recursive: true });
  writeFileSync(
    join(layerDir, 'strata_test_layer.json'),
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: {
        name: 'VK_LAYER_STRATA_env_probe',
        type: 'GLOBAL',
        library_path: './libnot-there.so',
        api_version: '1.3.200',
        implementation_version: '7',
        description: 'Strata env test',
      },
    }),
  );
  const ctx = createAppContext({ root: findAppRoot(), env: home.env });
  try {
    const broken = await ctx.router.call('devices.list', {}, { host: 'cli' });
    assert.equal(broken.ok, false);
    assert.equal(!broken.ok && broken.error.code, 'vulkan/incompatible-driver', JSON.stringify(broken));
    assert.match(!broken.ok ? (broken.error.fix ?? '') : '', /VK_LOADER_DEBUG=driver/);

    const fixed = await ctx.router.call('devices.list', { env: { VK_DRIVER_FILES: LAVAPIPE } }, { host: 'cli' });
    assert.ok(fixed.ok, JSON.stringify(fixed));
    assert.deepEqual(
      DevicesReportSchema.parse(fixed.value).devices.map((d) => d.driver?.driverName),
      ['llvmpipe'],
    );

    const withLayer = await ctx.router.call('loader.info', { env: { XDG_DATA_HOME: dataHome } }, { host: 'cli' });
    assert.ok(withLayer.ok, JSON.stringify(withLayer));
    const layer = LoaderInfoSchema.parse(withLayer.value).layers.find((l) => l.name === 'VK_LAYER_STRATA_env_probe');
    assert.deepEqual(layer && { specVersion: layer.specVersion, implementationVersion: layer.implementationVersion, description: layer.description }, {
      specVersion: '1.3.200',
      implementationVersion: 7,
      description: 'Strata env test',
    });
    const without = await ctx.router.call('loader.info', {}, { host: 'cli' });
    assert.ok(without.ok, JSON.stringify(without));
    assert.ok(!LoaderInfoSchema.parse(without.value).layers.some((l) => l.name === 'VK_LAYER_STRATA_env_probe'), 'the default probe does not see it');

    const badName = await ctx.router.call('devices.list', { env: { 'NOT VALID': 'x' } }, { host: 'cli' });
    assert.equal(!badName.ok && badName.error.code, 'ipc/invalid-request');
  } finally {
    ctx.dispose();
    home.cleanup();
  }
});
