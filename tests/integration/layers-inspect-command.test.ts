import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { buildFakeLayers, type FakeLayers } from '../helpers/fake-layers';
import { runStrata } from '../helpers/strata-cli';
import { LayersInspectReportSchema } from '../../shared/vulkan/layer-inspection';

/**
 * main/hosts/cli/layers-inspect-command.ts and the table of main/hosts/cli/layers-inspect-format.ts: `strata
 * layer inspect` as a user runs it (bin/strata) over gcc-built fake layers, with --env, --json,
 * exit 1 on a failing or unknown layer, 2 on a bad option. What each layer negotiates is
 * tests/integration/layer-inspect-service.test.ts.
 */
const TIMEOUT_MS = 2000;

let home: TempHome;
let fakes: FakeLayers;

before(() => {
  home = makeTempHome();
  fakes = buildFakeLayers(home.dir);
});
after(() => home?.cleanup());

test('strata layer inspect: a table with --env, --json, exit 1 on a failing layer, 2 on a bad --env', () => {
  const env = ['--env', `VK_LAYER_PATH=${fakes.manifestDir}`, '--env', `LD_LIBRARY_PATH=${fakes.libDir}`];
  const bad = runStrata(['layer', 'inspect', '--timeout', String(TIMEOUT_MS), ...env, fakes.names.good, fakes.names['negotiate-segv']], home.env);
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stdout, /LAYER\s+TYPE\s+LIBRARY\s+EXPORTS\s+INTERFACE\s+RESULT/);
  assert.match(bad.stdout, /VK_LAYER_STRATA_fake_good\s+explicit\s+\S+libfake_layer_good\.so\s+negotiate .*\s+2\s+ok, 1 warning/);
  assert.match(
    bad.stdout,
    /Problems:\n\s+Layer VK_LAYER_STRATA_fake_negotiate_segv \(fake_negotiate-segv\.json\) \[.*\] crashed the probe during vkNegotiateLoaderLayerInterfaceVersion: killed by SIGSEGV/,
  );

  const good = runStrata(['layer', 'inspect', '--json', ...env, fakes.names.v1], home.env);
  assert.equal(good.status, 0, good.stderr);
  assert.deepEqual(
    LayersInspectReportSchema.parse(JSON.parse(good.stdout)).layers.map((l) => [l.name, l.interfaceVersion]),
    [[fakes.names.v1, 1]],
  );

  const unknown = runStrata(['layer', 'inspect', 'VK_LAYER_STRATA_nope'], home.env);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stdout, /No discovered layer manifest defines VK_LAYER_STRATA_nope/);

  const usage = runStrata(['layer', 'inspect', '--env', 'not valid'], home.env);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /^strata: .*NAME=VALUE.*Fix: see `strata layer --help`/);
});
