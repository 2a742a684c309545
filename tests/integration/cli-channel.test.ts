import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { adoptEarlyProbe, callChannel, CliFailure, oneShotLauncher, releaseEarlyProbe } from '../../main/hosts/cli/cli-channel';
import { prelaunchProbe } from '../../main/bridge/probe-prelaunch';
import { childProcessLauncher, type ProbeExit, type ProbeLauncher, type ProbeProcess } from '../../main/bridge/probe-transport';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { EXIT } from '../../main/hosts/cli/cli-output';
import type { RequestOf } from '../../shared/ipc/contract';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/cli-channel.ts: one channel through the real router as the CLI host does it, in this
 * process's environment (here a temporary HOME put into process.env, as bin/strata would inherit
 * it): the answer; an error value as a CliFailure with exit 1; the probe channels through the probe
 * started early (their answer the real loader's, as vulkaninfo reports it); a probe bin/strata
 * started before the CLI loaded (early-probe.ts) is the one a probe channel asks, and is stopped
 * when no call asks it.
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

/** A probe started as bin/strata starts it, through a launcher that keeps every process it starts; `ahead` as bin/strata sends for `loader show`. */
function earlyProbe(ahead: { method: string } | null = null) {
  const started: ProbeProcess[] = [];
  const base: ProbeLauncher = {
    kind: childProcessLauncher.kind,
    launch(spec) {
      const child = childProcessLauncher.launch(spec);
      started.push(child);
      return child;
    },
  };
  const root = findAppRoot();
  const probe = probeCommand(root);
  return { started, early: prelaunchProbe(base, { file: probe.file, execArgv: probe.execArgv, cwd: root, env: process.env }, ahead) };
}

test('the probe bin/strata started is the one loader.info asks: no second probe starts', async () => {
  // Every probe this process starts goes through the child-process launcher (plain Node).
  const launch = childProcessLauncher.launch;
  let launches = 0;
  childProcessLauncher.launch = (spec) => {
    launches++;
    return launch(spec);
  };
  try {
    // As started for `strata device list` (nothing sent ahead) and for `strata loader show` (loader.info sent ahead).
    for (const ahead of [null, { method: 'loader.info' }]) {
      launches = 0;
      const { started, early } = earlyProbe(ahead);
      adoptEarlyProbe(early);
      const info = await callChannel('loader.info', {});
      assert.equal(info.version, vulkaninfoInstanceVersion(home.env));
      assert.equal(started.length, 1);
      assert.equal(launches, 1, 'the call started a probe of its own');
      releaseEarlyProbe();
    }
  } finally {
    childProcessLauncher.launch = launch;
    releaseEarlyProbe();
  }
});

test('a one-shot command stops its probes without waiting for them: kill, then unref', () => {
  const calls: string[] = [];
  const fake: ProbeProcess = {
    kind: 'child-process',
    stdout: process.stdin,
    stderr: process.stdin,
    send: (line) => calls.push(`send ${line}`),
    onExit: () => calls.push('onExit'),
    onError: () => calls.push('onError'),
    kill: () => calls.push('kill'),
    unref: () => calls.push('unref'),
  };
  const launcher = oneShotLauncher({ kind: 'child-process', launch: () => fake });
  const probe = launcher.launch({ file: 'probe.mjs', execArgv: [], cwd: '/', env: {} });
  probe.send('{"id":1}');
  probe.onExit(() => {});
  probe.kill();
  assert.deepEqual(calls, ['send {"id":1}', 'onExit', 'kill', 'unref']);
  assert.equal(probe.stdout, fake.stdout);
  // A process that cannot be let go (Electron's utility process has no unref) is killed all the same.
  const { unref: _none, ...utility } = fake;
  calls.length = 0;
  oneShotLauncher({ kind: 'utility-process', launch: () => utility })
    .launch({ file: 'p', execArgv: [], cwd: '/', env: {} })
    .kill();
  assert.deepEqual(calls, ['kill']);
});

test('an early probe no call asks (another channel, or another environment) is stopped when the command ends', async () => {
  const { started, early } = earlyProbe();
  adoptEarlyProbe(early);
  const exited = new Promise<ProbeExit>((resolve) => started[0]!.onExit(resolve));
  await callChannel('env.summary', {});
  releaseEarlyProbe();
  const exit = await exited;
  assert.equal(exit.signal, 'SIGKILL');
  assert.equal(started.length, 1);
});
