import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BridgeClient, probeDeathDetail, probeExitText } from '../../main/bridge/bridge-client';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { makeTempHome } from '../helpers/temp-home';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';

const root = findAppRoot();
const fakeProbe = { file: join(root, 'tests', 'fixtures', 'probes', 'fake-probe.mjs'), execArgv: [] };

test('the real probe reports the same loader version as vulkaninfo, and the mapped library file', async () => {
  const home = makeTempHome();
  const client = new BridgeClient({ probe: probeCommand(root), cwd: root, env: home.env, timeoutMs: 20_000 });
  try {
    const result = await client.request<{ version: string; path: string | null; apiVersion: number }>('loader.version');
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.version, vulkaninfoInstanceVersion(home.env));
    assert.match(result.value.path ?? '', /libvulkan\.so\.1/);
  } finally {
    client.dispose();
    home.cleanup();
  }
});

test('the real probe takes its requests from process.parentPort when it has one (an Electron utility process)', async () => {
  const source = probeCommand(root);
  const client = new BridgeClient({
    probe: { file: source.file, execArgv: [...source.execArgv, '--import', join(root, 'tests', 'fixtures', 'probes', 'fake-parent-port.mjs')] },
    cwd: root,
    timeoutMs: 20_000,
  });
  try {
    const result = await client.request<{ pid: number }>('ping');
    assert.ok(result.ok, JSON.stringify(result));
    assert.notEqual(result.value.pid, process.pid);
  } finally {
    client.dispose();
  }
});

test('an unknown probe method is an error value', async () => {
  const client = new BridgeClient({ probe: probeCommand(root), cwd: root, timeoutMs: 20_000 });
  try {
    const result = await client.request('no.such.method');
    assert.equal(!result.ok && result.error.code, 'bridge/unknown-method');
  } finally {
    client.dispose();
  }
});

for (const [mode, code, pattern] of [
  ['segv', 'bridge/crashed', /SIGSEGV.*about to crash/],
  ['hang', 'bridge/timeout', /did not answer "loader.version" within 500 ms/],
  ['garbage', 'bridge/garbage', /chatty layer/],
] as const) {
  test(`a probe that ${mode === 'segv' ? 'crashes' : mode === 'hang' ? 'hangs' : 'prints garbage'} gives ${code}, and the next request gets a fresh probe`, async () => {
    const home = makeTempHome();
    const client = new BridgeClient({
      probe: fakeProbe,
      cwd: root,
      timeoutMs: 500,
      env: { ...home.env, FAKE_PROBE_MODE: mode, FAKE_PROBE_MARKER: join(home.dir, 'started') },
    });
    try {
      const first = await client.request('loader.version');
      assert.equal(first.ok, false);
      assert.equal(!first.ok && first.error.code, code);
      assert.match(!first.ok ? first.error.message : '', pattern);
      assert.ok(!first.ok && first.error.fix, 'the error says what to do');
      const second = await client.request<{ pid: number }>('loader.version');
      assert.ok(second.ok, JSON.stringify(second));
      assert.notEqual(second.value.pid, process.pid);
    } finally {
      client.dispose();
      home.cleanup();
    }
  });
}

test('requests in flight all fail together when the probe dies', async () => {
  const home = makeTempHome();
  const client = new BridgeClient({ probe: fakeProbe, cwd: root, timeoutMs: 5000, env: { ...home.env, FAKE_PROBE_MODE: 'segv' } });
  try {
    const results = await Promise.all([client.request('a'), client.request('b')]);
    assert.deepEqual(
      results.map((r) => !r.ok && r.error.code),
      ['bridge/crashed', 'bridge/crashed'],
    );
  } finally {
    client.dispose();
    home.cleanup();
  }
});

test('how a probe died, read back from its error: a signal, an exit code, a Windows NTSTATUS with its name', () => {
  assert.equal(probeDeathDetail('The Vulkan probe was killed by SIGSEGV: …'), 'killed by SIGSEGV');
  assert.equal(probeDeathDetail('The Vulkan probe exited with code 139: …'), 'exited with code 139');
  assert.equal(
    probeDeathDetail('The Vulkan probe exited with code 0xC0000005 (EXCEPTION_ACCESS_VIOLATION): strata-driver-stage …'),
    'exited with code 0xC0000005 (EXCEPTION_ACCESS_VIOLATION)',
  );
  assert.equal(probeDeathDetail('The Vulkan probe did not answer'), null);
  // Windows Node reports the NTSTATUS as an unsigned exit code.
  assert.equal(probeExitText({ code: 3221225477, signal: null }), 'exited with code 0xC0000005 (EXCEPTION_ACCESS_VIOLATION)');
  assert.equal(probeExitText({ code: -1073741819, signal: null }), 'exited with code 0xC0000005 (EXCEPTION_ACCESS_VIOLATION)');
  assert.equal(probeExitText({ code: 139, signal: null }), 'exited with code 139');
  assert.equal(probeExitText({ code: null, signal: 'SIGSEGV' }), 'was killed by SIGSEGV');
  for (const code of [3221225477, 139])
    assert.equal(probeDeathDetail(`The Vulkan probe ${probeExitText({ code, signal: null })}: x`), probeExitText({ code, signal: null }).replace(/^was /, ''));
});
