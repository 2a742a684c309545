import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { appInfo } from '../../main/app-info/app-info-service';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { AppInfoSchema } from '../../shared/app/app-info';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/app-info/app-info-service.ts (`app.info`, `strata info`): Strata's version, the host that
 * asked, this runtime, and the real loader found by the probe — its version the one vulkaninfo
 * reports (Debian libvulkan1) — or, when no probe answers, why not and the library looked for.
 */
const root = findAppRoot();

test('with the real probe: the loader vulkaninfo sees, the asking host, this runtime; the answer matches the contract', async () => {
  const home = makeTempHome();
  const bridge = new BridgeClient({ probe: probeCommand(root), cwd: root, env: home.env, timeoutMs: 20_000 });
  try {
    const info = await appInfo({ version: '1.2.3', bridge }, { host: 'browser' });
    assert.equal(AppInfoSchema.safeParse(info).success, true);
    assert.equal(info.name, 'Strata');
    assert.equal(info.version, '1.2.3');
    assert.equal(info.host, 'browser');
    assert.deepEqual([info.platform, info.arch], [process.platform, process.arch]);
    assert.deepEqual(info.versions, { node: process.versions.node, v8: process.versions.v8, electron: null, chrome: null });
    assert.ok(info.loader.found, JSON.stringify(info.loader));
    assert.equal(info.loader.version, vulkaninfoInstanceVersion(home.env));
    assert.match(info.loader.path ?? '', /libvulkan\.so\.1/);
  } finally {
    bridge.dispose();
    home.cleanup();
  }
});

test('a probe that never answers: found false, the library looked for, and the reason', async () => {
  const home = makeTempHome({ FAKE_PROBE_MODE: 'hang' });
  const bridge = new BridgeClient({
    probe: { file: join(root, 'tests', 'fixtures', 'probes', 'fake-probe.mjs'), execArgv: [] },
    cwd: root,
    env: home.env,
    timeoutMs: 500,
  });
  try {
    const info = await appInfo({ version: '1.2.3', bridge }, { host: 'cli' });
    assert.equal(AppInfoSchema.safeParse(info).success, true);
    assert.equal(info.host, 'cli');
    assert.equal(info.loader.found, false);
    assert.ok(!info.loader.found && info.loader.library === 'libvulkan.so.1');
    assert.match(!info.loader.found ? info.loader.reason : '', /time|answer/i);
  } finally {
    bridge.dispose();
    home.cleanup();
  }
});
