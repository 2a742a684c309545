import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { buildOverrideManifest } from '../../shared/override/override-config-schema';
import { applyConfiguration, configurationLocations, readConfigurationStatus, removeConfiguration } from '../../main/override/configuration-writer';
import { APP_ROOT } from '../helpers/strata-cli';
import { seededRandom } from '../helpers/seeded-random';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * Issue #15, "SIGKILL between operations" of a multi-file apply, with a real kill: a writer process
 * applies two configurations (layer settings file, then override) in turn, and is SIGKILLed at
 * random moments. override-faults.test.ts models a crash at each file operation through the FileOps
 * seam; this is the real process dying, with nothing of it left to run (no catch, no finally, its
 * lock left behind). After every kill the next Strata (this process) must accept both files as
 * Strata's, each one whole (one of the two texts, byte for byte), take the dead writer's lock, and in
 * the end surrender must restore the user's own files.
 */
const ITERATIONS = 40;
const FOREIGN_OVERRIDE = '{"file_format_version":"1.1.2","layer":{"name":"VK_LAYER_LUNARG_override","type":"GLOBAL"}}';
const FOREIGN_SETTINGS = '# my own settings\nkhronos_validation.report_flags = error\n';
const CONFIGS = [
  {
    override: buildOverrideManifest({ layers: [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' }] }),
    settings: 'khronos_validation.log_filename = /tmp/a.txt\n',
  },
  {
    override: buildOverrideManifest({ layers: [{ name: 'VK_LAYER_MESA_device_select', state: 'off' }] }),
    settings: 'khronos_validation.log_filename = /tmp/b.txt\n',
  },
];

/** The writer: plain node (esbuild bundle), "ready" on stdout, then on a line on stdin applies the two configurations in turn until killed. */
function buildWorker(dir: string): string {
  const entry = join(dir, 'worker.ts');
  writeFileSync(
    entry,
    `import { applyConfiguration, configurationLocations } from ${JSON.stringify(join(APP_ROOT, 'main', 'override', 'configuration-writer'))};
const configs = JSON.parse(process.argv[2]);
// The test's temporary home comes as an argument (never the environment's HOME): none is an error, not a fallback.
const home = process.argv[3];
if (!home) throw new Error('the worker needs the test home folder as its second argument');
const locs = configurationLocations(false, process.env, home);
process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  for (let i = 0; ; i++) applyConfiguration(locs, configs[i % configs.length], process.env);
});
`,
  );
  const out = join(dir, 'worker.mjs');
  buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error' });
  return out;
}

function start(worker: string, home: TempHome): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, JSON.stringify(CONFIGS), home.dir], { env: home.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code, signal) => reject(new Error(`the writer exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

test(
  'a two-file apply SIGKILLed at random moments: the next Strata takes the lock, accepts both files whole, and surrender restores the originals',
  { timeout: 180_000 },
  withTempHome(async (home) => {
    const work = mkdtempSync(join(tmpdir(), 'strata-config-kill-'));
    try {
      const worker = buildWorker(work);
      const locs = configurationLocations(false, home.env, home.dir);
      mkdirSync(locs.override.dir, { recursive: true });
      mkdirSync(locs.settings!.dir, { recursive: true });
      writeFileSync(locs.override.file, FOREIGN_OVERRIDE);
      writeFileSync(locs.settings!.file, FOREIGN_SETTINGS);
      applyConfiguration(locs, CONFIGS[0]!, home.env, { force: true });
      const random = seededRandom(20251125);
      const mixed = new Set<string>();
      for (let i = 0; i < ITERATIONS; i++) {
        const child = await start(worker, home);
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.stdin!.write('go\n');
        await new Promise((r) => setTimeout(r, random() * 40));
        child.kill('SIGKILL');
        await exited;
        const override = readFileSync(locs.override.file, 'utf8');
        const settings = readFileSync(locs.settings!.file, 'utf8');
        const o = CONFIGS.findIndex((c) => c.override === override);
        const s = CONFIGS.findIndex((c) => c.settings === settings);
        assert.ok(o >= 0, `kill ${i}: the override is not one of the two texts: ${override}`);
        assert.ok(s >= 0, `kill ${i}: the settings file is not one of the two texts: ${settings}`);
        mixed.add(`${o}${s}`);
        const status = readConfigurationStatus(locs, home.env);
        assert.equal(status.ownership, 'strata', `kill ${i}: the override record does not vouch for the override`);
        assert.equal(status.settings?.ownership, 'strata', `kill ${i}: the settings record does not vouch for the settings file`);
        // The dead writer's lock must not stop the next change (the lock's owner is gone).
        applyConfiguration(locs, CONFIGS[i % 2]!, home.env, { lockTimeoutMs: 10_000 });
      }
      console.log(`# ${ITERATIONS} kills; (override, settings) pairs seen after a kill: ${[...mixed].sort().join(' ')}`);
      removeConfiguration(locs, home.env);
      assert.equal(readFileSync(locs.override.file, 'utf8'), FOREIGN_OVERRIDE, 'the user override is back');
      assert.equal(readFileSync(locs.settings!.file, 'utf8'), FOREIGN_SETTINGS, 'the user settings file is back');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }),
);
