/**
 * The probe transport without Electron (its binary is not installed here): the launcher choice
 * from process.versions.electron, and BridgeClient's framing over a fake utilityProcess that
 * behaves as electron.d.ts describes (fork → stdout/stderr pipes, postMessage, 'exit' with a code).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { BridgeClient, lastProbeStage } from '../../main/bridge/bridge-client';
import {
  childProcessLauncher,
  electronMajor,
  encodeProbeRequest,
  parseProbeReply,
  selectProbeLauncher,
  utilityProcessLauncher,
  type UtilityProcessApi,
  type UtilityProcessLike,
} from '../../main/bridge/probe-transport';

class FakeUtilityProcess extends EventEmitter implements UtilityProcessLike {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly messages: unknown[] = [];
  killed = false;
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  kill() {
    this.killed = true;
    return true;
  }
}

function fakeApi() {
  const forks: { modulePath: string; args: string[] | undefined; options: unknown; child: FakeUtilityProcess }[] = [];
  const api: UtilityProcessApi = {
    fork(modulePath, args, options) {
      const child = new FakeUtilityProcess();
      forks.push({ modulePath, args, options, child });
      return child;
    },
  };
  return { api, forks };
}

const probe = { file: '/app/out/native-bridge/probe.cjs', execArgv: [] };

test('plain Node and Electron before 22 start a child process; Electron 22+ forks a utility process', () => {
  const { api } = fakeApi();
  let asked = 0;
  const runtime = (electronVersion: string | undefined, available = true) => ({
    electronVersion,
    utilityProcess: () => {
      asked++;
      return available ? api : null;
    },
  });
  assert.equal(selectProbeLauncher(runtime(undefined)), childProcessLauncher);
  assert.equal(asked, 0, 'outside Electron the electron module is never asked for');
  assert.equal(selectProbeLauncher(runtime('21.4.4')).kind, 'child-process');
  assert.equal(selectProbeLauncher(runtime('22.0.0')).kind, 'utility-process');
  assert.equal(selectProbeLauncher(runtime('38.2.1')).kind, 'utility-process');
  assert.equal(selectProbeLauncher(runtime('38.2.1', false)).kind, 'child-process', 'no utilityProcess: fall back');
  assert.deepEqual([electronMajor('38.2.1'), electronMajor(undefined), electronMajor('x')], [38, null, null]);
  // This test runs under Node: the default is the child process.
  assert.equal(new BridgeClient({ probe, cwd: '/' }).transport, 'child-process');
});

test('framing: one JSON text per request; a reply line needs id and ok, anything else is garbage', () => {
  assert.equal(encodeProbeRequest(3, 'devices'), '{"id":3,"method":"devices"}');
  assert.deepEqual(JSON.parse(encodeProbeRequest(4, 'layers.inspect', { jobs: [] })), { id: 4, method: 'layers.inspect', params: { jobs: [] } });
  assert.deepEqual(parseProbeReply('{"id":3,"ok":true,"value":1}'), { id: 3, ok: true, value: 1 });
  assert.deepEqual(parseProbeReply('{"id":3,"ok":false,"error":{"code":"x"}}'), { id: 3, ok: false, error: { code: 'x' } });
  assert.equal(parseProbeReply('hello from a chatty layer'), null);
  assert.equal(parseProbeReply('{"hello":1}'), null);
});

test('over a utility process: fork options, requests as messages, replies from stdout, stderr stages kept', async () => {
  const { api, forks } = fakeApi();
  const client = new BridgeClient({
    probe: { file: probe.file, execArgv: ['--import', 'tsx'] },
    cwd: '/app',
    env: { A: '1' },
    launcher: utilityProcessLauncher(api),
    timeoutMs: 1000,
  });
  assert.equal(client.transport, 'utility-process');
  const pending = client.request('devices', { attributeTo: ['a.json'] });
  assert.equal(forks.length, 1);
  const { modulePath, options, child } = forks[0]!;
  assert.equal(modulePath, probe.file);
  assert.deepEqual(options, {
    env: { A: '1' },
    execArgv: ['--import', 'tsx'],
    cwd: '/app',
    stdio: ['ignore', 'pipe', 'pipe'],
    serviceName: 'Strata Vulkan probe',
  });
  assert.equal(child.messages.length, 1);
  const sent = JSON.parse(child.messages[0] as string) as { id: number; method: string; params: unknown };
  assert.deepEqual({ method: sent.method, params: sent.params }, { method: 'devices', params: { attributeTo: ['a.json'] } });
  // A reply split across chunks, as a pipe may deliver it.
  const line = `${JSON.stringify({ id: sent.id, ok: true, value: { devices: [] } })}\n`;
  child.stdout.write(line.slice(0, 10));
  child.stdout.write(line.slice(10));
  assert.deepEqual(await pending, { ok: true, value: { devices: [] } });

  // The same process serves the next request.
  const second = client.request('ping');
  assert.equal(forks.length, 1);
  const id2 = (JSON.parse(child.messages[1] as string) as { id: number }).id;
  child.stdout.write(`${JSON.stringify({ id: id2, ok: true, value: { pid: 7 } })}\n`);
  assert.deepEqual(await second, { ok: true, value: { pid: 7 } });
  client.dispose();
  assert.ok(child.killed);
});

test('over a utility process: an exit is a crash naming the last stage; garbage on stdout and timeouts kill it; the next request forks afresh', async () => {
  const { api, forks } = fakeApi();
  const client = new BridgeClient({ probe, cwd: '/', launcher: utilityProcessLauncher(api), timeoutMs: 200 });

  const crashed = client.request('layers.inspect', { jobs: [] });
  const first = forks[0]!.child;
  first.stderr.write('strata-driver-stage: dlopen of /x/libbad.so\n');
  await new Promise((r) => setImmediate(r));
  first.emit('exit', 139);
  const r1 = await crashed;
  assert.equal(!r1.ok && r1.error.code, 'bridge/crashed');
  assert.match(!r1.ok ? r1.error.message : '', /exited with code 139: strata-driver-stage: dlopen of \/x\/libbad\.so/);
  assert.equal(!r1.ok && lastProbeStage(r1.error), 'dlopen of /x/libbad.so');

  const garbage = client.request('loader.info');
  assert.equal(forks.length, 2, 'a new utility process after the crash');
  forks[1]!.child.stdout.write('hello from a chatty layer\n');
  const r2 = await garbage;
  assert.equal(!r2.ok && r2.error.code, 'bridge/garbage');
  assert.ok(forks[1]!.child.killed);

  const hung = client.request('devices');
  const r3 = await hung;
  assert.equal(!r3.ok && r3.error.code, 'bridge/timeout');
  assert.ok(forks[2]!.child.killed);
  client.dispose();
});
