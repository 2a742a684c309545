import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAppInfo, formatEnvSummary } from '../../main/hosts/cli/info-command';
import { appInfo } from '../../main/app-info/app-info-service';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { summarizeEnvironment } from '../../shared/loader/environment-summary';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/info-command.ts: `strata info` and `strata env show` as printed, over the real answers:
 * the loader the probe finds (its version the one vulkaninfo reports) or why none was found, and
 * the Vulkan variables and XDG folders of a temporary environment, defaults marked.
 */
const root = findAppRoot();

test('info: Strata, the platform, the runtime and the real loader; a missing loader with its reason and fix', async () => {
  const home = makeTempHome();
  const bridge = new BridgeClient({ probe: probeCommand(root), cwd: root, env: home.env, timeoutMs: 20_000 });
  try {
    const info = await appInfo({ version: '4.5.6', bridge }, { host: 'cli' });
    const lines = formatAppInfo(info).split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(/\s{2,}/)[0]),
      ['Strata', 'Platform', 'Node', 'Electron', 'Vulkan loader'],
    );
    assert.match(lines[0]!, /^Strata {9}4\.5\.6$/);
    assert.match(lines[1]!, new RegExp(`^Platform {7}${process.platform} ${process.arch}$`));
    assert.match(lines[3]!, /^Electron {7}—$/);
    assert.match(lines[4]!, new RegExp(`^Vulkan loader {2}${vulkaninfoInstanceVersion(home.env).replace(/\./g, '\\.')} \\(.*libvulkan\\.so\\.1`));
    const missing = formatAppInfo({ ...info, loader: { found: false, library: 'libvulkan.so.1', reason: 'no such file', fix: 'apt install libvulkan1' } });
    assert.match(missing, /^Vulkan loader {2}not found: no such file\. Fix: apt install libvulkan1$/m);
    assert.match(formatAppInfo({ ...info, loader: { found: false, library: 'libvulkan.so.1', reason: 'no such file' } }), /not found: no such file$/);
  } finally {
    bridge.dispose();
    home.cleanup();
  }
});

test('env show: the variables set with their values, the XDG folders with (default) where none is set', () => {
  const home = makeTempHome({ VK_LOADER_DEBUG: 'all', VK_DRIVER_FILES: '/a.json' });
  try {
    const env = { ...home.env };
    delete env['XDG_STATE_HOME'];
    const text = formatEnvSummary(summarizeEnvironment(env, home.dir, 'linux'));
    const lines = text.split('\n');
    assert.equal(lines[0], 'Vulkan-related environment variables:');
    assert.match(text, /^ {2}VK_DRIVER_FILES {2}\/a\.json$/m);
    assert.match(text, /^ {2}VK_LOADER_DEBUG {2}all$/m);
    assert.match(text, new RegExp(`^ {2}XDG_DATA_HOME +${home.env['XDG_DATA_HOME']}$`, 'm'));
    assert.match(text, new RegExp(`^ {2}XDG_STATE_HOME +${home.dir}/\\.local/state \\(default\\)$`, 'm'));
    assert.match(text, /^ {2}XDG_DATA_DIRS +.* \(default\)$/m);

    const quiet = formatEnvSummary(summarizeEnvironment({ HOME: home.dir }, home.dir, 'win32'));
    assert.equal(quiet, 'No Vulkan-related environment variables are set.', 'Windows has no XDG folders');
  } finally {
    home.cleanup();
  }
});
