import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { applyOverride, readOverrideStatus, removeOverride, sha256 } from '../../main/override/override-writer';
import {
  applyConfiguration,
  configurationLocations,
  readConfigurationStatus,
  removeConfiguration,
  type ConfigurationLocations,
} from '../../main/override/configuration-writer';
import { sweepDeadTemps, type FileOps } from '../../main/platform/atomic-file';
import { ProfileStore } from '../../main/profiles/profile-store';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * Issue #15, writes that tell the truth after a fault. Faults are injected through the writers'
 * FileOps seam (the only thing tests swap in): the tests run as root, so a read-only folder would not
 * stop a write, and ENOSPC/EROFS cannot be had on demand otherwise. The seam throws the real errno
 * error at one chosen file operation; every other operation is the real file system, and every
 * assertion reads the real disk.
 */
const ON: OverrideConfig = { layers: [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' }] };
const OFF: OverrideConfig = { layers: [{ name: 'VK_LAYER_MESA_device_select', state: 'off' }] };
const SETTINGS_A = 'khronos_validation.log_filename = /tmp/a.txt\n';
const SETTINGS_B = 'khronos_validation.log_filename = /tmp/b.txt\n';
const FOREIGN_OVERRIDE = '{"file_format_version":"1.1.2","layer":{"name":"VK_LAYER_LUNARG_override","type":"GLOBAL"}}';
const FOREIGN_SETTINGS = '# my own settings\nkhronos_validation.report_flags = error\n';

const locsOf = (home: TempHome): ConfigurationLocations => configurationLocations(false, home.env, home.dir);
const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** Both files as the user had them before Strata. */
function userFiles(locs: ConfigurationLocations) {
  mkdirSync(locs.override.dir, { recursive: true });
  mkdirSync(locs.settings!.dir, { recursive: true });
  writeFileSync(locs.override.file, FOREIGN_OVERRIDE);
  writeFileSync(locs.settings!.file, FOREIGN_SETTINGS);
}

const MUTATING = ['openSync', 'writeFileSync', 'fsyncSync', 'renameSync', 'unlinkSync', 'linkSync'] as const;

/** Real file operations, except that the `failAt`-th mutating one (and, with `sticky`, every later one) throws `code`. */
function faultAt(failAt: number, code: string, sticky = false): { ops: FileOps; count: () => number } {
  let n = 0;
  const ops = { ...fs } as unknown as Record<string, unknown>;
  for (const name of MUTATING) {
    const real = fs[name] as (...args: unknown[]) => unknown;
    ops[name] = (...args: unknown[]) => {
      // Opening for reading (the lock's liveness check, fsync of a folder) counts too: any call may fail.
      n++;
      if (n === failAt || (sticky && n > failAt)) throw Object.assign(new Error(`${code}: simulated`), { code, path: String(args[0]) });
      return real(...args);
    };
  }
  return { ops: ops as unknown as FileOps, count: () => n };
}

test(
  'a fault at every single file operation of a two-file apply: the message matches the disk, and surrender still restores the originals',
  withTempHome((home) => {
    const locs = locsOf(home);
    let points = 0;
    let rolledBack = 0;
    const setUp = () => {
      rmSync(locs.override.stateDir, { recursive: true, force: true });
      userFiles(locs);
      applyConfiguration(locs, { override: buildOverrideManifest(ON), settings: SETTINGS_A }, home.env, { force: true });
    };
    // How many file operations a clean second apply makes: each one gets its fault.
    setUp();
    const clean = faultAt(Number.POSITIVE_INFINITY, 'ENOSPC');
    applyConfiguration(locs, { override: buildOverrideManifest(OFF), settings: SETTINGS_B }, home.env, { ops: clean.ops });
    const total = clean.count();
    for (const code of ['ENOSPC', 'EROFS']) {
      for (let failAt = 1; failAt <= total; failAt++) {
        setUp();
        const before = { override: read(locs.override.file), settings: read(locs.settings!.file) };
        const { ops } = faultAt(failAt, code);
        let error: StrataRequestError | null = null;
        try {
          applyConfiguration(locs, { override: buildOverrideManifest(OFF), settings: SETTINGS_B }, home.env, { ops });
        } catch (e) {
          if (!(e instanceof StrataRequestError)) throw e;
          error = e;
        }
        if (!error) {
          // A fault the writer may ignore (sweeping a stale temp file): then the apply went through whole.
          assert.equal(read(locs.override.file), buildOverrideManifest(OFF), `${code}@${failAt}: no error, so the apply is complete`);
          assert.equal(read(locs.settings!.file), SETTINGS_B, `${code}@${failAt}`);
          continue;
        }
        points++;
        const message = error.error.message;
        const now = { override: read(locs.override.file), settings: read(locs.settings!.file) };
        for (const [key, label, path] of [
          ['override', 'override', locs.override.file],
          ['settings', 'layer settings file', locs.settings!.file],
        ] as const) {
          const changed = now[key] !== before[key];
          if (changed) assert.ok(message.includes(`${path} WAS changed`), `${code}@${failAt}: ${key} changed but the message does not say so: ${message}`);
          else
            assert.doesNotMatch(message, new RegExp(`${path.replace(/[.]/g, '\\.')} WAS changed`), `${code}@${failAt}: ${key} unchanged but reported changed`);
          if (!changed && !message.includes(`the ${label}`)) assert.match(message, /as they were|is as it was|put back/, `${code}@${failAt}: ${message}`);
        }
        if (/put back as it was/.test(message)) rolledBack++;
        // Whatever the fault left, the record accepts it and surrender goes back to the user's files.
        rmSync(locs.override.lockFile, { force: true });
        const status = readConfigurationStatus(locs, home.env);
        assert.equal(status.ownership, 'strata', `${code}@${failAt}: ${message}`);
        assert.equal(status.settings?.ownership, 'strata', `${code}@${failAt}: ${message}`);
        removeConfiguration(locs, home.env);
        assert.equal(read(locs.override.file), FOREIGN_OVERRIDE, `${code}@${failAt}: the original override is back`);
        assert.equal(read(locs.settings!.file), FOREIGN_SETTINGS, `${code}@${failAt}: the original settings file is back`);
      }
    }
    console.log(`# file operations in one apply: ${total}; fault points: ${points}, settings file rolled back after the override failed: ${rolledBack}`);
    assert.ok(points > 20, `only ${points} fault points`);
    assert.ok(rolledBack > 0, 'some faults hit the override after the settings file was written');
  }),
);

test(
  'a crash (the process killed) before any file operation of a two-file apply: the next Strata accepts both files and surrender restores the originals',
  withTempHome((home) => {
    const locs = locsOf(home);
    let points = 0;
    for (let crashAt = 1; ; crashAt++) {
      rmSync(locs.override.stateDir, { recursive: true, force: true });
      userFiles(locs);
      applyConfiguration(locs, { override: buildOverrideManifest(ON), settings: SETTINGS_A }, home.env, { force: true });
      // From the crashAt-th operation on, every call fails: the process is gone, nothing more runs.
      let n = 0;
      const ops = { ...fs } as unknown as Record<string, unknown>;
      for (const name of [...MUTATING, 'readFileSync', 'readdirSync', 'existsSync', 'mkdirSync', 'closeSync'] as const) {
        const real = fs[name] as (...args: unknown[]) => unknown;
        ops[name] = (...args: unknown[]) => {
          if (++n >= crashAt) throw Object.assign(new Error('simulated crash'), { crash: true });
          return real(...args);
        };
      }
      try {
        applyConfiguration(locs, { override: buildOverrideManifest(OFF), settings: SETTINGS_B }, home.env, { ops: ops as unknown as FileOps });
        break;
      } catch (e) {
        if ((e as { crash?: boolean }).crash !== true) throw e;
      }
      points++;
      rmSync(locs.override.lockFile, { force: true }); // the dead writer's lock, as the stale-lock check would break it
      const status = readConfigurationStatus(locs, home.env);
      assert.equal(status.ownership, 'strata', `crash at ${crashAt}`);
      assert.equal(status.settings?.ownership, 'strata', `crash at ${crashAt}`);
      removeConfiguration(locs, home.env);
      assert.equal(read(locs.override.file), FOREIGN_OVERRIDE, `crash at ${crashAt}`);
      assert.equal(read(locs.settings!.file), FOREIGN_SETTINGS, `crash at ${crashAt}`);
    }
    assert.ok(points > 20, `only ${points} crash points`);
  }),
);

test(
  'the override write fails after the settings file was written: the settings file is put back and the message says so',
  withTempHome((home) => {
    const locs = locsOf(home);
    userFiles(locs);
    applyConfiguration(locs, { override: buildOverrideManifest(ON), settings: SETTINGS_A }, home.env, { force: true });
    // ENOSPC on the rename into the override file only.
    const ops = { ...fs } as unknown as Record<string, unknown>;
    ops['renameSync'] = (from: string, to: string) => {
      if (to === locs.override.file) throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC', path: to });
      return fs.renameSync(from, to);
    };
    assert.throws(
      () => applyConfiguration(locs, { override: buildOverrideManifest(OFF), settings: SETTINGS_B }, home.env, { ops: ops as unknown as FileOps }),
      (e: unknown) =>
        e instanceof StrataRequestError &&
        e.error.code === 'override/no-space' &&
        /the layer settings file was already written and has been put back as it was; the override file is as it was/.test(e.error.message),
    );
    assert.equal(read(locs.settings!.file), SETTINGS_A);
    assert.equal(read(locs.override.file), buildOverrideManifest(ON));
    assert.equal(readConfigurationStatus(locs, home.env).settings?.ownership, 'strata');

    // When putting it back fails too (the disk stays full), the message names the changed file.
    let overrideTried = false;
    ops['renameSync'] = (from: string, to: string) => {
      if (to === locs.override.file) overrideTried = true;
      if (to === locs.override.file || (overrideTried && to === locs.settings!.file))
        throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC', path: to });
      return fs.renameSync(from, to);
    };
    assert.throws(
      () => applyConfiguration(locs, { override: buildOverrideManifest(OFF), settings: SETTINGS_B }, home.env, { ops: ops as unknown as FileOps }),
      (e: unknown) =>
        e instanceof StrataRequestError &&
        e.error.message.includes(`${locs.settings!.file} WAS changed (putting it back failed too: ENOSPC)`) &&
        /the override file is as it was/.test(e.error.message),
    );
    assert.equal(read(locs.settings!.file), SETTINGS_B, 'the disk is what the message says');
    removeConfiguration(locs, home.env);
    assert.equal(read(locs.settings!.file), FOREIGN_SETTINGS);
    assert.equal(read(locs.override.file), FOREIGN_OVERRIDE);
  }),
);

test(
  'a record naming another file (with its hash) is refused, never followed: the file stays where it is',
  withTempHome((home) => {
    const locs = locsOf(home);
    const secret = join(home.dir, 'precious.txt');
    writeFileSync(secret, 'the user own file\n');
    applyOverride(locs.override, buildOverrideManifest(ON));
    const record = JSON.parse(readFileSync(locs.override.recordFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(locs.override.recordFile, JSON.stringify({ ...record, original: { sha256: sha256(readFileSync(secret)), backup: secret } }));
    for (const attempt of [
      () => removeOverride(locs.override),
      () => removeOverride(locs.override, { force: true }),
      () => readOverrideStatus(locs.override),
    ]) {
      assert.throws(attempt, (e: unknown) => e instanceof StrataRequestError && e.error.code === 'override/record-unreadable');
    }
    assert.equal(readFileSync(secret, 'utf8'), 'the user own file\n', 'not moved, not deleted');
    assert.equal(read(locs.override.file), buildOverrideManifest(ON), 'the override is untouched');
    // Through the CLI as well: refused, exit 1.
    const cli = spawnSync(process.execPath, [join(process.cwd(), 'bin', 'strata'), 'override', 'remove'], { env: home.env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(cli.status, 1, cli.stderr);
    assert.match(cli.stderr, /damaged or is for another file/);
    assert.ok(existsSync(secret));
  }),
);

test(
  'a symbolic link is kept as a link: apply does not write through it, surrender makes it a link again; a dangling link needs --force',
  withTempHome((home) => {
    const locs = locsOf(home);
    const loc = locs.override;
    mkdirSync(loc.dir, { recursive: true });
    const mine = join(home.dir, 'my-override.json');
    writeFileSync(mine, FOREIGN_OVERRIDE);
    symlinkSync(mine, loc.file);
    applyOverride(loc, buildOverrideManifest(ON), { force: true });
    assert.equal(readFileSync(mine, 'utf8'), FOREIGN_OVERRIDE, 'the link target was not written through');
    assert.ok(!lstatSync(loc.file).isSymbolicLink());
    assert.equal(removeOverride(loc).action, 'restored');
    assert.ok(lstatSync(loc.file).isSymbolicLink(), 'a link again');
    assert.equal(readlinkSync(loc.file), mine);

    rmSync(loc.file);
    symlinkSync(join(home.dir, 'not-yet.json'), loc.file);
    assert.throws(
      () => applyOverride(loc, buildOverrideManifest(ON)),
      (e: unknown) =>
        e instanceof StrataRequestError &&
        e.error.code === 'override/not-strata-file' &&
        /is a symbolic link to .*not-yet\.json, which does not exist/.test(e.error.message),
    );
    assert.equal(readlinkSync(loc.file), join(home.dir, 'not-yet.json'), 'refused: the dangling link is untouched');
    applyOverride(loc, buildOverrideManifest(ON), { force: true });
    removeOverride(loc);
    assert.equal(readlinkSync(loc.file), join(home.dir, 'not-yet.json'), 'surrender restores the dangling link');
  }),
);

test(
  'temp files of killed writes are swept (their pid is gone); a live writer temp is left alone',
  withTempHome((home) => {
    const store = new ProfileStore({ dir: join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles') });
    mkdirSync(store.dir, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const deadTemp = `.x.json.${dead}.0123abcd.tmp`;
    const liveTemp = `.y.json.${process.ppid}.89abcdef.tmp`;
    writeFileSync(join(store.dir, deadTemp), '{"half":');
    writeFileSync(join(store.dir, liveTemp), '{"half":');
    store.create({ schemaVersion: 2, name: 'after-a-crash', layers: [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' }] });
    const left = fs.readdirSync(store.dir);
    assert.ok(!left.includes(deadTemp), 'the killed writer temp is gone');
    assert.ok(left.includes(liveTemp), 'a running writer temp stays');
    assert.deepEqual(sweepDeadTemps(store.dir), []);
  }),
);
