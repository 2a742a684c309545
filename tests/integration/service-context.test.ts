import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServiceContext, probeTimeoutMs } from '../../main/hosts/service-context';
import { findAppRoot } from '../../main/platform/app-paths';
import type { EnvSummary } from '../../shared/loader/environment-summary';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/hosts/service-context.ts: what every host wires the same way. The router answers for the
 * environment the host was given (not this process's), the version is package.json's, the launch
 * service is made once, on first use, in that environment's state folder, and dispose stops what
 * was launched from it.
 */
const root = findAppRoot();

test("the router answers for the given environment; the version is package.json's", async () => {
  const home = makeTempHome({ VK_DRIVER_FILES: '/nowhere/icd.json' });
  const ctx = createServiceContext({ root, env: home.env });
  try {
    assert.equal(ctx.root, root);
    assert.equal(ctx.version, (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
    const result = await ctx.router.call('env.summary', {}, { host: 'cli' });
    assert.ok(result.ok, JSON.stringify(result));
    const summary = result.value as EnvSummary;
    assert.deepEqual(
      summary.variables.filter((v) => v.name.startsWith('VK_')).map((v) => [v.name, v.value]),
      [['VK_DRIVER_FILES', '/nowhere/icd.json']],
    );
    assert.equal(summary.xdg?.dataHome.value, home.env['XDG_DATA_HOME']);
  } finally {
    ctx.dispose();
    home.cleanup();
  }
});

test('sessions(): one service, made on first use, in the given environment; dispose stops its launches', async () => {
  const home = makeTempHome();
  const ctx = createServiceContext({ root, env: home.env });
  try {
    const first = ctx.sessions();
    assert.equal(ctx.sessions(), first, 'the same promise: one service for every host in the process');
    const service = await first;
    assert.equal(service.dir, join(home.env['XDG_STATE_HOME']!, 'strata', 'sessions'));
    const running = await service.start({ command: '/bin/sh', args: ['-c', 'sleep 30'], cwd: home.dir, routeValidation: false });
    ctx.dispose();
    const footer = await running.ended;
    assert.equal(footer.exit.reason, 'stopped');
  } finally {
    ctx.dispose();
    home.cleanup();
  }
});

test('STRATA_PROBE_TIMEOUT_MS: whole milliseconds from 1000 to 600000 raise the probe limit; anything else is ignored', () => {
  assert.equal(probeTimeoutMs({}), undefined);
  assert.equal(probeTimeoutMs({ STRATA_PROBE_TIMEOUT_MS: '30000' }), 30_000);
  assert.equal(probeTimeoutMs({ STRATA_PROBE_TIMEOUT_MS: '1000' }), 1000);
  for (const bad of ['999', '600001', '5e3', '-1', '30 s', ''])
    assert.equal(probeTimeoutMs({ STRATA_PROBE_TIMEOUT_MS: bad }), undefined, `"${bad}" is not a limit`);
});
