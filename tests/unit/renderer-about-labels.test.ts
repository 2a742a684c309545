import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostLabel, platformLabel, runtimeVersion } from '../../renderer/src/about/about-labels';
import { xdgRows } from '../../renderer/src/about/xdg-rows';
import { resolveXdgDirectories } from '../../shared/loader/xdg-directories';

test('hosts and platforms in words; unknown platforms as they are', () => {
  assert.equal(hostLabel('browser'), 'Browser (strata serve)');
  assert.equal(hostLabel('electron'), 'Desktop app (Electron)');
  assert.equal(platformLabel('linux', 'x64'), 'Linux (x64)');
  assert.equal(platformLabel('win32', 'arm64'), 'Windows (arm64)');
  assert.equal(platformLabel('sunos', 'x64'), 'sunos (x64)');
  assert.equal(runtimeVersion('38.0.1'), '38.0.1');
  assert.equal(runtimeVersion(null), 'not used by this host');
});

test('XDG rows: defaults marked as such, set variables as set, lists kept in order', () => {
  const rows = xdgRows(resolveXdgDirectories({ XDG_CONFIG_HOME: '/cfg', XDG_DATA_DIRS: '/a::/b' }, '/home/u'));
  const by = Object.fromEntries(rows.map((r) => [r.variable, r]));
  assert.deepEqual(by['XDG_CONFIG_HOME'], { label: 'Config home', variable: 'XDG_CONFIG_HOME', values: ['/cfg'], source: 'environment' });
  assert.deepEqual(by['XDG_DATA_HOME']?.values, ['/home/u/.local/share']);
  assert.equal(by['XDG_DATA_HOME']?.source, 'default');
  assert.deepEqual(by['XDG_DATA_DIRS']?.values, ['/a', '/b']);
  assert.equal(by['XDG_DATA_DIRS']?.source, 'environment');
  assert.deepEqual(by['XDG_CONFIG_DIRS']?.values, ['/etc/xdg']);
  assert.deepEqual(by['XDG_RUNTIME_DIR'], { label: 'Runtime folder', variable: 'XDG_RUNTIME_DIR', values: [], source: 'unset' });
  assert.equal(rows.length, 6);
});
