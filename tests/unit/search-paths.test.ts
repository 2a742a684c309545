import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeSearchPaths, DEBIAN_LINUX, MACOS_SPEC_EXAMPLE, WINDOWS, type ManifestKind, type SearchPathsInput } from '../../shared/loader/search-paths';

const me = { home: '/home/me', elevated: false };
const paths = (input: SearchPathsInput, kind: ManifestKind) => computeSearchPaths(input)[kind].map((l) => l.path);
const origins = (input: SearchPathsInput, kind: ManifestKind) => computeSearchPaths(input)[kind].map((l) => l.origin);

test('Linux, the spec\'s fictional user "me" (with the spec\'s SYSCONFDIR=/usr/local/etc, EXTRASYSCONFDIR=/etc)', () => {
  const input = { platform: { os: 'linux' as const, sysconfdir: '/usr/local/etc', extraSysconfdir: '/etc' }, env: {}, user: me };
  // LoaderLayerInterface.md, "Example Linux Explicit Layer Search Path".
  assert.deepEqual(paths(input, 'explicit_layer'), [
    '/home/me/.config/vulkan/explicit_layer.d',
    '/etc/xdg/vulkan/explicit_layer.d',
    '/usr/local/etc/vulkan/explicit_layer.d',
    '/etc/vulkan/explicit_layer.d',
    '/home/me/.local/share/vulkan/explicit_layer.d',
    '/usr/local/share/vulkan/explicit_layer.d',
    '/usr/share/vulkan/explicit_layer.d',
  ]);
  assert.deepEqual(origins(input, 'explicit_layer'), [
    'XDG_CONFIG_HOME',
    'XDG_CONFIG_DIRS[0]',
    'SYSCONFDIR',
    'EXTRASYSCONFDIR',
    'XDG_DATA_HOME',
    'XDG_DATA_DIRS[0]',
    'XDG_DATA_DIRS[1]',
  ]);
  assert.ok(computeSearchPaths(input).explicit_layer.every((l) => l.entry === 'folder'));
});

test('Debian 1.3.239: SYSCONFDIR=/etc only, same table for implicit layers and drivers (icd.d)', () => {
  const input = { platform: DEBIAN_LINUX, env: {}, user: me };
  assert.deepEqual(paths(input, 'implicit_layer'), [
    '/home/me/.config/vulkan/implicit_layer.d',
    '/etc/xdg/vulkan/implicit_layer.d',
    '/etc/vulkan/implicit_layer.d',
    '/home/me/.local/share/vulkan/implicit_layer.d',
    '/usr/local/share/vulkan/implicit_layer.d',
    '/usr/share/vulkan/implicit_layer.d',
  ]);
  assert.deepEqual(
    paths(input, 'driver'),
    paths(input, 'implicit_layer').map((p) => p.replace('implicit_layer.d', 'icd.d')),
  );
  const sources = computeSearchPaths(input).driver.map((l) => l.source);
  assert.deepEqual(sources, ['default', 'default', 'build', 'default', 'default', 'default']);
});

test('macOS: the bundle first, then the Linux table (spec example, user "Me")', () => {
  const input = { platform: MACOS_SPEC_EXAMPLE, env: {}, user: { home: '/Users/Me', elevated: false }, bundle: '/Applications/App.app' };
  assert.deepEqual(paths(input, 'implicit_layer'), [
    '/Applications/App.app/Contents/Resources/vulkan/implicit_layer.d',
    '/Users/Me/.config/vulkan/implicit_layer.d',
    '/etc/xdg/vulkan/implicit_layer.d',
    '/usr/local/etc/vulkan/implicit_layer.d',
    '/etc/vulkan/implicit_layer.d',
    '/Users/Me/.local/share/vulkan/implicit_layer.d',
    '/usr/local/share/vulkan/implicit_layer.d',
    '/usr/share/vulkan/implicit_layer.d',
  ]);
  assert.equal(computeSearchPaths(input).implicit_layer[0]?.origin, 'bundle');
  // No bundle: no bundle entry; the bundle is a macOS thing only.
  assert.equal(paths({ ...input, bundle: null }, 'implicit_layer').length, 7);
  assert.ok(!paths({ ...input, platform: DEBIAN_LINUX }, 'implicit_layer').some((p) => p.includes('App.app')));
});

test('Windows: registry keys of the spec, HKLM before HKCU, HKCU skipped when elevated, WOW6432Node for 32-bit', () => {
  const input = { platform: WINDOWS, env: {}, user: { home: 'C:\\Users\\me', elevated: false } };
  const implicit = computeSearchPaths(input).implicit_layer;
  assert.ok(implicit.every((l) => l.entry === 'registry-key' && l.source === 'registry'));
  assert.deepEqual(implicit.map((l) => l.path).slice(-2), [
    'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
    'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
  ]);
  assert.ok(implicit.some((l) => l.path.endsWith('{Adapter GUID}\\000X\\VulkanImplicitLayers')));
  assert.deepEqual(paths(input, 'explicit_layer').slice(-2), [
    'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers',
    'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers',
  ]);
  assert.ok(paths(input, 'driver').includes('HKLM\\SOFTWARE\\Khronos\\Vulkan\\Drivers'));
  assert.ok(!paths(input, 'driver').some((p) => p.startsWith('HKCU')), 'drivers: HKLM only');

  const elevated = { ...input, user: { ...input.user, elevated: true } };
  assert.ok(!paths(elevated, 'implicit_layer').some((p) => p.startsWith('HKCU')));

  const wow = { ...input, platform: { os: 'windows' as const, wow64: true } };
  assert.ok(paths(wow, 'explicit_layer').includes('HKLM\\SOFTWARE\\WOW6432Node\\Khronos\\Vulkan\\ExplicitLayers'));
  assert.ok(paths(wow, 'driver').some((p) => p.endsWith('VulkanDriverNameWow')));
});

test('Windows: VK_LAYER_PATH and VK_ADD_LAYER_PATH split on ";"', () => {
  const input = { platform: WINDOWS, env: { VK_ADD_LAYER_PATH: 'C:\\a;D:\\b\\x.json' }, user: { home: null, elevated: false } };
  const explicit = computeSearchPaths(input).explicit_layer;
  assert.deepEqual(
    explicit.slice(0, 2).map((l) => [l.path, l.origin, l.entry]),
    [
      ['C:\\a', 'VK_ADD_LAYER_PATH[0]', 'folder'],
      ['D:\\b\\x.json', 'VK_ADD_LAYER_PATH[1]', 'file'],
    ],
  );
  assert.deepEqual(paths({ ...input, env: { VK_LAYER_PATH: 'C:\\only' } }, 'explicit_layer'), ['C:\\only']);
});

test('VK_LAYER_PATH replaces the explicit list only; VK_ADD_LAYER_PATH is then ignored', () => {
  const input = { platform: DEBIAN_LINUX, env: { VK_LAYER_PATH: '/a::/b/l.json', VK_ADD_LAYER_PATH: '/ignored' }, user: me };
  const explicit = computeSearchPaths(input).explicit_layer;
  assert.deepEqual(
    explicit.map((l) => [l.path, l.origin, l.entry]),
    [
      ['/a', 'VK_LAYER_PATH[0]', 'folder'],
      ['/b/l.json', 'VK_LAYER_PATH[1]', 'file'],
    ],
  );
  assert.equal(paths(input, 'implicit_layer').length, 6, 'implicit layers keep the standard folders');
});

test('VK_ADD_LAYER_PATH goes before the standard folders', () => {
  const p = paths({ platform: DEBIAN_LINUX, env: { VK_ADD_LAYER_PATH: '/x:/y' }, user: me }, 'explicit_layer');
  assert.deepEqual(p.slice(0, 3), ['/x', '/y', '/home/me/.config/vulkan/explicit_layer.d']);
  assert.equal(p.length, 8);
});

test('drivers: VK_DRIVER_FILES beats VK_ICD_FILENAMES; either disables VK_ADD_DRIVER_FILES, which otherwise goes first', () => {
  const base = { platform: DEBIAN_LINUX, user: me };
  assert.deepEqual(origins({ ...base, env: { VK_DRIVER_FILES: '/n.json:/dir', VK_ICD_FILENAMES: '/o.json' } }, 'driver'), [
    'VK_DRIVER_FILES[0]',
    'VK_DRIVER_FILES[1]',
  ]);
  assert.deepEqual(
    computeSearchPaths({ ...base, env: { VK_DRIVER_FILES: '/n.json:/dir' } }).driver.map((l) => l.entry),
    ['file', 'folder'],
  );
  assert.deepEqual(origins({ ...base, env: { VK_ICD_FILENAMES: '/o.json', VK_ADD_DRIVER_FILES: '/add.json' } }, 'driver'), ['VK_ICD_FILENAMES[0]']);
  const added = paths({ ...base, env: { VK_ADD_DRIVER_FILES: '/add.json' } }, 'driver');
  assert.deepEqual(added.slice(0, 2), ['/add.json', '/home/me/.config/vulkan/icd.d']);
});

test('empty variables: XDG_* fall back to defaults; an empty VK_LAYER_PATH / VK_DRIVER_FILES / VK_ICD_FILENAMES searches nothing (loader 1.3.239)', () => {
  const base = { platform: DEBIAN_LINUX, user: me };
  assert.deepEqual(
    paths({ ...base, env: { XDG_CONFIG_HOME: '', XDG_CONFIG_DIRS: '', XDG_DATA_HOME: '', XDG_DATA_DIRS: '', VK_ADD_LAYER_PATH: '' } }, 'explicit_layer'),
    paths({ ...base, env: {} }, 'explicit_layer'),
  );
  assert.deepEqual(paths({ ...base, env: { VK_LAYER_PATH: '' } }, 'explicit_layer'), []);
  assert.deepEqual(paths({ ...base, env: { VK_DRIVER_FILES: '', VK_ICD_FILENAMES: '/o.json' } }, 'driver'), []);
  assert.deepEqual(paths({ ...base, env: { VK_ICD_FILENAMES: '' } }, 'driver'), []);
});

test('no ~ expansion on Linux (loader 1.3.239 searches "~/x" literally)', () => {
  assert.deepEqual(paths({ platform: DEBIAN_LINUX, env: { VK_LAYER_PATH: '~/x' }, user: me }, 'explicit_layer'), ['~/x']);
});

test('XDG overrides, trailing slashes, and the same folder twice (kept once, the later origin noted)', () => {
  const input = { platform: DEBIAN_LINUX, env: { XDG_DATA_HOME: '/d', XDG_DATA_DIRS: '/d/:/e', XDG_CONFIG_DIRS: '/c1:/c2' }, user: me };
  const explicit = computeSearchPaths(input).explicit_layer;
  assert.deepEqual(
    explicit.map((l) => l.path),
    [
      '/home/me/.config/vulkan/explicit_layer.d',
      '/c1/vulkan/explicit_layer.d',
      '/c2/vulkan/explicit_layer.d',
      '/etc/vulkan/explicit_layer.d',
      '/d/vulkan/explicit_layer.d',
      '/e/vulkan/explicit_layer.d',
    ],
  );
  assert.deepEqual(explicit.find((l) => l.origin === 'XDG_DATA_HOME')?.alsoFrom, ['XDG_DATA_DIRS[0]']);
  assert.equal(explicit.find((l) => l.origin === 'XDG_CONFIG_DIRS[1]')?.source, 'environment');
});

test('elevated: VK_* and XDG_* are ignored, the home folders dropped, the system defaults kept', () => {
  const env = {
    VK_LAYER_PATH: '/evil',
    VK_ADD_LAYER_PATH: '/evil2',
    VK_DRIVER_FILES: '/evil.json',
    VK_ADD_DRIVER_FILES: '/evil2.json',
    XDG_CONFIG_HOME: '/evil/config',
    XDG_DATA_DIRS: '/evil/data',
  };
  const r = computeSearchPaths({ platform: DEBIAN_LINUX, env, user: { home: '/home/me', elevated: true } });
  for (const kind of ['implicit_layer', 'explicit_layer', 'driver'] as const) {
    assert.ok(!r[kind].some((l) => l.path.includes('evil') || l.path.startsWith('/home/me')), kind);
    assert.ok(
      r[kind].some((l) => l.path.startsWith('/usr/share/vulkan/')),
      kind,
    );
  }
  assert.deepEqual(
    r.explicit_layer.map((l) => l.origin),
    ['XDG_CONFIG_DIRS[0]', 'SYSCONFDIR', 'XDG_DATA_DIRS[0]', 'XDG_DATA_DIRS[1]'],
  );
});

test('no HOME: the home folders are skipped unless XDG_*_HOME names them', () => {
  const nohome = { platform: DEBIAN_LINUX, user: { home: null, elevated: false } };
  assert.deepEqual(origins({ ...nohome, env: {} }, 'driver'), ['XDG_CONFIG_DIRS[0]', 'SYSCONFDIR', 'XDG_DATA_DIRS[0]', 'XDG_DATA_DIRS[1]']);
  assert.equal(paths({ ...nohome, env: { XDG_DATA_HOME: '/xd' } }, 'driver')[2], '/xd/vulkan/icd.d');
});
