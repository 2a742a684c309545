import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activityHeadline, loaderSettingsCandidates, loadersReadingFolder, strataHasChanges, type ActivityStatus } from '../../shared/activity/activity-status';

// shared/activity/activity-status.ts.
test('loaderSettingsCandidates: the loader’s order, loader_settings.d then settings.d, each path once', () => {
  // loader 1.4.341 loader/settings.c get_unix_settings_path: XDG_CONFIG_HOME (else ~/.config),
  // XDG_DATA_HOME (else ~/.local/share), XDG_CONFIG_DIRS, SYSCONFDIR (/etc), XDG_DATA_DIRS.
  const env = { XDG_CONFIG_DIRS: '/etc/xdg:/etc', XDG_DATA_DIRS: '/usr/share/' };
  const list = loaderSettingsCandidates(env, '/home/u');
  const F = 'vk_loader_settings.json';
  assert.deepEqual(
    list.filter((c) => c.folder === 'loader_settings.d').map((c) => c.path),
    [
      `/home/u/.config/vulkan/loader_settings.d/${F}`,
      `/home/u/.local/share/vulkan/loader_settings.d/${F}`,
      `/etc/xdg/vulkan/loader_settings.d/${F}`,
      `/etc/vulkan/loader_settings.d/${F}`,
      `/usr/share/vulkan/loader_settings.d/${F}`,
    ],
    '/etc named twice (XDG_CONFIG_DIRS and SYSCONFDIR) is listed once; a trailing slash is dropped',
  );
  assert.equal(list.length, 10);
  assert.equal(list[5]?.path, `/home/u/.config/vulkan/settings.d/${F}`);
  assert.equal(loaderSettingsCandidates({ XDG_CONFIG_HOME: '/c', XDG_DATA_HOME: '/d' }, '/home/u')[0]?.path, `/c/vulkan/loader_settings.d/${F}`);
});

test('loadersReadingFolder: settings.d for 1.3.251–1.3.252, loader_settings.d from 1.3.253 (loader-rules.ts)', () => {
  assert.equal(loadersReadingFolder('settings.d'), 'loaders 1.3.251–1.3.252 (settings.d)');
  assert.equal(loadersReadingFolder('loader_settings.d'), 'loader 1.3.253 and later (loader_settings.d)');
});

const status = (over: Partial<ActivityStatus> & { ownership?: ActivityStatus['global']['ownership']; on?: string[]; off?: string[] }): ActivityStatus => ({
  loaderVersion: '1.4.341',
  global: { path: '/o.json', ownership: over.ownership ?? 'absent', writtenAt: null, on: over.on ?? [], off: over.off ?? [] },
  bindings: over.bindings ?? [],
  files: over.files ?? [],
  notes: [],
});
const file = (owner: 'strata' | 'modified' | 'foreign') => ({
  path: `/${owner}`,
  role: 'app-override' as const,
  owner,
  loaders: 'every loader',
  readByLoader: true,
  summary: '',
});
const binding = { app: '/bin/a', label: null, profile: 'p', file: null, gets: [], ok: true, message: '' };

test('activityHeadline: the global override, the bindings, files of other tools; singular and plural', () => {
  assert.equal(activityHeadline(status({})), 'Global override: none · no application bound');
  assert.equal(
    activityHeadline(status({ ownership: 'foreign', files: [file('foreign')] })),
    'Global override: another tool’s · no application bound · 1 file of another tool',
  );
  assert.equal(
    activityHeadline(status({ ownership: 'strata', on: ['a', 'b'], off: ['c'], bindings: [binding, binding], files: [file('foreign'), file('foreign')] })),
    'Global override: on 2, off 1 · 2 applications bound · 2 files of another tool',
  );
  assert.equal(
    activityHeadline(status({ ownership: 'modified', bindings: [binding] })),
    'Global override: settings only (changed since) · 1 application bound',
  );
});

test('strataHasChanges: any file of Strata’s (even changed since) or a binding; other tools’ files do not count', () => {
  assert.equal(strataHasChanges(status({})), false);
  assert.equal(strataHasChanges(status({ files: [file('foreign')] })), false);
  assert.equal(strataHasChanges(status({ files: [file('modified')] })), true);
  assert.equal(strataHasChanges(status({ files: [file('strata')] })), true);
  assert.equal(strataHasChanges(status({ bindings: [binding] })), true);
});
