import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { layerSettingsFromManifest } from '../../shared/settings/settings-schema';
import { settingsEnvironment } from '../../shared/settings/settings-output';
import { overrideApply, overridePreview, overrideRemove, overrideStatus } from '../../main/override/override-service';
import {
  applyConfiguration,
  configurationLocations,
  readConfigurationStatus,
  removeConfiguration,
  type ConfigurationLocations,
} from '../../main/override/configuration-writer';
import { sha256 } from '../../main/override/override-writer';
import type { FileOps } from '../../main/platform/atomic-file';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * Strata's vk_layer_settings.txt against the real Khronos validation layer 1.3.239 under lavapipe:
 * where it is read from, that a setting Strata writes changes what the layer does, that the
 * environment variables Strata shows are the ones the layer reads, and the writer's guarantees
 * (foreign file, changed since, surrender, crash at any file operation) for the second file.
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const VALIDATION_MANIFEST = '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json';
/** The error the probe provokes: vkCreateBuffer with size 0. */
const VUID = 'VUID-VkBufferCreateInfo-size-00912';

const PROBE_SOURCE = `#include <stdio.h>
#include <vulkan/vulkan.h>
int main(void) {
  VkApplicationInfo ai = {VK_STRUCTURE_TYPE_APPLICATION_INFO, 0, "strata-settings-probe", 1, "strata", 1, VK_API_VERSION_1_1};
  VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, 0, 0, &ai, 0, 0, 0, 0};
  VkInstance inst;
  if (vkCreateInstance(&ci, 0, &inst)) { printf("no instance\\n"); return 3; }
  uint32_t n = 1; VkPhysicalDevice pd;
  if (vkEnumeratePhysicalDevices(inst, &n, &pd) < 0 || n == 0) { printf("no device\\n"); return 4; }
  float prio = 1; VkDeviceQueueCreateInfo q = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, 0, 0, 0, 1, &prio};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, 0, 0, 1, &q};
  VkDevice dev;
  if (vkCreateDevice(pd, &dci, 0, &dev)) { printf("no device\\n"); return 5; }
  VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, 0, 0, 0, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_SHARING_MODE_EXCLUSIVE, 0, 0};
  VkBuffer b;
  if (vkCreateBuffer(dev, &bi, 0, &b) == VK_SUCCESS) vkDestroyBuffer(dev, b, 0);
  vkDestroyDevice(dev, 0); vkDestroyInstance(inst, 0);
  printf("probe done\\n");
  return 0;
}
`;

const work = mkdtempSync(join(tmpdir(), 'strata-settings-'));
after(() => rmSync(work, { recursive: true, force: true }));

let probePath: string | undefined;
function probe(): string {
  if (!probePath) {
    for (const need of [LAVAPIPE, VALIDATION_MANIFEST])
      assert.ok(existsSync(need), `${need} is missing (mesa-vulkan-drivers and vulkan-validationlayers are needed)`);
    writeFileSync(join(work, 'settings-probe.c'), PROBE_SOURCE);
    probePath = join(work, 'settings-probe');
    execFileSync('gcc', ['-O1', '-Wall', '-o', probePath, join(work, 'settings-probe.c'), '-lvulkan'], { stdio: 'pipe' });
  }
  return probePath;
}

interface ProbeRun {
  code: number | null;
  stdout: string;
  /** The validation layer reported the provoked error on stdout (its default log target). */
  reportedOnStdout: boolean;
}

function runProbe(env: NodeJS.ProcessEnv, cwd = work): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(probe(), [], { env: { ...env, VK_DRIVER_FILES: LAVAPIPE }, cwd, encoding: 'utf8', timeout: 30_000 }, (e, stdout) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, reportedOnStdout: stdout.includes(VUID) });
    });
  });
}

const settingsFileOf = (home: TempHome) => join(home.env['XDG_DATA_HOME']!, 'vulkan', 'settings.d', 'vk_layer_settings.txt');
const overrideFileOf = (home: TempHome) => join(home.env['XDG_DATA_HOME']!, 'vulkan', 'implicit_layer.d', 'VkLayer_override.json');
const locsOf = (home: TempHome): ConfigurationLocations => configurationLocations(false, home.env, home.dir);
const withLayer = (env: NodeJS.ProcessEnv) => ({ ...env, VK_INSTANCE_LAYERS: VALIDATION });

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<StrataRequestError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof StrataRequestError) return e;
    throw e;
  }
  assert.fail('expected a refusal');
}

test(
  'a setting Strata writes changes what the real validation layer does: log_filename sends its report to that file; surrender brings back the default (stdout)',
  withTempHome(async (home) => {
    const baseline = await runProbe(withLayer(home.env));
    assert.equal(baseline.code, 0, baseline.stdout);
    assert.ok(baseline.reportedOnStdout, `without settings the layer reports on stdout:\n${baseline.stdout}`);

    const log = join(home.dir, 'vvl-report.txt');
    const config: OverrideConfig = { layers: [{ name: VALIDATION, state: 'on' }], settings: { [VALIDATION]: { log_filename: log } } };
    const r = await overrideApply({ env: home.env }, { config });
    assert.equal(r.action, 'created');
    assert.equal(r.settings?.action, 'created');
    assert.equal(r.settings?.path, settingsFileOf(home), 'the per-user file the layer reads first');
    const text = readFileSync(settingsFileOf(home), 'utf8');
    assert.match(text, new RegExp(`^khronos_validation\\.log_filename = ${log.replace(/[.]/g, '\\.')}$`, 'm'));
    assert.match(text, /^khronos_validation\.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG$/m);

    // No VK_INSTANCE_LAYERS: the override forces the layer on, and the layer reads Strata's settings.
    const run = await runProbe(home.env);
    assert.equal(run.code, 0, run.stdout);
    assert.ok(!run.reportedOnStdout, `the report left stdout:\n${run.stdout}`);
    assert.ok(existsSync(log) && readFileSync(log, 'utf8').includes(VUID), `the layer wrote its report to ${log}`);

    const removed = overrideRemove({ env: home.env }, {});
    assert.equal(removed.action, 'deleted');
    assert.equal(removed.settings?.action, 'removed');
    assert.ok(!existsSync(settingsFileOf(home)) && !existsSync(overrideFileOf(home)));
    const back = await runProbe(withLayer(home.env));
    assert.ok(back.reportedOnStdout, 'after surrender the layer reports on stdout again');
  }),
);

test(
  'settings alone are a configuration: no override file, and a layer the application enables still reads them (message_id_filter, a LIST, comma-separated in the file)',
  withTempHome(async (home) => {
    const r = await overrideApply(
      { env: home.env },
      { config: { layers: [], settings: { [VALIDATION]: { message_id_filter: ['VUID-not-this-one', VUID] } } } },
    );
    assert.equal(r.action, 'unchanged');
    assert.ok(!existsSync(overrideFileOf(home)), 'no override file for a settings-only configuration');
    assert.match(readFileSync(settingsFileOf(home), 'utf8'), new RegExp(`^khronos_validation\\.message_id_filter = VUID-not-this-one,${VUID}$`, 'm'));
    const run = await runProbe(withLayer(home.env));
    assert.equal(run.code, 0, run.stdout);
    assert.ok(!run.reportedOnStdout, `the filtered message is muted:\n${run.stdout}`);
  }),
);

test(
  'the environment variables Strata shows are the ones the layer reads: VK_LAYER_MESSAGE_ID_FILTER, list items joined with ":" (a "," join is read as one item)',
  withTempHome(async (home) => {
    const description = layerSettingsFromManifest(readFileSync(VALIDATION_MANIFEST, 'utf8'), VALIDATION)!;
    const vars = settingsEnvironment({ description, values: { message_id_filter: ['VUID-not-this-one', VUID] } }, { platform: 'LINUX' });
    const filter = vars.find((v) => v.key === 'message_id_filter');
    assert.deepEqual(filter, { name: 'VK_LAYER_MESSAGE_ID_FILTER', value: `VUID-not-this-one:${VUID}`, layerName: VALIDATION, key: 'message_id_filter' });
    const env = Object.fromEntries(vars.map((v) => [v.name, v.value]));
    const muted = await runProbe({ ...withLayer(home.env), ...env });
    assert.ok(!muted.reportedOnStdout, `muted through the variables Strata lists:\n${muted.stdout}`);
    const comma = await runProbe({ ...withLayer(home.env), VK_LAYER_MESSAGE_ID_FILTER: `VUID-not-this-one,${VUID}` });
    assert.ok(comma.reportedOnStdout, 'a comma-joined variable is one item to the layer, so the message is not muted');
  }),
);

test(
  "VK_LAYER_SETTINGS_PATH: Strata says its file hides the one the variable names, and the real layer indeed ignores that one while Strata's exists",
  withTempHome(async (home) => {
    const theirs = join(home.dir, 'their-settings.txt');
    const theirLog = join(home.dir, 'their-log.txt');
    const ourLog = join(home.dir, 'our-log.txt');
    writeFileSync(theirs, `khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\nkhronos_validation.log_filename = ${theirLog}\n`);
    const env = { ...home.env, VK_LAYER_SETTINGS_PATH: theirs };
    const before = await runProbe(withLayer(env));
    assert.ok(!before.reportedOnStdout && existsSync(theirLog), 'their file is read while Strata has none');
    rmSync(theirLog);

    const r = await overrideApply({ env }, { config: { layers: [], settings: { [VALIDATION]: { log_filename: ourLog } } } });
    assert.deepEqual(
      r.settings?.hides.map((h) => [h.path, h.origin]),
      [[theirs, 'VK_LAYER_SETTINGS_PATH']],
    );
    assert.match(r.settings!.hides[0]!.reason, /ignore/);
    assert.deepEqual(
      overrideStatus({ env }, {}).settings?.hides.map((h) => h.path),
      [theirs],
    );
    await runProbe(withLayer(env));
    assert.ok(existsSync(ourLog) && !existsSync(theirLog), "the layer read Strata's file, not the variable's");
  }),
);

test(
  'a hand-written settings file is not replaced silently: apply refuses with the diff and writes neither file; --force keeps it, and surrender restores it byte for byte',
  withTempHome(async (home) => {
    const file = settingsFileOf(home);
    mkdirSync(dirname(file), { recursive: true });
    const handWritten = '# mine\nkhronos_validation.report_flags = error,warn\n';
    writeFileSync(file, handWritten);
    const config: OverrideConfig = { layers: [{ name: VALIDATION, state: 'on' }], settings: { [VALIDATION]: { duplicate_message_limit: 3 } } };

    const preview = await overridePreview({ env: home.env }, { config });
    const settingsPreview = preview.files.find((f) => f.role === 'settings')!;
    assert.equal(preview.needsForce, true);
    assert.deepEqual([settingsPreview.action, settingsPreview.ownership, settingsPreview.before], ['replace', 'foreign', handWritten]);

    const e = await refusal(overrideApply({ env: home.env }, { config }));
    assert.equal(e.error.code, 'override/not-strata-file');
    assert.match(e.error.message, /not written by Strata \(another tool's or a person's layer settings file\)/);
    assert.match(e.error.fix ?? '', /^-khronos_validation\.report_flags = error,warn$/m);
    assert.match(e.error.fix ?? '', /^\+khronos_validation\.duplicate_message_limit = 3$/m);
    assert.equal(readFileSync(file, 'utf8'), handWritten);
    assert.ok(!existsSync(overrideFileOf(home)), 'nothing half-applied: the override was not written either');

    const forced = await overrideApply({ env: home.env }, { config, force: true });
    assert.equal(forced.settings?.before, 'foreign');
    assert.ok(forced.settings?.originalBackup, 'the hand-written file is kept');
    const removed = overrideRemove({ env: home.env }, {});
    assert.equal(removed.settings?.action, 'removed');
    assert.equal(readFileSync(file, 'utf8'), handWritten, 'surrender restores the hand-written file exactly');
    assert.equal(readConfigurationStatus(locsOf(home), home.env).settings?.ownership, 'foreign');
    // A configuration without settings leaves a person's file alone.
    const again = await overrideApply({ env: home.env }, { config: { layers: [{ name: VALIDATION, state: 'on' }] } });
    assert.equal(again.settings?.action, 'nothing');
    assert.equal(readFileSync(file, 'utf8'), handWritten);
  }),
);

test(
  'changed since Strata wrote it: apply and surrender refuse with the diff, status shows it, --force goes ahead with a copy kept',
  withTempHome(async (home) => {
    const config: OverrideConfig = { layers: [], settings: { [VALIDATION]: { report_flags: ['error', 'warn'] } } };
    await overrideApply({ env: home.env }, { config });
    const file = settingsFileOf(home);
    writeFileSync(file, readFileSync(file, 'utf8').replace('= error,warn', '= error,warn,perf'));
    const status = overrideStatus({ env: home.env }, {});
    assert.equal(status.settings?.ownership, 'modified');
    assert.match(status.settings?.diff ?? '', /^\+khronos_validation\.report_flags = error,warn,perf$/m);
    const e = await refusal(overrideApply({ env: home.env }, { config: { layers: [], settings: { [VALIDATION]: { report_flags: ['error'] } } } }));
    assert.match(e.message, /was changed since Strata wrote it/);
    const r = await refusal(() => overrideRemove({ env: home.env }, {}));
    assert.match(r.error.fix ?? '', /--force/);
    const forced = overrideRemove({ env: home.env }, { force: true });
    assert.equal(forced.settings?.action, 'removed');
    assert.match(readFileSync(forced.settings!.backup!, 'utf8'), /error,warn,perf/);
    assert.ok(!existsSync(file));
  }),
);

test(
  'values that do not fit their setting, and settings for the system scope, are refused before anything is written',
  withTempHome(async (home) => {
    const bad = await refusal(
      overrideApply(
        { env: home.env },
        { config: { layers: [{ name: VALIDATION, state: 'on' }], settings: { [VALIDATION]: { duplicate_message_limit: 0, log_filenam: 'x' } } } },
      ),
    );
    assert.equal(bad.error.code, 'settings/invalid-value');
    assert.match(bad.error.message, /must be at least 1 \(and 1 more problem\)/);
    assert.ok(!existsSync(overrideFileOf(home)) && !existsSync(settingsFileOf(home)));
    const system = await refusal(() =>
      applyConfiguration(configurationLocations(true, home.env, home.dir), { override: null, settings: 'x.y = 1\n' }, home.env, { uid: 0 }),
    );
    assert.equal(system.error.code, 'override/settings-need-user');
  }),
);

/** Every file operation counted; the one numbered `crashAt` (and any after it) throws, as if Strata died there. */
function dyingOps(crashAt: number): FileOps {
  let n = 0;
  const ops = {} as Record<string, unknown>;
  for (const name of [
    'openSync',
    'writeFileSync',
    'fsyncSync',
    'closeSync',
    'renameSync',
    'unlinkSync',
    'readFileSync',
    'mkdirSync',
    'linkSync',
    'readdirSync',
    'existsSync',
  ] as const) {
    const real = fs[name] as (...args: unknown[]) => unknown;
    ops[name] = (...args: unknown[]) => {
      if (++n >= crashAt) throw Object.assign(new Error('simulated crash'), { crash: true });
      return real(...args);
    };
  }
  return ops as unknown as FileOps;
}

test(
  'a crash before any file operation of apply or surrender leaves each file whole (old or new), the next Strata accepts the state, and surrender still restores the hand-written settings file',
  withTempHome((home) => {
    const locs = locsOf(home);
    const settings = locs.settings!;
    const handWritten = 'khronos_validation.report_flags = info\n';
    const texts = [
      { override: buildOverrideManifest({ layers: [{ name: VALIDATION, state: 'on' }] }), settings: 'khronos_validation.report_flags = error\n' },
      { override: null, settings: 'khronos_validation.report_flags = warn\n' },
    ];
    const validSettings = new Set([handWritten, ...texts.map((t) => t.settings)].map(sha256));
    const validOverride = new Set(texts.flatMap((t) => (t.override ? [sha256(t.override)] : [])));
    let points = 0;
    for (const step of ['apply over the hand-written file', 'second apply', 'surrender'] as const) {
      for (let crashAt = 1; ; crashAt++) {
        for (const d of [locs.override.dir, settings.dir, locs.override.stateDir]) rmSync(d, { recursive: true, force: true });
        mkdirSync(settings.dir, { recursive: true });
        writeFileSync(settings.file, handWritten);
        if (step !== 'apply over the hand-written file') applyConfiguration(locs, texts[0]!, home.env, { force: true });
        let crashed = false;
        try {
          if (step === 'surrender') removeConfiguration(locs, home.env, { ops: dyingOps(crashAt) });
          else applyConfiguration(locs, texts[step === 'second apply' ? 1 : 0]!, home.env, { force: true, ops: dyingOps(crashAt) });
        } catch (e) {
          crashed =
            (e as { crash?: boolean }).crash === true || (e instanceof StrataRequestError && /simulated crash|io-failed/.test(`${e.error.code} ${e.message}`));
          if (!crashed) throw e;
        }
        if (!crashed) break;
        points++;
        const s = existsSync(settings.file) ? readFileSync(settings.file) : null;
        const o = existsSync(locs.override.file) ? readFileSync(locs.override.file) : null;
        assert.ok(s === null ? step === 'surrender' : validSettings.has(sha256(s)), `${step} @${crashAt}: the settings file is whole`);
        assert.ok(o === null || validOverride.has(sha256(o)), `${step} @${crashAt}: the override file is whole`);
        // The "dead" writer was this process, so its lock looks live: remove it as the stale-lock check would.
        rmSync(locs.override.lockFile, { force: true });
        const status = readConfigurationStatus(locs, home.env);
        assert.ok(['strata', 'foreign', 'absent'].includes(status.settings!.ownership), `${step} @${crashAt}: ${status.settings!.ownership}`);
        removeConfiguration(locs, home.env);
        assert.equal(readFileSync(settings.file, 'utf8'), handWritten, `${step} @${crashAt}: surrender restored the hand-written file`);
        assert.ok(!existsSync(locs.override.file), `${step} @${crashAt}: no override left`);
      }
    }
    console.log(`# crash points: ${points}`);
    assert.ok(points > 30, `only ${points} crash points`);
  }),
);
