/**
 * Each device names the driver manifest it came from. With two copies of lavapipe's manifest the
 * real loader loads lavapipe twice and lists its device twice (vulkaninfo is the oracle for the
 * count); Strata must give one device to each copy, not both to the first.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../main/hosts/app-context';
import { findAppRoot } from '../../main/platform/app-paths';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { parseVulkaninfoSummary, runVulkaninfo } from '../helpers/real-vulkan';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { DevicesReportSchema } from '../../shared/vulkan/devices';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

let home: TempHome;
let ctx: AppContext;
let copies: [string, string];

before(() => {
  home = makeTempHome();
  copies = [join(home.dir, 'lvp-a.json'), join(home.dir, 'lvp-b.json')];
  for (const c of copies) copyFileSync(LAVAPIPE, c);
  ctx = createAppContext({ root: findAppRoot(), env: { ...home.env, VK_DRIVER_FILES: LAVAPIPE } });
});
after(() => {
  ctx?.dispose();
  home?.cleanup();
});

async function devices(request: object) {
  const r = await ctx.router.call('devices.list', request, { host: 'cli' });
  assert.ok(r.ok, JSON.stringify(r));
  return DevicesReportSchema.parse(r.value);
}

test('one lavapipe manifest: its device is its own, uniquely', async () => {
  const report = await devices({});
  assert.deepEqual(
    report.devices.map((d) => d.origin),
    [{ manifest: LAVAPIPE, match: 'unique', candidates: [LAVAPIPE] }],
  );
  assert.deepEqual(report.driverManifests, [{ manifest: LAVAPIPE, deviceCount: 1, error: null }]);
});

test('two copies of the lavapipe manifest: two devices as vulkaninfo shows, one per copy', async () => {
  const env = { VK_DRIVER_FILES: copies.join(':') };
  const report = await devices({ env });
  const vulkaninfo = parseVulkaninfoSummary(runVulkaninfo(['--summary'], { ...home.env, ...env }));
  assert.equal(report.devices.length, vulkaninfo.devices.length);
  assert.equal(report.devices.length, 2, 'the loader loads each copy');
  assert.deepEqual(report.devices.map((d) => d.origin?.manifest).sort(), [...copies].sort(), 'one device each, not both to the first');
  for (const d of report.devices) assert.deepEqual([d.origin?.match, d.origin?.candidates], ['by-order', copies]);
  assert.deepEqual(
    report.driverManifests?.map((m) => [m.manifest, m.deviceCount]),
    copies.map((c) => [c, 1]),
  );

  const cli = runStrata(['device', 'list', '--env', `VK_DRIVER_FILES=${copies.join(':')}`], home.env);
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /^\s+manifest\s+\S+lvp-a\.json \(or \S+lvp-b\.json: identical devices, told apart by order only\)$/m);
  assert.match(
    cli.stdout,
    /Driver manifests \(in the loader's order\):\n\s+MANIFEST\s+DEVICES\s+ALONE\s+NOTE\n\s+\S+lvp-a\.json\s+1\s+1\n\s+\S+lvp-b\.json\s+1\s+1/,
  );
});

test('origins: false skips the per-driver pass', async () => {
  const report = await devices({ origins: false });
  assert.equal(report.driverManifests, null);
  assert.deepEqual(
    report.devices.map((d) => d.origin),
    [null],
  );
});

test('a driver that crashes the loader: devices fails with an error that names that driver', async () => {
  const lib = join(home.dir, 'libfake_segv.so');
  execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-D', 'FAKE_SEGV', join(APP_ROOT, 'tests', 'fixtures', 'icd', 'fake-icd.c'), '-o', lib], { stdio: 'pipe' });
  const manifest = join(home.dir, 'segv.json');
  writeFileSync(manifest, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: lib, api_version: '1.3.239' } }));
  const r = await ctx.router.call('devices.list', { env: { VK_DRIVER_FILES: `${LAVAPIPE}:${manifest}` } }, { host: 'cli' });
  assert.equal(r.ok, false);
  const error = !r.ok ? r.error : null;
  assert.equal(error?.code, 'bridge/crashed');
  assert.match(error?.message ?? '', new RegExp(`Loaded alone, this driver does the same: ${manifest.replace(/[.]/g, '\\.')} \\(killed by SIGSEGV\\)`));
  assert.equal(error?.where, manifest);
  // The app's own probe is untouched, and the environment's probe starts afresh next time.
  assert.ok((await ctx.router.call('devices.list', {}, { host: 'cli' })).ok);
});
