import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strataUserDirs, windowsLocalAppData } from '../../main/platform/user-dirs';
import { profilesDir } from '../../main/profiles/profile-store';
import { applicationsFile } from '../../main/profiles/application-store';
import { sessionsDir } from '../../main/sessions/session-store';

/**
 * main/platform/user-dirs.ts: Strata's own folders per platform. Linux: the XDG Base Directory
 * spec, the XDG variables first; Windows: %APPDATA%\Strata and %LOCALAPPDATA%\Strata\state, whatever
 * XDG variables say (a Unix-style XDG_CONFIG_HOME under Windows Node became `\tmp\…\.config`, a
 * folder on the current drive, before).
 */

test('Linux: the XDG defaults under HOME, and the XDG variables when set (absolute)', () => {
  assert.deepEqual(strataUserDirs({}, '/home/u', 'linux'), {
    config: '/home/u/.config/strata',
    state: '/home/u/.local/state/strata',
    cache: '/home/u/.cache/strata',
  });
  assert.deepEqual(strataUserDirs({ XDG_CONFIG_HOME: '/c', XDG_STATE_HOME: '/s', XDG_CACHE_HOME: '/k' }, '/home/u', 'linux'), {
    config: '/c/strata',
    state: '/s/strata',
    cache: '/k/strata',
  });
  // The XDG spec: a relative value is ignored.
  assert.deepEqual(strataUserDirs({ XDG_CONFIG_HOME: 'rel' }, '/home/u', 'linux').config, '/home/u/.config/strata');
  assert.deepEqual(strataUserDirs({ XDG_CACHE_HOME: 'rel' }, '/home/u', 'linux').cache, '/home/u/.cache/strata');
});

test('Windows: %APPDATA%\\Strata for configuration, %LOCALAPPDATA%\\Strata\\state for records; XDG variables are not read', () => {
  const env = { APPDATA: 'C:\\Users\\u\\AppData\\Roaming', LOCALAPPDATA: 'D:\\Local', XDG_CONFIG_HOME: '/tmp/x/.config', XDG_STATE_HOME: '/tmp/x/state' };
  assert.deepEqual(strataUserDirs(env, 'C:\\Users\\u', 'win32'), {
    config: 'C:\\Users\\u\\AppData\\Roaming\\Strata',
    state: 'D:\\Local\\Strata\\state',
    cache: 'D:\\Local\\Strata\\cache',
  });
});

test('Windows without APPDATA / LOCALAPPDATA: their defaults under USERPROFILE, else under the home folder given', () => {
  assert.deepEqual(strataUserDirs({ USERPROFILE: 'C:\\Users\\v' }, 'C:\\ignored', 'win32'), {
    config: 'C:\\Users\\v\\AppData\\Roaming\\Strata',
    state: 'C:\\Users\\v\\AppData\\Local\\Strata\\state',
    cache: 'C:\\Users\\v\\AppData\\Local\\Strata\\cache',
  });
  assert.equal(windowsLocalAppData({}, 'C:\\Users\\w'), 'C:\\Users\\w\\AppData\\Local');
  assert.equal(windowsLocalAppData({ LOCALAPPDATA: 'E:\\L' }, 'C:\\Users\\w'), 'E:\\L');
});

test("the stores' files on this platform come from it: profiles and applications under config, sessions under state", () => {
  const env = { XDG_CONFIG_HOME: '/cfg', XDG_STATE_HOME: '/st', HOME: '/home/u' };
  const dirs = strataUserDirs(env, '/home/u');
  assert.equal(profilesDir(env, '/home/u'), `${dirs.config}/profiles`);
  assert.equal(applicationsFile(env, '/home/u'), `${dirs.config}/applications.json`);
  assert.equal(sessionsDir(env), `${dirs.state}/sessions`);
});
