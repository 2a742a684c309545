import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callChannel, CliFailure } from '../../main/hosts/cli/cli-channel';
import { EXIT } from '../../main/hosts/cli/cli-output';
import type { RequestOf } from '../../shared/ipc/contract';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/cli-channel.ts: one channel through the real router as the CLI host does it, in this
 * process's environment (here a temporary HOME put into process.env, as bin/strata would inherit
 * it): the answer; an error value as a CliFailure with exit 1; the probe channels through the probe
 * started early (their answer the real loader's, as vulkaninfo reports it).
 */
let home: TempHome;
const saved = { ...process.env };

before(() => {
  home = makeTempHome({ VK_LOADER_LAYERS_ENABLE: '*strata_cli_channel_test' });
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, home.env);
});
after(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
  home.cleanup();
});

test("the answer, for this process's environment", async () => {
  const summary = await callChannel('env.summary', {});
  assert.deepEqual(
    summary.variables.map((v) => [v.name, v.value]),
    [['VK_LOADER_LAYERS_ENABLE', '*strata_cli_channel_test']],
  );
  assert.equal(summary.xdg?.stateHome.value, home.env['XDG_STATE_HOME']);
});

test('an error value ends the command: a CliFailure with exit 1 and the error as the service gave it', async () => {
  await assert.rejects(callChannel('sessions.open', { id: 'no-such-session' }), (e) => {
    assert.ok(e instanceof CliFailure);
    assert.equal(e.exitCode, EXIT.problems);
    assert.equal(e.error.code, 'sessions/not-found');
    assert.match(e.error.fix ?? '', /strata session(s)? list/);
    return true;
  });
  await assert.rejects(
    callChannel('sessions.open', { id: '' } as RequestOf<'sessions.open'>),
    (e) => e instanceof CliFailure && e.error.code === 'ipc/invalid-request',
  );
});

test('loader.info goes to the probe started early, and answers what the real loader says', async () => {
  const info = await callChannel('loader.info', {});
  assert.equal(info.version, vulkaninfoInstanceVersion(home.env));
  assert.match(info.path ?? '', /libvulkan\.so\.1/);
});
