import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { buildFakeIcds, type FakeIcds } from '../helpers/fake-icds';
import { runStrata } from '../helpers/strata-cli';
import { DriversNegotiateReportSchema } from '../../shared/vulkan/driver-negotiation';

/**
 * main/hosts/cli/drivers-command.ts: `strata driver negotiate` as a user runs it (bin/strata, the built
 * CLI) over gcc-built fake drivers: the table, --json, exit 1 when a driver fails, 2 on a bad option.
 * What each driver negotiates is tests/integration/driver-negotiation-service.test.ts.
 */
const TIMEOUT_MS = 3000;

let home: TempHome;
let fakes: FakeIcds;

before(() => {
  home = makeTempHome();
  fakes = buildFakeIcds(home.dir);
});
after(() => home?.cleanup());

test('strata driver negotiate: a table, --json, exit 1 when a driver fails and 0 when none does', () => {
  const m = fakes.manifests;
  const bad = runStrata(['driver', 'negotiate', '--timeout', String(TIMEOUT_MS), m.good, m.segv], home.env);
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stdout, /DRIVER\s+LIBRARY\s+EXPORTS\s+INTERFACE\s+RESULT/);
  assert.match(bad.stdout, /good\.json\s+\S+libfake_good\.so\s+negotiate,icdGIPA,icdGPDPA\s+5\s+ok/);
  assert.match(bad.stdout, /segv\.json\s+\S+libfake_segv\.so\s+—\s+—\s+driver\/crashed/);
  assert.match(
    bad.stdout,
    /Problems:\n\s+Driver segv\.json \(.*libfake_segv\.so\) crashed the probe during vk_icdNegotiateLoaderICDInterfaceVersion: killed by SIGSEGV/,
  );

  const good = runStrata(['driver', 'negotiate', '--json', m.good], home.env);
  assert.equal(good.status, 0, good.stderr);
  const report = DriversNegotiateReportSchema.parse(JSON.parse(good.stdout));
  assert.deepEqual(
    report.drivers.map((d) => [d.ok, d.interfaceVersion]),
    [[true, 5]],
  );

  const usage = runStrata(['driver', 'negotiate', '--timeout', 'soon'], home.env);
  assert.equal(usage.status, 2);
});
