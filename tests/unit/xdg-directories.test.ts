import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveXdgDirectories } from '../../shared/loader/xdg-directories';
import { XdgDirectoriesSchema } from '../../shared/loader/xdg-directories-schema';

// shared/loader/xdg-directories.ts: the XDG folders as the loader reads them (loader.c
// read_data_files_in_search_paths, 1.3.239; the defaults of the XDG Base Directory specification).
test('unset or empty variables fall back to the XDG defaults under the home given', () => {
  const x = resolveXdgDirectories({ XDG_CONFIG_HOME: '' }, '/home/u');
  assert.deepEqual(x, {
    home: '/home/u',
    configHome: { value: '/home/u/.config', source: 'default' },
    dataHome: { value: '/home/u/.local/share', source: 'default' },
    stateHome: { value: '/home/u/.local/state', source: 'default' },
    configDirs: { value: ['/etc/xdg'], source: 'default' },
    dataDirs: { value: ['/usr/local/share', '/usr/share'], source: 'default' },
    runtimeDir: null,
  });
  assert.ok(XdgDirectoriesSchema.safeParse(x).success);
});

test('set variables win; lists split on ":" with empty entries skipped; only empty entries fall back', () => {
  const x = resolveXdgDirectories({ XDG_DATA_HOME: '/d', XDG_CONFIG_DIRS: ':/etc/a::/etc/b:', XDG_DATA_DIRS: '::', XDG_RUNTIME_DIR: '/run/user/1' }, '/home/u');
  assert.deepEqual(x.dataHome, { value: '/d', source: 'environment' });
  assert.deepEqual(x.configDirs, { value: ['/etc/a', '/etc/b'], source: 'environment' });
  assert.deepEqual(x.dataDirs, { value: ['/usr/local/share', '/usr/share'], source: 'default' });
  assert.equal(x.runtimeDir, '/run/user/1');
});

test("a relative XDG_STATE_HOME is ignored (XDG spec), so Strata's sessions folder never depends on the working folder", () => {
  assert.deepEqual(resolveXdgDirectories({ XDG_STATE_HOME: 'state' }, '/home/u').stateHome, { value: '/home/u/.local/state', source: 'default' });
  assert.deepEqual(resolveXdgDirectories({ XDG_STATE_HOME: '/s' }, '/home/u').stateHome, { value: '/s', source: 'environment' });
  assert.deepEqual(resolveXdgDirectories({ XDG_STATE_HOME: 'C:\\state' }, 'C:\\Users\\u').stateHome, { value: 'C:\\state', source: 'environment' });
  // The loader's own folders stay as the loader reads them.
  assert.equal(resolveXdgDirectories({ XDG_DATA_HOME: 'data' }, '/home/u').dataHome.value, 'data');
});
