import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { planValidationRouting, sweepStaleLaunchDirs, type RoutingPlan } from '../../main/sessions/validation-routing';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/sessions/validation-routing.ts: how the validation layer's messages reach Strata for one
 * launch. With nothing in the way, a FIFO and a settings file that routes the log into it (the
 * user's own settings kept); with vkconfig's settings file present (the layer reads it first), the
 * application's stdout, and the note says why; off, nothing — except a profile's settings. A
 * settings file too big to read is named, not read. Each plan's folder is removed by its cleanup,
 * and a dead Strata's folders by the next launch. The FIFO is a real one (mkfifo).
 */
function plan(home: TempHome, options: Partial<Parameters<typeof planValidationRouting>[0]> = {}): RoutingPlan {
  return planValidationRouting({ env: home.env, cwd: home.dir, home: home.dir, enabled: true, ...options });
}

function withHome(fn: (home: TempHome, plans: RoutingPlan[]) => void) {
  return () => {
    const home = makeTempHome();
    const plans: RoutingPlan[] = [];
    try {
      fn(home, plans);
    } finally {
      for (const p of plans) p.cleanup();
      home.cleanup();
    }
  };
}

const settingsOf = (p: RoutingPlan) => readFileSync(p.env['VK_LAYER_SETTINGS_PATH']!, 'utf8');

test(
  'off: no variables, no folder; cleanup is harmless',
  withHome((home) => {
    const p = plan(home, { enabled: false });
    assert.deepEqual([p.mode, p.note, p.env, p.fifoPath], ['off', null, {}, null]);
    p.cleanup();
  }),
);

test(
  'fifo: a real FIFO (0600) and a settings file that logs to it; cleanup removes both',
  withHome((home, plans) => {
    const p = plan(home);
    plans.push(p);
    assert.equal(p.mode, 'fifo');
    assert.ok(p.fifoPath);
    const st = statSync(p.fifoPath);
    assert.ok(st.isFIFO());
    assert.equal(st.mode & 0o777, 0o600);
    const text = settingsOf(p);
    assert.match(text, new RegExp(`^khronos_validation\\.log_filename = ${p.fifoPath.replace(/[.]/g, '\\.')}$`, 'm'));
    assert.match(text, /^khronos_validation\.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG$/m);
    assert.equal(dirname(p.env['VK_LAYER_SETTINGS_PATH']!), dirname(p.fifoPath));
    assert.match(dirname(p.fifoPath), new RegExp(`strata-launch-${process.pid}-`));
    p.cleanup();
    assert.equal(existsSync(dirname(p.fifoPath)), false);
  }),
);

test(
  "the user's settings (VK_LAYER_SETTINGS_PATH as a file or a folder, else the working folder's) are kept, their log routing replaced",
  withHome((home, plans) => {
    const user = join(home.dir, 'mine');
    mkdirSync(user);
    writeFileSync(
      join(user, 'vk_layer_settings.txt'),
      'khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT\nkhronos_validation.log_filename = /tmp/elsewhere.txt\nkhronos_validation.debug_action = VK_DBG_LAYER_ACTION_IGNORE,VK_DBG_LAYER_ACTION_BREAK\n',
    );
    for (const where of [user, join(user, 'vk_layer_settings.txt')]) {
      const p = plan(home, { env: { ...home.env, VK_LAYER_SETTINGS_PATH: where } });
      plans.push(p);
      const text = settingsOf(p);
      assert.match(text, /SYNCHRONIZATION_VALIDATION/);
      assert.doesNotMatch(text, /elsewhere/);
      assert.match(text, /^khronos_validation\.debug_action = VK_DBG_LAYER_ACTION_BREAK,VK_DBG_LAYER_ACTION_LOG_MSG$/m);
      assert.match(p.note ?? '', /Your layer settings from .*mine\/vk_layer_settings\.txt are kept/);
    }
    const inCwd = plan(home, { cwd: user });
    plans.push(inCwd);
    assert.match(settingsOf(inCwd), /SYNCHRONIZATION_VALIDATION/);
    const missing = plan(home, { env: { ...home.env, VK_LAYER_SETTINGS_PATH: join(home.dir, 'nothing-here') } });
    plans.push(missing);
    assert.equal(missing.note, null);
    assert.doesNotMatch(settingsOf(missing), /SYNCHRONIZATION/);
  }),
);

test(
  "vkconfig's settings file shadows VK_LAYER_SETTINGS_PATH: stdout, and the note names the file and where it sends the messages",
  withHome((home, plans) => {
    const vkconfig = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'settings.d', 'vk_layer_settings.txt');
    mkdirSync(dirname(vkconfig), { recursive: true });
    writeFileSync(vkconfig, 'khronos_validation.log_filename = /tmp/vkconfig-log.txt\n');
    const p = plan(home);
    plans.push(p);
    assert.deepEqual([p.mode, p.fifoPath, p.env], ['stdout', null, {}]);
    assert.match(p.note ?? '', new RegExp(`${vkconfig.replace(/[.]/g, '\\.')} takes precedence over VK_LAYER_SETTINGS_PATH`));
    assert.match(p.note ?? '', /that file sends them to \/tmp\/vkconfig-log\.txt, so they are not in this session/);

    // A profile's settings are still written for the launch (other layers read them), with a warning.
    const withProfile = plan(home, { profileSettings: 'khronos_validation.validate_sync = true\n' });
    plans.push(withProfile);
    assert.equal(withProfile.mode, 'stdout');
    assert.equal(settingsOf(withProfile), 'khronos_validation.validate_sync = true\n');
    assert.match(withProfile.note ?? '', /the profile's layer settings are not seen by layers that read/);
  }),
);

test(
  "a profile's settings replace the user's for the launch; routing off still writes them",
  withHome((home, plans) => {
    writeFileSync(join(home.dir, 'vk_layer_settings.txt'), 'user.setting = 1\n');
    const p = plan(home, { profileSettings: 'profile.setting = 2\n' });
    plans.push(p);
    const text = settingsOf(p);
    assert.match(text, /profile\.setting = 2/);
    assert.doesNotMatch(text, /user\.setting/);
    const off = plan(home, { enabled: false, profileSettings: 'profile.setting = 3\n' });
    plans.push(off);
    assert.deepEqual([off.mode, off.fifoPath, settingsOf(off)], ['off', null, 'profile.setting = 3\n']);
  }),
);

test(
  'a settings file over the read limit is named in the note and not read',
  withHome((home, plans) => {
    const big = join(home.dir, 'big.txt');
    writeFileSync(big, '');
    truncateSync(big, 9 << 20);
    const p = plan(home, { env: { ...home.env, VK_LAYER_SETTINGS_PATH: big } });
    plans.push(p);
    assert.equal(p.mode, 'fifo');
    assert.match(p.note ?? '', /big\.txt.*so Strata did not read it/);
    assert.ok(settingsOf(p).length < 1000);
  }),
);

test("sweep: removes launch folders of processes that are gone, keeps its own, a live process's and anything else", () => {
  const root = mkdtempSync(join(tmpdir(), 'strata-sweep-'));
  try {
    const names = [`strata-launch-99999999-dead`, `strata-launch-${process.pid}-mine`, `strata-launch-${process.ppid}-alive`, 'strata-launch-x-odd', 'other'];
    for (const n of names) mkdirSync(join(root, n));
    sweepStaleLaunchDirs(root);
    assert.deepEqual(
      names.filter((n) => existsSync(join(root, n))),
      names.slice(1),
    );
    sweepStaleLaunchDirs(join(root, 'missing'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test(
  "Windows: a settings file registered under …\\Khronos\\Vulkan\\Settings hides the profile's (read before VK_LAYER_SETTINGS_PATH), and the note says how to let it count",
  withHome((home, plans) => {
    const registered = 'C:\\ProgramData\\Strata\\settings\\vk_layer_settings.txt';
    const hidden = plan(home, { platform: 'win32', registeredSettingsFile: registered, profileSettings: 'khronos_validation.validate_sync = true\n' });
    plans.push(hidden);
    assert.equal(hidden.mode, 'stdout', 'on Windows the messages are read from stdout');
    assert.match(hidden.note ?? '', /not seen by layers that find C:\\ProgramData\\Strata\\settings\\vk_layer_settings\.txt through the registry/);
    assert.match(hidden.note ?? '', /strata override remove/);
    assert.equal(settingsOf(hidden), 'khronos_validation.validate_sync = true\n', 'the profile settings are still handed over (VK_LAYER_SETTINGS_PATH)');

    const none = plan(home, { platform: 'win32', registeredSettingsFile: null, profileSettings: 'khronos_validation.validate_sync = true\n' });
    plans.push(none);
    assert.doesNotMatch(none.note ?? '', /not seen/, 'nothing registered: the profile settings count');
    const linux = plan(home, { platform: 'linux', registeredSettingsFile: registered, profileSettings: 'x.y = 1\n' });
    plans.push(linux);
    assert.doesNotMatch(linux.note ?? '', /registry/, 'the registry is a Windows matter');
  }),
);
