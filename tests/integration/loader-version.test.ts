import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { describeLoader, loaderVersionFromBridge } from '../../main/chain/loader-version';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/chain/loader-version.ts: the installed loader as vkEnumerateInstanceVersion reports it (the
 * same answer as vulkaninfo), and what is said when no loader answers.
 */
const root = findAppRoot();

test('the real loader: found, with the version vulkaninfo reports', async (t) => {
  // npm test's setup installs vulkan-tools and Mesa's lavapipe: vulkaninfo failing is a failure, not a skip.
  const home = makeTempHome();
  const vulkaninfo = execFileSync('vulkaninfo', ['--summary'], { encoding: 'utf8', env: home.env, stdio: ['ignore', 'pipe', 'ignore'] });
  t.after(() => home.cleanup());
  const bridge = new BridgeClient({ probe: probeCommand(root), cwd: root, env: home.env, loaderVersionInProcess: true });
  try {
    const loader = await describeLoader(bridge, 'linux');
    assert.ok(loader.found, JSON.stringify(loader));
    assert.equal(loader.library, 'libvulkan.so.1');
    assert.equal(loader.version, /Vulkan Instance Version: (\d+\.\d+\.\d+)/.exec(vulkaninfo)?.[1]);
    assert.deepEqual(await loaderVersionFromBridge(bridge, 'linux')(), { version: loader.version });
  } finally {
    bridge.dispose();
  }
});

test('no loader answers: not found, the reason, and the fix for the platform; a failure is asked again next time', async () => {
  let asked = 0;
  const broken = {
    async request() {
      asked++;
      return { ok: false as const, error: { code: 'probe/failed', message: 'libvulkan.so.1: cannot open shared object file', fix: 'x' } };
    },
  } as unknown as BridgeClient;
  assert.deepEqual(await describeLoader(broken, 'linux'), {
    found: false,
    library: 'libvulkan.so.1',
    reason: 'libvulkan.so.1: cannot open shared object file. Fix: x',
    fix: 'install the Vulkan loader: sudo apt-get install libvulkan1',
  });
  assert.equal((await describeLoader(broken, 'darwin')).library, 'libvulkan.1.dylib');
  const win = await describeLoader(broken, 'win32');
  assert.match(win.found ? '' : (win.fix ?? ''), /vulkan-1\.dll/);
  assert.equal('fix' in (await describeLoader(broken, 'freebsd')), false, 'no fix known for other systems');
  const lookup = loaderVersionFromBridge(broken, 'linux');
  asked = 0;
  assert.deepEqual(await lookup(), { version: null, why: 'libvulkan.so.1: cannot open shared object file. Fix: x' });
  await lookup();
  assert.equal(asked, 2);
  const working = {
    async request() {
      asked++;
      return { ok: true as const, value: { library: 'libvulkan.so.1', path: '/usr/lib/libvulkan.so.1', apiVersion: 4206831, version: '1.3.239' } };
    },
  } as unknown as BridgeClient;
  asked = 0;
  const cached = loaderVersionFromBridge(working, 'linux');
  assert.deepEqual(await cached(), { version: '1.3.239' });
  assert.deepEqual(await cached(), { version: '1.3.239' });
  assert.equal(asked, 1, 'one loader per process: asked once');
});
