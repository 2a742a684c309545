import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { formatDevices, formatDriverNegotiation, formatLoaderInfo } from '../../main/hosts/cli/vulkan-commands';
import { createServiceContext, type ServiceContext } from '../../main/hosts/service-context';
import { findAppRoot } from '../../main/platform/app-paths';
import type { DevicesReport } from '../../shared/vulkan/devices';
import type { DriversNegotiateReport } from '../../shared/vulkan/driver-negotiation';
import type { LoaderInfo } from '../../shared/vulkan/loader-info';
import { parseVulkaninfoSummary, runVulkaninfo } from '../helpers/real-vulkan';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/vulkan-commands.ts: the human forms of `strata loader show`, `strata device list` and
 * `strata driver negotiate`, over the real loader and Mesa's lavapipe (the answers come from the
 * real probe; vulkaninfo --summary is the oracle for what the table shows).
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
let home: TempHome;
let ctx: ServiceContext;

before(() => {
  home = makeTempHome({ VK_DRIVER_FILES: LAVAPIPE });
  ctx = createServiceContext({ root: findAppRoot(), env: home.env });
});
after(() => {
  ctx?.dispose();
  home?.cleanup();
});

async function call<T>(channel: string, request: unknown): Promise<T> {
  const r = await ctx.router.call(channel, request, { host: 'cli' });
  assert.ok(r.ok, JSON.stringify(r));
  return r.value as T;
}

test('loader show: the version and the file, then every instance layer and extension as the loader lists them', async () => {
  const info = await call<LoaderInfo>('loader.info', {});
  const text = formatLoaderInfo(info);
  const summary = parseVulkaninfoSummary(runVulkaninfo(['--summary'], home.env));
  assert.match(text.split('\n')[0]!, new RegExp(`^Vulkan loader  ${summary.instanceVersion.replace(/\./g, '\\.')} \\(.*libvulkan\\.so\\.1[.\\d]*\\)$`));
  assert.match(text, new RegExp(`^Instance layers: ${info.layers.length}$`, 'm'));
  for (const l of info.layers) assert.match(text, new RegExp(`^ *${l.name} +${l.specVersion.replace(/\./g, '\\.')} +${l.implementationVersion} `, 'm'));
  assert.match(text, new RegExp(`^Instance extensions: ${info.extensions.length}$`, 'm'));
  assert.ok(info.extensions.length > 0);
  for (const e of info.extensions) assert.match(text, new RegExp(`^ *${e.name} +${e.specVersion}$`, 'm'));
  assert.doesNotMatch(text, /Loader log/, 'no VK_LOADER_DEBUG, no log');
  const withLog = formatLoaderInfo({ ...info, loaderLog: ['INFO: one', 'DEBUG: two'] });
  assert.ok(withLog.endsWith('\n\nLoader log (VK_LOADER_DEBUG), 2 lines:\n  INFO: one\n  DEBUG: two'));
});

test('device list: lavapipe with its manifest, driver, heaps and queues; no device says why', async () => {
  const report = await call<DevicesReport>('devices.list', {});
  const text = formatDevices(report);
  const summary = parseVulkaninfoSummary(runVulkaninfo(['--summary'], home.env));
  assert.equal(report.devices.length, summary.devices.length);
  assert.match(text, new RegExp(`^GPU0 +${summary.devices[0]!['deviceName']!.replace(/[()]/g, '\\$&')}$`, 'm'));
  assert.match(text, /^  type +cpu$/m);
  assert.match(text, new RegExp(`^  manifest +${LAVAPIPE.replace(/\./g, '\\.')}$`, 'm'));
  assert.match(text, /^  driver +llvmpipe \(MESA_LLVMPIPE\)$/m);
  assert.match(text, /^  vendorID +0x10005 \(Mesa\)$/m);
  // Sizes in binary units: the number printed times its unit is the heap's size in bytes.
  const heaps = /^  memory heaps +(.*)$/m.exec(text)![1]!.split('; ');
  assert.equal(heaps.length, report.devices[0]!.memoryHeaps.length);
  heaps.forEach((h, i) => {
    const [, n, unit] = /^(\d+(?:\.\d)?) (B|KiB|MiB|GiB|TiB)/.exec(h)!;
    const bytes = Number(n) * 1024 ** ['B', 'KiB', 'MiB', 'GiB', 'TiB'].indexOf(unit!);
    const size = report.devices[0]!.memoryHeaps[i]!.size;
    assert.ok(Math.abs(bytes - size) <= size * 0.05, `${h} is not ${size} bytes`);
  });
  assert.match(heaps[0]!, /\[device-local\]$/);
  assert.match(text, /^  queue families +\d+× graphics\+compute\+transfer$/m);
  assert.match(text, /\n\nDriver manifests \(in the loader's order\):\n *MANIFEST +DEVICES +ALONE +NOTE\n/);

  const none: DevicesReport = { ...report, devices: [], driverManifests: null };
  assert.equal(formatDevices(none), 'The Vulkan loader enumerates no physical devices (no driver loaded, or none has a device).');
});

test('driver negotiate: lavapipe negotiates, the table says with what; none found names where it looked', async () => {
  const report = await call<DriversNegotiateReport>('drivers.negotiate', { manifests: [LAVAPIPE], timeoutMs: 20_000 });
  const text = formatDriverNegotiation(report);
  assert.equal(text.split('\n')[0], `Loader–driver interface version offered: ${report.loaderInterfaceVersion} (manifests from request)`);
  assert.match(
    text,
    new RegExp(`^ *lvp_icd\\.x86_64\\.json +\\S*libvulkan_lvp\\.so +negotiate,icdGIPA,icdGPDPA\\S* +${report.drivers[0]!.interfaceVersion} +ok +\\d+ ms$`, 'm'),
  );
  assert.doesNotMatch(text, /Problems:/);
  assert.equal(formatDriverNegotiation({ ...report, source: 'default-folders', drivers: [] }), 'No driver manifests found (default-folders).');
});
