import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { type OverrideConfig } from '../../shared/override/override-config';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { lintManifest, roleFromPath } from '../../shared/lint/manifest-lint';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { applyOverride, overrideLocation, readOverrideStatus, removeOverride, sha256, type OverrideLocation } from '../../main/override/override-writer';
import type { FileOps } from '../../main/platform/atomic-file';
import { withTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { seededRandom } from '../helpers/seeded-random';

/**
 * The override writer against the real loader (Debian libvulkan1 1.3.239, lavapipe, the real
 * validation and Mesa device-select layers): what it installs is obeyed; it never clobbers a file
 * it did not write; a kill at any moment leaves the old or the new file; concurrent writers take
 * turns. Every case has its own temp HOME (makeTempHome).
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const DEVICE_SELECT = 'VK_LAYER_MESA_device_select';
const ON: OverrideConfig = { layers: [{ name: VALIDATION, state: 'on' }] };
const OFF: OverrideConfig = { layers: [{ name: DEVICE_SELECT, state: 'off' }] };

const work = mkdtempSync(join(tmpdir(), 'strata-override-'));
after(() => rmSync(work, { recursive: true, force: true }));

let probePath: string | undefined;
function probe(): string {
  if (!probePath) {
    for (const need of [
      LAVAPIPE,
      '/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json',
      '/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json',
    ])
      assert.ok(existsSync(need), `${need} is missing (mesa-vulkan-drivers and vulkan-validationlayers are needed)`);
    probePath = join(work, 'loader-oracle');
    execFileSync('gcc', ['-O1', '-Wall', '-o', probePath, join(APP_ROOT, 'tests', 'fixtures', 'probes', 'loader-oracle.c'), '-lvulkan'], { stdio: 'pipe' });
  }
  return probePath;
}

let workerPath: string | undefined;
/** tests/helpers/override-worker.ts as one file for plain `node` (starts in ~0.1 s instead of tsx's ~0.4 s). */
function worker(): string {
  if (!workerPath) {
    workerPath = join(work, 'override-worker.mjs');
    buildSync({
      entryPoints: [join(APP_ROOT, 'tests', 'helpers', 'override-worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: workerPath,
      logLevel: 'error',
    });
  }
  return workerPath;
}

interface LoaderRun {
  created: boolean;
  log: string;
  inserted: (layer: string) => boolean;
}

/** vkCreateInstance under lavapipe with VK_LOADER_DEBUG=layer; the system layer folders stay in (XDG_DATA_DIRS unset). */
function createInstance(env: NodeJS.ProcessEnv): Promise<LoaderRun> {
  return new Promise((resolve) => {
    execFile(
      probe(),
      ['create'],
      { env: { ...env, VK_DRIVER_FILES: LAVAPIPE, VK_LOADER_DEBUG: 'layer' }, encoding: 'utf8', timeout: 20_000 },
      (_e, stdout, stderr) => {
        resolve({ created: /^create 0$/m.test(stdout), log: stderr, inserted: (layer) => stderr.includes(`Insert instance layer "${layer}"`) });
      },
    );
  });
}

const logLine = (log: string, re: RegExp) =>
  log
    .split('\n')
    .find((l) => re.test(l))
    ?.trim() ?? `(no line matching ${re})`;

function writeConfig(home: TempHome, name: string, config: OverrideConfig): string {
  const path = join(home.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const locationOf = (home: TempHome): OverrideLocation => overrideLocation('user', home.env, home.dir);

test(
  'the loader obeys the installed override: on = inserted through the meta-layer, off = blacklisted, DISABLE_STRATA_OVERRIDE=1 = neither',
  withTempHome(async (home) => {
    const t0 = await createInstance(home.env);
    assert.ok(t0.created && t0.inserted(DEVICE_SELECT) && !t0.inserted(VALIDATION), `baseline: device-select only\n${t0.log}`);

    const apply = runStrata(['override', 'apply', '--config', writeConfig(home, 'on', ON)], home.env);
    assert.equal(apply.status, 0, apply.stderr);
    const loc = locationOf(home);
    assert.match(apply.stdout, new RegExp(`Created ${loc.file.replace(/[.]/g, '\\.')}`));
    assert.match(apply.stdout, /forced on, in this order: VK_LAYER_KHRONOS_validation/);
    const text = readFileSync(loc.file, 'utf8');
    assert.equal(text, buildOverrideManifest(ON));
    assert.deepEqual(lintManifest(parseManifest(text), { role: roleFromPath(loc.file) }), []);

    const on = await createInstance(home.env);
    assert.ok(on.created, on.log);
    assert.ok(on.log.includes('Using the global override layer'), on.log);
    assert.ok(on.log.includes('Meta-layer "VK_LAYER_LUNARG_override" all 1 component layers appear to be valid.'), on.log);
    assert.ok(on.inserted(VALIDATION) && on.inserted(DEVICE_SELECT), on.log);
    const onOff = await createInstance({ ...home.env, DISABLE_STRATA_OVERRIDE: '1' });
    assert.ok(onOff.created && !onOff.inserted(VALIDATION) && onOff.inserted(DEVICE_SELECT), onOff.log);

    const replace = runStrata(['override', 'apply', '--config', writeConfig(home, 'off', OFF)], home.env);
    assert.equal(replace.status, 0, replace.stderr);
    assert.match(replace.stdout, /Replaced .*replacing Strata's previous override/);
    const off = await createInstance(home.env);
    assert.ok(off.created && !off.inserted(DEVICE_SELECT) && !off.inserted(VALIDATION), off.log);
    assert.ok(off.log.includes('all 0 component layers appear to be valid'), off.log);
    const offOff = await createInstance({ ...home.env, DISABLE_STRATA_OVERRIDE: '1' });
    assert.ok(offOff.created && offOff.inserted(DEVICE_SELECT), offOff.log);

    const removed = runStrata(['override', 'remove'], home.env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.ok(!existsSync(loc.file));
    const back = await createInstance(home.env);
    assert.ok(back.inserted(DEVICE_SELECT) && !back.inserted(VALIDATION), back.log);

    for (const [what, run, re] of [
      ['on', on, /Insert instance layer "VK_LAYER_KHRONOS_validation"/],
      ['on', on, /all 1 component layers appear to be valid/],
      ['off', off, /all 0 component layers appear to be valid/],
      ['off + DISABLE_STRATA_OVERRIDE=1', offOff, /Insert instance layer "VK_LAYER_MESA_device_select"/],
    ] as const)
      console.log(`# loader (${what}): ${logLine(run.log, re)}`);
  }),
);

test(
  'a hand-edited override: apply refuses with the diff, --force replaces it and keeps the edit as a backup; remove refuses too',
  withTempHome((home) => {
    const loc = locationOf(home);
    const on = writeConfig(home, 'on', ON);
    const off = writeConfig(home, 'off', OFF);
    assert.equal(runStrata(['override', 'apply', '--config', on], home.env).status, 0);
    const edited = readFileSync(loc.file, 'utf8').replace('"1.3.0"', '"1.3.250"');
    writeFileSync(loc.file, edited);

    const refused = runStrata(['override', 'apply', '--config', off], home.env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /was changed since Strata wrote it/);
    assert.match(refused.stderr, /--force/);
    assert.match(refused.stderr, /^-    "api_version": "1\.3\.0",$/m);
    assert.match(refused.stderr, /^\+    "api_version": "1\.3\.250",$/m);
    assert.equal(readFileSync(loc.file, 'utf8'), edited, 'the refused apply left the file alone');

    const status = JSON.parse(runStrata(['override', 'status', '--json'], home.env).stdout);
    assert.equal(status.ownership, 'modified');
    assert.match(status.diff, /\+    "api_version": "1\.3\.250"/);
    const removeRefused = runStrata(['override', 'remove'], home.env);
    assert.equal(removeRefused.status, 1);
    assert.match(removeRefused.stderr, /--force/);
    assert.ok(existsSync(loc.file));

    const forced = runStrata(['override', 'apply', '--config', off, '--force'], home.env);
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(forced.stdout, /replacing a version changed since Strata wrote it/);
    assert.equal(readFileSync(loc.file, 'utf8'), buildOverrideManifest(OFF));
    assert.equal(readFileSync(loc.previousFile, 'utf8'), edited);
    assert.equal(JSON.parse(runStrata(['override', 'status', '--json'], home.env).stdout).ownership, 'strata');
  }),
);

test(
  "another tool's override: apply refuses, --force backs it up, remove restores it byte for byte",
  withTempHome((home) => {
    const loc = locationOf(home);
    mkdirSync(loc.dir, { recursive: true });
    // vkconfig-style, odd spacing and no final newline: it must come back exactly.
    const foreign = `{"file_format_version":"1.1.2","layer":{"name":"VK_LAYER_LUNARG_override","type":"GLOBAL","api_version":"1.3.211","implementation_version":"1","description":"LunarG Override Layer","component_layers":["VK_LAYER_KHRONOS_validation"],\n  "disable_environment":{"DISABLE_VK_LAYER_LUNARG_override":"1"}}}`;
    writeFileSync(loc.file, foreign);
    const on = writeConfig(home, 'on', ON);

    const refused = runStrata(['override', 'apply', '--config', on], home.env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /was not written by Strata/);
    assert.match(refused.stderr, /--force/);
    assert.match(refused.stderr, /^\+    "description": "Strata's override layer",$/m);
    assert.equal(readFileSync(loc.file, 'utf8'), foreign);
    assert.equal(JSON.parse(runStrata(['override', 'status', '--json'], home.env).stdout).ownership, 'foreign');
    assert.match(runStrata(['override', 'remove'], home.env).stdout, /Nothing to remove: Strata did not write/);
    assert.equal(readFileSync(loc.file, 'utf8'), foreign);

    const forced = runStrata(['override', 'apply', '--config', on, '--force'], home.env);
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(forced.stdout, /replacing another tool's override/);
    assert.match(forced.stdout, /`strata override remove` puts it back/);
    assert.equal(readFileSync(loc.originalFile, 'utf8'), foreign);
    // A second Strata apply keeps the original (not Strata's first version) for the surrender.
    assert.equal(runStrata(['override', 'apply', '--config', writeConfig(home, 'off', OFF)], home.env).status, 0);
    assert.equal(JSON.parse(runStrata(['override', 'status', '--json'], home.env).stdout).originalBackup, loc.originalFile);

    const removed = runStrata(['override', 'remove'], home.env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /restored the override that was at .* before Strata, as it was \(the same bytes/);
    assert.ok(readFileSync(loc.file).equals(Buffer.from(foreign)), 'byte for byte');
    assert.ok(!existsSync(loc.recordFile) && !existsSync(loc.originalFile));
    assert.equal(JSON.parse(runStrata(['override', 'status', '--json'], home.env).stdout).ownership, 'foreign');
  }),
);

test(
  'show, status and export: the file as installed, and export -o writes the text without installing it',
  withTempHome((home) => {
    const loc = locationOf(home);
    const on = writeConfig(home, 'on', ON);
    const out = join(home.dir, 'exported.json');
    const exported = runStrata(['override', 'export', '--config', on, '-o', out], home.env);
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(readFileSync(out, 'utf8'), buildOverrideManifest(ON));
    assert.ok(!existsSync(loc.file), 'export installs nothing');
    assert.equal(runStrata(['override', 'export', '--config', on], home.env).stdout, buildOverrideManifest(ON));
    assert.match(runStrata(['override', 'show'], home.env).stdout, /No override is installed/);
    runStrata(['override', 'apply', '--config', on], home.env);
    assert.equal(runStrata(['override', 'show'], home.env).stdout, buildOverrideManifest(ON));
    const status = runStrata(['override', 'status'], home.env).stdout;
    assert.match(status, /state\s+Strata's \(written \d{4}-/);
    assert.match(status, /on \(in order\)\s+VK_LAYER_KHRONOS_validation/);
    const bad = writeConfig(home, 'bad', { layers: [{ name: VALIDATION, state: 'enabled' }] } as unknown as OverrideConfig);
    const refused = runStrata(['override', 'apply', '--config', bad], home.env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /layers\.0\.state/);
    assert.match(runStrata(['override', 'apply', '--help'], home.env).stdout, /"state": "on"/);
  }),
);

/** /proc/PID/stat's state letter, 'T' once SIGSTOP has taken effect. */
function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

function startLoop(home: TempHome, a: string, b: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker(), 'loop', a, b], { env: home.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code, signal) => reject(new Error(`worker exited (${code ?? signal}) before ready: ${err}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

test(
  'crash safety: a writer stopped or SIGKILLed at random moments leaves the complete old or new file, one its record vouches for, and the loader still starts',
  { timeout: 120_000 },
  withTempHome(async (home) => {
    const ITERATIONS = 1000;
    const KILL_EVERY = 10;
    const LOADER_EVERY = 100;
    const loc = locationOf(home);
    const a = join(home.dir, 'a.json');
    const b = join(home.dir, 'b.json');
    writeFileSync(a, buildOverrideManifest(ON));
    writeFileSync(b, buildOverrideManifest(OFF));
    const known = new Map([
      [sha256(readFileSync(a)), 'on'],
      [sha256(readFileSync(b)), 'off'],
    ]);
    const random = seededRandom(20240611);
    const started = Date.now();
    const go = (c: ChildProcess) => (c.stdin!.write('go\n'), c);
    let child = go(await startLoop(home, a, b));
    let next = startLoop(home, a, b);
    let kills = 0;
    let loaderChecks = 0;
    let midWrite = 0;
    const seen = new Set<string>();
    try {
      for (let i = 1; i <= ITERATIONS; i++) {
        const delay = random() * 4;
        if (delay >= 1) await new Promise((r) => setTimeout(r, delay));
        const kill = i % KILL_EVERY === 0;
        process.kill(child.pid!, kill ? 'SIGKILL' : 'SIGSTOP');
        if (kill) await exited(child);
        else while (procState(child.pid!) !== 'T') await new Promise((r) => setImmediate(r));

        // What a crash at this moment leaves on disk.
        const bytes = existsSync(loc.file) ? readFileSync(loc.file) : null;
        const which = bytes ? known.get(sha256(bytes)) : 'absent';
        assert.ok(which, `iteration ${i}: the override is neither the old nor the new version:\n${bytes?.toString('utf8')}`);
        if (bytes) JSON.parse(bytes.toString('utf8'));
        seen.add(which);
        if (existsSync(loc.recordFile) && 'pendingSha256' in JSON.parse(readFileSync(loc.recordFile, 'utf8'))) midWrite++;
        const status = readOverrideStatus(loc);
        assert.ok(
          status.ownership === 'strata' || (status.ownership === 'absent' && seen.size === 1),
          `iteration ${i}${kill ? ' (SIGKILL)' : ''}: the record does not vouch for the file (${status.ownership}, ${which}): ${existsSync(loc.recordFile) ? readFileSync(loc.recordFile, 'utf8') : 'no record'}`,
        );
        if (i % LOADER_EVERY === 0) {
          const run = await createInstance(home.env);
          assert.ok(run.created, `iteration ${i}: the loader did not start\n${run.log}`);
          assert.equal(run.inserted(VALIDATION), which === 'on', `iteration ${i} (${which}): validation\n${run.log}`);
          assert.equal(run.inserted(DEVICE_SELECT), which !== 'off', `iteration ${i} (${which}): device-select\n${run.log}`);
          loaderChecks++;
        }
        if (kill) {
          kills++;
          child = go(await next);
          next = startLoop(home, a, b);
        } else process.kill(child.pid!, 'SIGCONT');
      }
    } finally {
      for (const c of [child, await next.catch(() => null)]) if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await Promise.all([exited(child)]);
    }
    // A fresh Strata after all this: breaks the stale lock, sweeps the temp files, applies.
    const r = applyOverride(loc, buildOverrideManifest(ON), { lockTimeoutMs: 5_000 });
    assert.equal(readFileSync(loc.file, 'utf8'), r.text);
    const leftovers = [...readdirSync(loc.dir), ...readdirSync(loc.stateDir)].filter((f) => f.endsWith('.tmp') || f.includes('lock'));
    assert.deepEqual(leftovers, []);
    assert.deepEqual([...seen].sort(), ['off', 'on'].concat(seen.has('absent') ? ['absent'] : []).sort());
    console.log(
      `# kill loop: ${ITERATIONS} random interruptions (${ITERATIONS - kills} SIGSTOP freezes, ${kills} SIGKILLs with a new writer; ${midWrite} caught between the record's "pending" and "done"), ${loaderChecks} loader checks, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }),
);

/** File operations that die at the `crashAt`-th call: that call and every later one throw, as if the process were gone. */
function dyingOps(crashAt: number): { ops: FileOps; calls: () => number } {
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
  return { ops: ops as unknown as FileOps, calls: () => n };
}

test(
  'crash safety, exhaustively: a crash before any single file operation of apply or remove leaves a state the next Strata accepts and the surrender still restores the original',
  withTempHome((home) => {
    const loc = locationOf(home);
    const foreign = '{"file_format_version":"1.1.2","layer":{"name":"VK_LAYER_LUNARG_override"}}';
    const texts = [buildOverrideManifest(ON), buildOverrideManifest(OFF)];
    const valid = new Set([...texts, foreign].map((t) => sha256(t)));
    let points = 0;
    for (const step of ['first apply over a foreign file', 'second apply', 'remove'] as const) {
      for (let crashAt = 1; ; crashAt++) {
        rmSync(loc.dir, { recursive: true, force: true });
        rmSync(loc.stateDir, { recursive: true, force: true });
        mkdirSync(loc.dir, { recursive: true });
        writeFileSync(loc.file, foreign);
        if (step !== 'first apply over a foreign file') applyOverride(loc, texts[0]!, { force: true });
        const { ops, calls } = dyingOps(crashAt);
        let crashed = false;
        try {
          if (step === 'remove') removeOverride(loc, { ops });
          else applyOverride(loc, texts[step === 'second apply' ? 1 : 0]!, { force: true, ops });
        } catch (e) {
          crashed =
            (e as { crash?: boolean }).crash === true || (e instanceof StrataRequestError && /simulated crash|io-failed/.test(`${e.error.code} ${e.message}`));
          if (!crashed) throw e;
        }
        if (!crashed) break;
        points++;
        // The survivor's view: the file is whole, and one that Strata (or the original owner) vouches for.
        const bytes = existsSync(loc.file) ? readFileSync(loc.file) : null;
        assert.ok(bytes === null ? step === 'remove' : valid.has(sha256(bytes)), `${step}, crash at op ${crashAt}/${calls()}: unexpected file`);
        // The "dead" writer was this very process, so its lock looks live: take it away as the stale-lock check would.
        rmSync(loc.lockFile, { force: true });
        const status = readOverrideStatus(loc);
        if (step === 'first apply over a foreign file') assert.ok(['foreign', 'strata'].includes(status.ownership), `${step}@${crashAt}: ${status.ownership}`);
        else assert.ok(['strata', 'absent', 'foreign'].includes(status.ownership), `${step}@${crashAt}: ${status.ownership}`);
        if (status.ownership === 'strata') {
          removeOverride(loc);
          assert.equal(readFileSync(loc.file, 'utf8'), foreign, `${step}@${crashAt}: the surrender restored the original`);
        } else if (status.ownership === 'foreign') assert.equal(readFileSync(loc.file, 'utf8'), foreign, `${step}@${crashAt}`);
      }
    }
    console.log(`# exhaustive crash points: ${points}`);
    assert.ok(points > 30, `only ${points} crash points`);
  }),
);

test(
  'concurrent writers take turns: four processes applying 25 times each never overlap inside the lock, and all succeed',
  { timeout: 60_000 },
  withTempHome(async (home) => {
    const loc = locationOf(home);
    const configs = [0, 1, 2, 3].map((k) => buildOverrideManifest({ layers: [{ name: `VK_LAYER_strata_test_${k}`, state: 'off' }] }));
    const files = configs.map((text, k) => {
      const f = join(home.dir, `c${k}.json`);
      writeFileSync(f, text);
      return f;
    });
    const runs = await Promise.all(
      files.map(
        (f, k) =>
          new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
            const c = spawn(process.execPath, [worker(), 'serial', String(k), '25', f], { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            let err = '';
            c.stdout.on('data', (d) => (out += d));
            c.stderr.on('data', (d) => (err += d));
            c.on('exit', (code) => resolve({ code, out, err }));
          }),
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.err);
    const spans = runs
      .flatMap((r) => r.out.trim().split('\n'))
      .map((l) => l.split(' '))
      .map(([, id, s, e]) => ({ id: id!, start: BigInt(s!), end: BigInt(e!) }))
      .sort((x, y) => (x.start < y.start ? -1 : 1));
    assert.equal(spans.length, 100);
    for (let i = 1; i < spans.length; i++)
      assert.ok(spans[i]!.start >= spans[i - 1]!.end, `writer ${spans[i]!.id} entered while ${spans[i - 1]!.id} held the lock`);
    const status = readOverrideStatus(loc);
    assert.equal(status.ownership, 'strata');
    assert.ok(configs.includes(status.text!));
    assert.ok(!existsSync(loc.lockFile));
  }),
);

test(
  'a held lock is reported with the holder and a fix; a stale lock (dead pid) is broken',
  withTempHome(async (home) => {
    const loc = locationOf(home);
    mkdirSync(loc.stateDir, { recursive: true });
    writeFileSync(loc.lockFile, JSON.stringify({ pid: process.pid, nonce: 'held', since: 'now' }));
    const started = Date.now();
    assert.throws(
      () => applyOverride(loc, buildOverrideManifest(ON), { lockTimeoutMs: 300 }),
      (e: unknown) =>
        e instanceof StrataRequestError &&
        e.error.code === 'override/locked' &&
        e.error.fix!.includes(`ps -p ${process.pid}`) &&
        e.error.fix!.includes(loc.lockFile),
    );
    assert.ok(Date.now() - started >= 300);
    assert.ok(!existsSync(loc.file), 'nothing written while locked');

    const dead = spawn(process.execPath, ['-e', '']);
    await exited(dead);
    writeFileSync(loc.lockFile, JSON.stringify({ pid: dead.pid, nonce: 'stale', since: 'then' }));
    const r = applyOverride(loc, buildOverrideManifest(ON), { lockTimeoutMs: 300 });
    assert.equal(r.action, 'created');
    assert.ok(!existsSync(loc.lockFile));
  }),
);

test(
  'EACCES, ENOSPC and EROFS become StrataErrors with a fix, and leave the old file and no temp file behind',
  withTempHome((home) => {
    const loc = locationOf(home);
    applyOverride(loc, buildOverrideManifest(ON));
    const failing = (code: string, op: keyof FileOps, match: (args: unknown[]) => boolean): FileOps => {
      const ops = { ...fs } as unknown as Record<string, unknown>;
      const real = fs[op] as (...args: unknown[]) => unknown;
      ops[op] = (...args: unknown[]) => {
        if (match(args)) throw Object.assign(new Error(`${code}: simulated`), { code, path: String(args[0]) });
        return real(...args);
      };
      return ops as unknown as FileOps;
    };
    const intoOverrideTemp = (args: unknown[]) => String(args[0]).includes('.VkLayer_override.json.');
    const cases: [string, keyof FileOps, (args: unknown[]) => boolean, string, RegExp][] = [
      ['ENOSPC', 'fsyncSync', () => true, 'override/no-space', /free some space/],
      ['EROFS', 'openSync', intoOverrideTemp, 'override/read-only', /read-write/],
      ['EACCES', 'renameSync', (args) => String(args[1]) === loc.file, 'override/permission-denied', /writable/],
    ];
    for (const [code, op, match, want, fix] of cases) {
      assert.throws(
        () => applyOverride(loc, buildOverrideManifest(OFF), { ops: failing(code, op, match) }),
        (e: unknown) =>
          e instanceof StrataRequestError && e.error.code === want && fix.test(e.error.fix ?? '') && /the override file is as it was/.test(e.error.message),
        code,
      );
      assert.equal(readFileSync(loc.file, 'utf8'), buildOverrideManifest(ON), `${code}: the old file is intact`);
      assert.deepEqual(
        readdirSync(loc.dir).filter((f) => f !== 'VkLayer_override.json'),
        [],
        `${code}: no temp file left`,
      );
      assert.equal(readOverrideStatus(loc).ownership, 'strata', `${code}: the next apply needs no --force`);
    }
    assert.equal(applyOverride(loc, buildOverrideManifest(OFF)).action, 'replaced');
    assert.throws(
      () => applyOverride(overrideLocation('system', home.env, home.dir), buildOverrideManifest(ON), { uid: 1000 }),
      (e: unknown) => e instanceof StrataRequestError && e.error.code === 'override/needs-root' && /sudo/.test(e.error.fix ?? ''),
    );
  }),
);
