/**
 * The probe started early (main/bridge/probe-prelaunch.ts, `strata loader show` / `strata device list`) and the
 * probe's own start (issue #19): real probe processes throughout. A probe started before its
 * client exists answers as one started on demand; one that dies before the client listens is
 * reported as a crash; one nobody took is stopped. The probe's Node starts without
 * NODE_EXTRA_CA_CERTS, answers requests in order and finishes those still waiting for their module
 * when its stdin closes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { prelaunchProbe } from '../../main/bridge/probe-prelaunch';
import { childProcessLauncher, probeNodeEnv, type ProbeExit, type ProbeLauncher, type ProbeProcess } from '../../main/bridge/probe-transport';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

const root = findAppRoot();

/** The child-process launcher, keeping every process it starts. */
function countingLauncher(): ProbeLauncher & { started: ProbeProcess[] } {
  const started: ProbeProcess[] = [];
  return {
    kind: childProcessLauncher.kind,
    started,
    launch(spec) {
      const child = childProcessLauncher.launch(spec);
      started.push(child);
      return child;
    },
  };
}

const exitOf = (child: ProbeProcess) => new Promise<ProbeExit>((resolve) => child.onExit(resolve));

function withHome(fn: (home: TempHome) => Promise<void>) {
  return async () => {
    const home = makeTempHome();
    try {
      await fn(home);
    } finally {
      home.cleanup();
    }
  };
}

test(
  'a probe started before its client (loader.info sent ahead, as for `strata loader show`, or not) answers loader.info as one started on demand, and is the only probe started',
  withHome(async (home) => {
    const probe = probeCommand(root);
    for (const ahead of [null, { method: 'loader.info' }]) {
      const base = countingLauncher();
      const early = prelaunchProbe(base, { file: probe.file, execArgv: probe.execArgv, cwd: root, env: home.env }, ahead);
      const client = new BridgeClient({ probe, cwd: root, env: home.env, launcher: early.launcher, timeoutMs: 20_000 });
      const plain = new BridgeClient({ probe, cwd: root, env: home.env, timeoutMs: 20_000 });
      try {
        const [got, want] = await Promise.all([client.request('loader.info'), plain.request('loader.info')]);
        assert.ok(got.ok && want.ok, JSON.stringify({ got, want }));
        assert.deepEqual(got.value, want.value);
        assert.equal(base.started.length, 1, 'the client used the probe started early');
        // Another environment is another probe: the early one is not handed to it.
        const other = new BridgeClient({ probe, cwd: root, env: { ...home.env }, launcher: early.launcher, timeoutMs: 20_000 });
        try {
          assert.ok((await other.request('ping')).ok);
          assert.equal(base.started.length, 2);
        } finally {
          other.dispose();
        }
      } finally {
        client.dispose();
        plain.dispose();
        early.dispose();
      }
    }
  }),
);

test(
  'a probe that dies before its client listens is reported as a crash with its exit code, not as a timeout',
  withHome(async (home) => {
    const dies = join(home.dir, 'dies.mjs');
    writeFileSync(dies, "process.stderr.write('fake driver: failed at start\\n'); process.exit(7);\n");
    const base = countingLauncher();
    const spec = { file: dies, execArgv: [], cwd: root, env: home.env };
    const early = prelaunchProbe(base, spec);
    await exitOf(base.started[0]!); // Dead before any client exists.
    const client = new BridgeClient({ probe: { file: dies, execArgv: [] }, cwd: root, env: home.env, launcher: early.launcher, timeoutMs: 20_000 });
    try {
      const r = await client.request('ping');
      assert.equal(!r.ok && r.error.code, 'bridge/crashed', JSON.stringify(r));
      assert.match(!r.ok ? r.error.message : '', /exited with code 7: fake driver: failed at start/);
    } finally {
      client.dispose();
      early.dispose();
    }
  }),
);

test(
  'a probe started early that no client took is stopped by dispose; one a client took is left to the client',
  withHome(async (home) => {
    const waits = join(home.dir, 'waits.mjs');
    writeFileSync(waits, 'setInterval(() => {}, 1000);\n');
    const base = countingLauncher();
    const spec = { file: waits, execArgv: [], cwd: root, env: home.env };
    const unused = prelaunchProbe(base, spec);
    const exit = exitOf(base.started[0]!);
    unused.dispose();
    assert.equal((await exit).signal, 'SIGKILL');

    const taken = prelaunchProbe(base, spec);
    const child = taken.launcher.launch(spec);
    child.stderr.resume(); // as a client reads it
    let exited = false;
    child.onExit(() => (exited = true));
    taken.dispose();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(exited, false, 'dispose stopped a probe its client holds');
    const stopped = exitOf(child);
    child.kill();
    await stopped;
  }),
);

test('the probe starts without NODE_EXTRA_CA_CERTS and with everything else the loader is to see', async () => {
  const env = { PATH: '/usr/bin:/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', VK_LOADER_DEBUG: 'error' };
  assert.deepEqual(probeNodeEnv(env), { PATH: '/usr/bin:/bin', VK_LOADER_DEBUG: 'error' });
  // Nor under the name bin/strata hands it to the CLI's Node with (an early probe starts before the CLI puts it back).
  assert.deepEqual(probeNodeEnv({ PATH: '/bin', STRATA_NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }), { PATH: '/bin' });
  assert.equal(env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt', 'the caller’s environment is left as it was');

  const home = makeTempHome({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', STRATA_TEST_MARK: 'kept' });
  const echo = join(home.dir, 'echo-env.mjs');
  writeFileSync(
    echo,
    "import { createInterface } from 'node:readline';\n" +
      "createInterface({ input: process.stdin }).on('line', (l) => process.stdout.write(JSON.stringify({ id: JSON.parse(l).id, ok: true, value: { ca: process.env.NODE_EXTRA_CA_CERTS ?? null, mark: process.env.STRATA_TEST_MARK ?? null } }) + '\\n'));\n",
  );
  const client = new BridgeClient({ probe: { file: echo, execArgv: [] }, cwd: root, env: home.env, launcher: childProcessLauncher, timeoutMs: 20_000 });
  try {
    const r = await client.request('env');
    assert.deepEqual(r.ok && r.value, { ca: null, mark: 'kept' });
  } finally {
    client.dispose();
    home.cleanup();
  }
});

test(
  'the real probe answers in order, and answers a request that waits for its module even when its stdin has closed',
  withHome(async (home) => {
    const probe = probeCommand(root);
    const input = [
      '{"id":1,"method":"devices"}',
      '{"id":2,"method":"ping","params":{"prepare":"layers.inspect"}}',
      '{"id":3,"method":"loader.version"}',
      '',
    ].join('\n');
    const r = spawnSync(process.execPath, [...probe.execArgv, probe.file], { cwd: root, env: home.env, input, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const replies = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; ok: boolean; value?: { devices?: unknown[] } });
    assert.deepEqual(
      replies.map((m) => [m.id, m.ok]),
      [
        [1, true],
        [2, true],
        [3, true],
      ],
    );
    assert.ok(Array.isArray(replies[0]!.value?.devices) && replies[0]!.value.devices.length > 0, 'lavapipe is a device here');
  }),
);

/**
 * A stand-in probe that answers each request line with how many it has read and what was asked, as
 * native-bridge/probe.ts writes a reply (the id first), after `delayMs`; it logs each line it reads.
 */
function countingProbe(home: TempHome, delayMs: number) {
  const file = join(home.dir, `counting-${delayMs}.mjs`);
  const log = join(home.dir, `counting-${delayMs}.log`);
  writeFileSync(
    file,
    "import { createInterface } from 'node:readline';\nimport { appendFileSync } from 'node:fs';\nlet n = 0;\n" +
      `createInterface({ input: process.stdin }).on('line', (l) => { const r = JSON.parse(l); const count = ++n; appendFileSync(${JSON.stringify(log)}, l + '\\n'); ` +
      `setTimeout(() => process.stdout.write(JSON.stringify({ id: r.id, ok: true, value: { count, method: r.method, params: r.params ?? null } }) + '\\n'), ${delayMs}); });\n`,
  );
  const requests = () =>
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: unknown; method: string });
  return { spec: { file, execArgv: [], cwd: root, env: home.env }, requests };
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
};

test(
  'a request sent ahead answers the client’s same first request, under its id, and is sent once; its answer may come before or after',
  withHome(async (home) => {
    for (const delayMs of [0, 400]) {
      const { spec, requests } = countingProbe(home, delayMs);
      const early = prelaunchProbe(countingLauncher(), spec, { method: 'loader.info' });
      // delay 0: the answer is in before the client asks; delay 400: it comes after.
      if (delayMs === 0) {
        await waitFor(() => existsSync(join(home.dir, `counting-${delayMs}.log`)));
        await new Promise((r) => setTimeout(r, 200));
      }
      const client = new BridgeClient({ probe: { file: spec.file, execArgv: [] }, cwd: root, env: home.env, launcher: early.launcher, timeoutMs: 20_000 });
      try {
        const first = await client.request('loader.info');
        assert.deepEqual(first.ok && first.value, { count: 1, method: 'loader.info', params: null }, `delay ${delayMs}`);
        const second = await client.request('loader.info');
        assert.deepEqual(second.ok && second.value, { count: 2, method: 'loader.info', params: null });
        assert.deepEqual(
          requests().map((r) => [r.id, r.method]),
          [
            ['ahead', 'loader.info'],
            [2, 'loader.info'],
          ],
          'the client’s first request was not sent again',
        );
      } finally {
        client.dispose();
        early.dispose();
      }
    }
  }),
);

test(
  'a client whose first request is another gets its own answers; the one sent ahead is dropped',
  withHome(async (home) => {
    const { spec, requests } = countingProbe(home, 100);
    const early = prelaunchProbe(countingLauncher(), spec, { method: 'loader.info' });
    const client = new BridgeClient({ probe: { file: spec.file, execArgv: [] }, cwd: root, env: home.env, launcher: early.launcher, timeoutMs: 20_000 });
    try {
      const ping = await client.request('ping', { prepare: 'devices' });
      assert.deepEqual(ping.ok && ping.value, { count: 2, method: 'ping', params: { prepare: 'devices' } });
      // Same method, other parameters: not the request sent ahead either.
      const info = await client.request('loader.info', { layer: 'x' });
      assert.deepEqual(info.ok && info.value, { count: 3, method: 'loader.info', params: { layer: 'x' } });
      assert.deepEqual(
        requests().map((r) => r.method),
        ['loader.info', 'ping', 'loader.info'],
      );
    } finally {
      client.dispose();
      early.dispose();
    }
  }),
);
