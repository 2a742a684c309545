import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT, runStrata } from './strata-cli';

/**
 * What the profile tests need from the real loader (Debian libvulkan1 1.3.239) under lavapipe: the
 * chain probe (tests/fixtures/layers/chain-probe.c) built once, recording layers
 * (tests/fixtures/layers/recording-layer.c, one library per name) and a run that returns the
 * VkResult, the recorded chain (application side first) and the loader's layer log.
 */
export const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

export interface LoaderKit {
  /** The chain probe; copy it to get an application at another path. */
  probe: string;
  /** Recording layer libraries by layer name. */
  libs: Map<string, string>;
}

export function buildLoaderKit(work: string, layerNames: readonly string[]): LoaderKit {
  if (!existsSync(LAVAPIPE)) throw new Error(`${LAVAPIPE} is missing (mesa-vulkan-drivers is needed)`);
  const src = join(APP_ROOT, 'tests', 'fixtures', 'layers');
  mkdirSync(work, { recursive: true });
  const probe = join(work, 'chain-probe');
  execFileSync('gcc', ['-O1', '-Wall', '-o', probe, join(src, 'chain-probe.c'), '-lvulkan'], { stdio: 'pipe' });
  const libs = new Map<string, string>();
  for (const name of layerNames) {
    const out = join(work, `lib${name}.so`);
    execFileSync('gcc', ['-O1', '-Wall', '-shared', '-fPIC', `-DLAYER_NAME="${name}"`, '-o', out, join(src, 'recording-layer.c'), '-ldl'], { stdio: 'pipe' });
    libs.set(name, out);
  }
  return { probe, libs };
}

/** A copy of the probe at `path`: another application, as app_keys see it. */
export function copyProbe(kit: LoaderKit, path: string): string {
  copyFileSync(kit.probe, path);
  return path;
}

/** Explicit manifests for recording layers, one file each, in `folder`. */
export function writeRecordingManifests(kit: LoaderKit, folder: string, names: readonly string[]): void {
  mkdirSync(folder, { recursive: true });
  for (const name of names)
    writeFileSync(
      join(folder, `${name}.json`),
      JSON.stringify(
        {
          file_format_version: '1.2.0',
          layer: { name, type: 'GLOBAL', library_path: kit.libs.get(name), api_version: '1.3.0', implementation_version: '1', description: 'recording layer' },
        },
        null,
        2,
      ),
    );
}

export interface ProbeRun {
  result: number | null;
  /** Recording layers in chain order, application side first. */
  chain: string[];
  /** VK_LOADER_DEBUG=layer output. */
  log: string;
  inserted(layer: string): boolean;
}

/** Runs `app` (a chain probe) with API 1.3 and `requested` layers in `env`, under lavapipe. */
export function runProbe(app: string, env: NodeJS.ProcessEnv, requested: readonly string[] = []): Promise<ProbeRun> {
  const log = join(String(env['HOME']), `layers-${Math.random().toString(36).slice(2)}.log`);
  return new Promise((resolve) => {
    execFile(
      app,
      ['1.3', ...requested],
      { env: { ...env, VK_DRIVER_FILES: LAVAPIPE, VK_LOADER_DEBUG: 'layer', STRATA_LAYER_LOG: log }, encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' },
      (_e, stdout, stderr) => {
        const m = /^create (-?\d+)$/m.exec(stdout);
        const chain = existsSync(log)
          ? readFileSync(log, 'utf8')
              .trim()
              .split('\n')
              .filter(Boolean)
              .map((l) => l.split(' ')[0]!)
          : [];
        rmSync(log, { force: true });
        resolve({ result: m ? Number(m[1]) : null, chain, log: stderr, inserted: (layer) => stderr.includes(`Insert instance layer "${layer}"`) });
      },
    );
  });
}

/** Copies of the probe at `bin/app-one` … `app-unbound`: four applications, as app_keys see them. */
export function fourApps(kit: LoaderKit, bin: string): { one: string; two: string; three: string; unbound: string } {
  mkdirSync(bin, { recursive: true });
  return {
    one: copyProbe(kit, join(bin, 'app-one')),
    two: copyProbe(kit, join(bin, 'app-two')),
    three: copyProbe(kit, join(bin, 'app-three')),
    unbound: copyProbe(kit, join(bin, 'app-unbound')),
  };
}

/** Each profile (name → layers) written to `dir` and imported with the real `strata profile import`. */
export function importProfiles(env: NodeJS.ProcessEnv, dir: string, profiles: Record<string, { name: string; state: 'on' | 'off' }[]>): void {
  for (const [name, layers] of Object.entries(profiles)) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ schemaVersion: 2, name, layers }));
    const r = runStrata(['profile', 'import', file], env);
    if (r.status !== 0) throw new Error(`strata profile import ${file} failed: ${r.stderr}`);
  }
}
