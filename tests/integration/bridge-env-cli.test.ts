/**
 * `--env K=V` on the probe commands (strata loader show, devices, drivers negotiate; layers inspect has
 * its own test): the variables reach the probe per request, on top of the environment Strata runs
 * in, and `K=` removes one. Strata's own environment here names a driver manifest that does not
 * exist, so only the request's environment can make a device appear.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { DevicesReportSchema } from '../../shared/vulkan/devices';
import { LoaderInfoSchema } from '../../shared/vulkan/loader-info';
import { DriversNegotiateReportSchema } from '../../shared/vulkan/driver-negotiation';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

let home: TempHome;
let layerDir: string;

before(() => {
  home = makeTempHome();
  home.env['VK_DRIVER_FILES'] = join(home.dir, 'no-such-icd.json');
  layerDir = join(home.dir, 'layers');
  mkdirSync(layerDir);
  writeFileSync(
    join(layerDir, 'env_probe.json'),
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: {
        name: 'VK_LAYER_STRATA_env_cli',
        type: 'GLOBAL',
        library_path: './libnot-there.so',
        api_version: '1.3.200',
        implementation_version: '3',
        description: 'Strata --env test',
      },
    }),
  );
});
after(() => home?.cleanup());

test("strata device list --env VK_DRIVER_FILES=… finds the device that Strata's own environment cannot", () => {
  const broken = runStrata(['device', 'list', '--json'], home.env);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /^strata: vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER .*\. Fix: .*VK_LOADER_DEBUG=driver/);

  const fixed = runStrata(['device', 'list', '--json', '--env', `VK_DRIVER_FILES=${LAVAPIPE}`], home.env);
  assert.equal(fixed.status, 0, fixed.stderr);
  const report = DevicesReportSchema.parse(JSON.parse(fixed.stdout));
  assert.deepEqual(
    report.devices.map((d) => [d.driver?.driverName, d.origin?.manifest]),
    [['llvmpipe', LAVAPIPE]],
  );
});

test('strata loader show --env VK_LAYER_PATH=… shows a layer only in that environment', () => {
  const withLayer = runStrata(['loader', 'show', '--json', '--env', `VK_LAYER_PATH=${layerDir}`, '--env', `VK_DRIVER_FILES=${LAVAPIPE}`], home.env);
  assert.equal(withLayer.status, 0, withLayer.stderr);
  const layer = LoaderInfoSchema.parse(JSON.parse(withLayer.stdout)).layers.find((l) => l.name === 'VK_LAYER_STRATA_env_cli');
  assert.deepEqual(layer && [layer.specVersion, layer.implementationVersion], ['1.3.200', 3]);
  const without = runStrata(['loader', 'show', '--json'], home.env);
  assert.equal(without.status, 0, without.stderr);
  assert.ok(!LoaderInfoSchema.parse(JSON.parse(without.stdout)).layers.some((l) => l.name === 'VK_LAYER_STRATA_env_cli'));
});

test('strata driver negotiate --env: the manifest list and the probes follow the request; K= unsets', () => {
  const set = runStrata(['driver', 'negotiate', '--json', '--env', `VK_DRIVER_FILES=${LAVAPIPE}`], home.env);
  assert.equal(set.status, 0, set.stderr);
  const report = DriversNegotiateReportSchema.parse(JSON.parse(set.stdout));
  assert.equal(report.source, 'VK_DRIVER_FILES');
  assert.deepEqual(
    report.drivers.map((d) => [d.manifest, d.ok]),
    [[LAVAPIPE, true]],
  );

  // Unset: the loader's default folders, where Debian's lavapipe manifest lives.
  const unset = runStrata(['driver', 'negotiate', '--json', '--unset', 'VK_DRIVER_FILES'], home.env);
  const defaults = DriversNegotiateReportSchema.parse(JSON.parse(unset.stdout));
  assert.equal(defaults.source, 'default-folders');
  assert.ok(
    defaults.drivers.some((d) => d.manifest === LAVAPIPE && d.ok),
    unset.stdout,
  );
});

test('a malformed --env is a usage error (exit 2, one line)', () => {
  for (const args of [
    ['device', 'list', '--env', '=x'],
    ['loader', 'show', '--env', 'NO_EQUALS'],
    ['driver', 'negotiate', '--env', 'BAD NAME=1'],
  ]) {
    const r = runStrata(args, home.env);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^strata: .*NAME=VALUE.*\. Fix: see `strata .*--help`\n$/);
  }
});

test("strata loader show --env VK_LOADER_DEBUG=driver brings the loader's own log back with the answer", () => {
  const r = runStrata(['loader', 'show', '--json', '--env', 'VK_LOADER_DEBUG=driver', '--env', `VK_DRIVER_FILES=${LAVAPIPE}`], home.env);
  assert.equal(r.status, 0, r.stderr);
  const log = LoaderInfoSchema.parse(JSON.parse(r.stdout)).loaderLog ?? [];
  assert.ok(
    log.some((l) => l.includes(LAVAPIPE)),
    `the loader names the driver manifest it read:\n${log.join('\n')}`,
  );
  assert.ok(!log.some((l) => l.startsWith('strata-driver-stage')), "the probe's own stage lines are not the loader's");
  const human = runStrata(['loader', 'show', '--env', 'VK_LOADER_DEBUG=driver', '--env', `VK_DRIVER_FILES=${LAVAPIPE}`], home.env);
  assert.match(human.stdout, /\n\nLoader log \(VK_LOADER_DEBUG\), \d+ lines?:\n  /);
  assert.equal(LoaderInfoSchema.parse(JSON.parse(runStrata(['loader', 'show', '--json'], home.env).stdout)).loaderLog, undefined, 'no log unless asked');
});
