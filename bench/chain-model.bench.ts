import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bench } from './harness';
import { findAppRoot } from '../main/platform/app-paths';
import { discoveryManifests } from '../main/discovery/discovery-service';
import { computeLayerChain, type ChainInput, type ChainManifest } from '../shared/loader/chain';
import { AS_USERS_RUN, makeTempHome } from '../tests/helpers/temp-home';
import { seededRandom } from '../tests/helpers/seeded-random';
import { loaderMatrix, matrixUnavailable } from '../tests/helpers/loader-builds';

/**
 * chain-model: shared/loader/chain.ts computeLayerChain on a generated tree of 1,000 layers (400
 * implicit, 570 explicit, 30 explicit meta-layers, one override layer with app_keys) for 100
 * applications that differ in path (app_keys), requested layers, API version and environment
 * (enable variables, VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_ENABLE / _DISABLE), against the real
 * loader's vkCreateInstance for the same applications on the same tree, lavapipe as the driver.
 *
 * Both sides time themselves in-process. The loader: bench/native/create-instance-timing.c, one copy
 * per application (the override layer compares app_keys with the executable's path), REPS timed
 * creates after an untimed one; the median over apps of each app's median. The model: rounds over
 * the 100 applications on manifests discovered once (as the Chain view recomputes a draft: parsed
 * manifests are reused), interleaved with the loader's runs; the median round. The cold figures
 * include parsing every manifest once, on code the JIT has not optimised yet. The untimed create records the real chain
 * (tests/fixtures/layers/recording-layer.c), and the bench checks the model agrees for every app.
 *
 * `byLoaderVersion`: the same, per release of the loader matrix (1.3.239 … 1.4.359, built from source
 * by tests/helpers/loader-builds.ts): the model with that version's rules on all applications, the
 * real loader of that version (LD_LIBRARY_PATH) on every MATRIX_APP_EVERY-th one, and whether they
 * agree there (reported, not thrown: a disagreement is a finding for the matrix, not a failed run).
 */

const IMPLICIT = 400;
const EXPLICIT = 570;
const METAS = 30;
const APPS = 100;
const REPS = 3;
const ROUND_EVERY = 5;
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
/** The loader releases the model's rules are proven against (tests/helpers/loader-builds.ts builds them). */
const MATRIX_VERSIONS = ['1.3.239', '1.3.275', '1.4.309', '1.4.321', '1.4.341', '1.4.359'];
/** Per version, the real loader runs every MATRIX_APP_EVERY-th application (the model runs all of them). */
const MATRIX_APP_EVERY = 4;

interface App {
  path: string;
  requested: string[];
  apiVersion: string;
  env: Record<string, string>;
}

const imp = (i: number) => `VK_LAYER_BENCH_imp_${i}`;
const exp = (i: number) => `VK_LAYER_BENCH_exp_${i}`;
const meta = (i: number) => `VK_LAYER_BENCH_meta_${i}`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Writes the tree under `home` (every layer its own copy of one recording library) and returns the applications. */
function writeTree(home: string, lib: string, exe: string): App[] {
  const rnd = seededRandom(6);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const implicitDir = join(home, '.config', 'vulkan', 'implicit_layer.d');
  const explicitDir = join(home, 'layer-path');
  const libDir = join(home, 'libs');
  for (const d of [implicitDir, explicitDir, libDir]) mkdirSync(d, { recursive: true });
  const write = (dir: string, name: string, layer: Record<string, unknown>) => {
    if (!('component_layers' in layer)) {
      // The loader maps a file once: a copy per layer gives each its own chain link.
      const copy = join(libDir, `lib${name}.so`);
      copyFileSync(lib, copy);
      layer['library_path'] = copy;
    }
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({
        file_format_version: '1.2.0',
        layer: { name, type: 'GLOBAL', api_version: pick(['1.0.0', '1.3.0']), implementation_version: '1', description: 'bench', ...layer },
      }),
    );
  };
  for (let i = 0; i < IMPLICIT; i++)
    // A handful on by default; the rest wait for their enable variable.
    write(implicitDir, imp(i), { disable_environment: { [`DISABLE_IMP_${i}`]: '1' }, ...(i < 6 ? {} : { enable_environment: { [`ENABLE_IMP_${i}`]: '1' } }) });
  for (let i = 0; i < EXPLICIT; i++) write(explicitDir, exp(i), {});
  for (let i = 0; i < METAS; i++)
    write(explicitDir, meta(i), { api_version: '1.0.0', component_layers: [exp(20 * i + 1), exp(20 * i + 2), ...(i % 3 ? [] : [exp(20 * i + 3)])] });

  const apps: App[] = Array.from({ length: APPS }, (_, i) => {
    const env: Record<string, string> = {};
    if (rnd() < 0.3) for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) env[`ENABLE_IMP_${6 + Math.floor(rnd() * (IMPLICIT - 6))}`] = '1';
    if (rnd() < 0.1) env[`DISABLE_IMP_${Math.floor(rnd() * 6)}`] = '1';
    if (rnd() < 0.2) env['VK_INSTANCE_LAYERS'] = [exp(Math.floor(rnd() * EXPLICIT)), meta(Math.floor(rnd() * METAS))].join(':');
    const f = rnd();
    if (f < 0.1) env['VK_LOADER_LAYERS_DISABLE'] = pick(['~implicit~', `*imp_${Math.floor(rnd() * 6)}`, 'VK_LAYER_BENCH_imp_1*']);
    else if (f < 0.2)
      env['VK_LOADER_LAYERS_ENABLE'] = pick([`*exp_${Math.floor(rnd() * EXPLICIT)}`, imp(6 + Math.floor(rnd() * 50)), `${meta(Math.floor(rnd() * METAS))}`]);
    const requested = Array.from({ length: Math.floor(rnd() * 5) }, () => (rnd() < 0.25 ? meta(Math.floor(rnd() * METAS)) : exp(Math.floor(rnd() * EXPLICIT))));
    return { path: join(home, 'apps', `app-${i}`), requested, apiVersion: pick(['1.0', '1.1', '1.3']), env };
  });
  mkdirSync(join(home, 'apps'), { recursive: true });
  for (const a of apps) copyFileSync(exe, a.path);
  // The override layer applies to every 7th application only (app_keys), and blacklists a few layers.
  const keys = apps.filter((_, i) => i % 7 === 0).map((a) => realpathSync(a.path));
  writeFileSync(
    join(implicitDir, 'VkLayer_override.json'),
    JSON.stringify({
      file_format_version: '1.2.0',
      layer: {
        name: 'VK_LAYER_LUNARG_override',
        type: 'GLOBAL',
        api_version: '1.0.0',
        implementation_version: '1',
        description: 'override',
        disable_environment: { DISABLE_OVERRIDE: '1' },
        component_layers: [exp(7), imp(9)],
        blacklisted_layers: [exp(8), imp(2)],
        app_keys: keys,
      },
    }),
  );
  return apps.map((a) => ({ ...a, path: realpathSync(a.path) }));
}

interface LoaderRun {
  result: number;
  createMs: number[];
  chain: string[];
}

function runLoader(app: App, env: NodeJS.ProcessEnv, log: string): Promise<LoaderRun> {
  return new Promise((resolve, reject) => {
    execFile(
      app.path,
      [String(REPS), app.apiVersion, ...app.requested],
      { env: { ...env, ...app.env, STRATA_LAYER_LOG: log }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout) => {
        if (error) return reject(new Error(`${app.path}: ${error.message}`));
        const out = JSON.parse(stdout) as { result: number; createMs: number[] };
        const chain = existsSync(log)
          ? readFileSync(log, 'utf8')
              .trim()
              .split('\n')
              .filter(Boolean)
              .map((l) => l.slice(l.indexOf(' ') + 1))
          : [];
        resolve({ ...out, chain });
      },
    );
  });
}

export const chainModelBench: Bench = {
  name: 'chain-model',
  async run() {
    const root = findAppRoot();
    const home = makeTempHome(AS_USERS_RUN);
    try {
      const lib = join(home.dir, 'librecording.so');
      const exe = join(home.dir, 'create-instance-timing');
      execFileSync(
        'gcc',
        ['-O2', '-Wall', '-shared', '-fPIC', '-DLAYER_NAME="bench"', '-o', lib, join(root, 'tests', 'fixtures', 'layers', 'recording-layer.c'), '-ldl'],
        { stdio: 'pipe' },
      );
      execFileSync('gcc', ['-O2', '-Wall', '-Wextra', '-Werror', '-o', exe, join(root, 'bench', 'native', 'create-instance-timing.c'), '-lvulkan'], {
        stdio: 'pipe',
      });
      const apps = writeTree(home.dir, lib, exe);
      const env: NodeJS.ProcessEnv = {
        ...home.env,
        XDG_DATA_DIRS: join(home.dir, 'data-dirs'),
        XDG_CONFIG_DIRS: join(home.dir, 'config-dirs'),
        VK_LAYER_PATH: join(home.dir, 'layer-path'),
        VK_DRIVER_FILES: LAVAPIPE,
      };

      // The model's inputs: the tree as discovery finds it, once; each app its own environment.
      const discovered = (await discoveryManifests({ env })).manifests;
      const inputs = (implicit: readonly ChainManifest[], explicit: readonly ChainManifest[]): ChainInput[] =>
        apps.map((a) => ({
          implicit,
          explicit,
          env: { ...env, ...a.env },
          app: { path: a.path, requestedLayers: a.requested, apiVersion: a.apiVersion },
          loaderVersion: '1.3.239',
        }));
      const layerCount = discovered.implicit_layer.length + discovered.explicit_layer.length;
      if (layerCount !== IMPLICIT + EXPLICIT + METAS + 1)
        throw new Error(`discovery found ${layerCount} manifests, expected ${IMPLICIT + EXPLICIT + METAS + 1}`);

      // Cold: fresh manifest objects, so the first app parses all 1,001 of them.
      const fresh = (ms: readonly ChainManifest[]) => ms.map((m) => ({ ...m }));
      const coldInputs = inputs(fresh(discovered.implicit_layer), fresh(discovered.explicit_layer));
      let t0 = performance.now();
      computeLayerChain(coldInputs[0]!);
      const coldFirstAppMs = performance.now() - t0;
      t0 = performance.now();
      for (const input of coldInputs.slice(1)) computeLayerChain(input);
      const coldRestPerAppMs = (performance.now() - t0) / (APPS - 1);

      const warm = inputs(discovered.implicit_layer, discovered.explicit_layer);
      const answers = warm.map((input) => computeLayerChain(input));
      for (let r = 0; r < 3; r++) for (const input of warm) computeLayerChain(input); // let the JIT settle
      const rounds: number[] = [];
      const cpuRounds: number[] = [];
      const modelRound = () => {
        const c0 = process.cpuUsage();
        const t = performance.now();
        for (const input of warm) computeLayerChain(input);
        rounds.push((performance.now() - t) / APPS);
        const c = process.cpuUsage(c0);
        cpuRounds.push((c.user + c.system) / 1000 / APPS);
      };

      // The real loader, one process per app, one at a time; a round of the model after every
      // ROUND_EVERY of them, so a busy spell of the machine hits both sides alike.
      const runs: LoaderRun[] = [];
      for (const [i, a] of apps.entries()) {
        runs.push(await runLoader(a, env, join(home.dir, `log-${i}`)));
        if (i % ROUND_EVERY === 0) modelRound();
      }
      const modelPerAppMs = median(rounds);
      const loaderPerAppMs = median(runs.map((r) => median(r.createMs)));
      const disagree = apps.flatMap((a, i) => {
        const model = answers[i]!;
        const real = runs[i]!;
        const same =
          (model.result === 'VK_SUCCESS' ? 0 : -6) === real.result && JSON.stringify(model.chain.map((e) => e.libraryPath)) === JSON.stringify(real.chain);
        return same ? [] : [`app ${i}`];
      });
      if (disagree.length) throw new Error(`the model and the loader disagree on ${disagree.length} of ${APPS} apps: ${disagree.slice(0, 5).join(', ')}`);

      // Per loader version (issue #19): the model with that version's rules (shared/loader/loader-rules.ts),
      // against that release of the loader built from source, on the same tree and applications.
      const byLoaderVersion: Record<string, unknown> = {};
      const unavailable = matrixUnavailable();
      if (unavailable) byLoaderVersion['notRun'] = unavailable;
      else {
        for (const build of loaderMatrix(MATRIX_VERSIONS)) {
          const v = build.version;
          const versioned = warm.map((input) => ({ ...input, loaderVersion: v }));
          const modelAnswers = versioned.map((input) => computeLayerChain(input));
          for (let r = 0; r < 3; r++) for (const input of versioned) computeLayerChain(input);
          const perApp: number[] = [];
          for (let r = 0; r < 5; r++) {
            const t = performance.now();
            for (const input of versioned) computeLayerChain(input);
            perApp.push((performance.now() - t) / APPS);
          }
          const picked = apps.flatMap((a, i) => (i % MATRIX_APP_EVERY === 0 ? [i] : []));
          const real: LoaderRun[] = [];
          for (const i of picked) real.push(await runLoader(apps[i]!, { ...env, LD_LIBRARY_PATH: build.libDir }, join(home.dir, `log-${v}-${i}`)));
          const differ = picked.filter((i, k) => {
            const model = modelAnswers[i]!;
            return !(
              (model.result === 'VK_SUCCESS' ? 0 : -6) === real[k]!.result &&
              JSON.stringify(model.chain.map((e) => e.libraryPath)) === JSON.stringify(real[k]!.chain)
            );
          });
          const modelMs = median(perApp);
          const loaderMs = median(real.map((r) => median(r.createMs)));
          byLoaderVersion[v] = {
            ratio: Number((modelMs / loaderMs).toFixed(4)),
            perAppMs: Number(modelMs.toFixed(3)),
            referencePerAppMs: Number(loaderMs.toFixed(2)),
            agreeWithLoader: `${picked.length - differ.length}/${picked.length}`,
            ...(differ.length ? { disagreeOnApps: differ } : {}),
          };
        }
      }

      return {
        ratio: modelPerAppMs / loaderPerAppMs,
        perAppMs: Number(modelPerAppMs.toFixed(3)),
        targetPerAppMs: 1,
        // CPU time of this process (GC threads included): steadier than wall time on a busy machine.
        perAppCpuMs: Number(median(cpuRounds).toFixed(3)),
        referencePerAppMs: Number(loaderPerAppMs.toFixed(2)),
        reference: `vkCreateInstance of loader 1.3.239 (C, in-process, lavapipe), median of ${REPS} per app`,
        coldFirstAppMs: Number(coldFirstAppMs.toFixed(1)),
        coldRestPerAppMs: Number(coldRestPerAppMs.toFixed(3)),
        layers: layerCount,
        apps: APPS,
        meanChainLength: Number((answers.reduce((n, a) => n + a.chain.length, 0) / APPS).toFixed(1)),
        failingApps: answers.filter((a) => a.result !== 'VK_SUCCESS').length,
        agreeWithLoader: `${APPS - disagree.length}/${APPS}`,
        modelRounds: rounds.length,
        byLoaderVersion,
      };
    } finally {
      home.cleanup();
    }
  },
};
