import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { medianMs, type Bench } from './harness';
import { findAppRoot } from '../main/platform/app-paths';
import { discoveryManifests } from '../main/discovery/discovery-service';
import { AS_USERS_RUN, makeTempHome, type TempHome } from '../tests/helpers/temp-home';
import { seededRandom } from '../tests/helpers/seeded-random';

/**
 * 10,000 layer manifests spread over every Linux search location (XDG_CONFIG_HOME, two
 * XDG_CONFIG_DIRS, XDG_DATA_HOME, two XDG_DATA_DIRS, three VK_ADD_LAYER_PATH folders; the system
 * folders stay in the lists): Strata's discoveryManifests (search paths + scan + parse + lint of
 * every file, drivers too) against the real loader's vkEnumerateInstanceLayerProperties, count
 * call then fill call, as an application enumerates layers.
 *
 * Both sides time themselves in their own process (performance.now / clock_gettime), process start
 * excluded: Node's start-up (~50 ms, plus tsx) would otherwise swamp what is compared, and a user of
 * the UI or `strata serve` pays it once, not per discovery. Warm: the steady state of repeated calls
 * in one process (page cache warm on both sides, the tree was just written). Cold: the first call in
 * a fresh process (Strata: modules imported but code not yet optimised; the loader: its first
 * enumeration). Note that the loader's count + fill scans and parses every manifest twice (1.3.239
 * keeps no cache), so `ratioVsOneCall` compares with one call as well.
 *
 * The tree is valid JSON throughout (one invalid file makes loader 1.3.239 fail the enumeration),
 * with a sprinkling of files the linter flags and the loader still loads (a malformed api_version,
 * a name without VK_LAYER_), a few meta-layers and some two-layer "layers" files.
 */

const FILES = 10_000;

export const PROBE_C = String.raw`
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <vulkan/vulkan.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 1;
  printf("{\"runs\":[");
  for (int i = 0; i < runs; i++) {
    uint32_t count = 0;
    double t0 = now_ms();
    VkResult r1 = vkEnumerateInstanceLayerProperties(&count, NULL);
    double t1 = now_ms();
    VkLayerProperties *props = calloc(count ? count : 1, sizeof *props);
    uint32_t filled = count;
    VkResult r2 = vkEnumerateInstanceLayerProperties(&filled, props);
    double t2 = now_ms();
    free(props);
    printf("%s{\"countMs\":%.3f,\"fillMs\":%.3f,\"count\":%u,\"filled\":%u,\"r1\":%d,\"r2\":%d}", i ? "," : "", t1 - t0, t2 - t1, count, filled, r1, r2);
  }
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  printf("],\"maxRssKb\":%ld}\n", u.ru_maxrss);
  return 0;
}
`;

interface ProbeRun {
  countMs: number;
  fillMs: number;
  count: number;
  filled: number;
  r1: number;
  r2: number;
}

interface Tree {
  env: NodeJS.ProcessEnv;
  files: number;
  layers: number;
}

/** Writes the tree under the temporary home; returns the environment that points the loader at it (exported for profiling runs). */
export function buildTree(home: TempHome): Tree {
  const random = seededRandom(10_000);
  const p = (...parts: string[]) => join(home.dir, ...parts);
  const cfgDirs = [p('etc1'), p('etc2')];
  const dataDirs = [p('share1'), p('share2')];
  const addDirs = [p('add1'), p('add2'), p('add3')];
  const standard = [home.env['XDG_CONFIG_HOME']!, ...cfgDirs, home.env['XDG_DATA_HOME']!, ...dataDirs];
  const explicitFolders = [...standard.map((d) => join(d, 'vulkan', 'explicit_layer.d')), ...addDirs];
  const implicitFolders = standard.map((d) => join(d, 'vulkan', 'implicit_layer.d'));
  for (const d of [...explicitFolders, ...implicitFolders]) mkdirSync(d, { recursive: true });

  const extension = (name: string, entrypoints: boolean) => ({
    name,
    spec_version: String(1 + Math.floor(random() * 9)),
    ...(entrypoints ? { entrypoints: [`vk${name.slice(3)}Cmd`, `vk${name.slice(3)}Query`] } : {}),
  });
  let seq = 0;
  let layers = 0;
  const explicitNames: string[] = [];
  const layer = (implicit: boolean, meta: boolean) => {
    const n = String(seq++).padStart(5, '0');
    const odd = random();
    const name = odd < 0.005 ? `STRATA_bench_${n}` : `VK_LAYER_STRATA_bench_${n}`;
    const l: Record<string, unknown> = {
      name,
      type: random() < 0.9 ? 'GLOBAL' : 'INSTANCE',
      ...(meta ? {} : { library_path: `./libVkLayer_bench_${n}.so` }),
      api_version: odd > 0.99 ? '1.3' : '1.3.239',
      implementation_version: String(1 + Math.floor(random() * 20)),
      description: `Strata discovery benchmark layer ${n}`,
    };
    if (meta) {
      const picks = new Set<string>();
      while (picks.size < 3) picks.add(explicitNames[Math.floor(random() * explicitNames.length)]!);
      l['component_layers'] = [...picks];
    }
    if (!meta && random() < 0.35) {
      l['instance_extensions'] = [extension(`VK_EXT_bench_instance_${n}`, false)];
      l['device_extensions'] = [extension(`VK_EXT_bench_device_${n}`, true), extension('VK_EXT_debug_marker', true)];
    }
    if (implicit) {
      l['disable_environment'] = { [`DISABLE_STRATA_BENCH_${n}`]: '1' };
      if (random() < 0.3) l['enable_environment'] = { [`ENABLE_STRATA_BENCH_${n}`]: '1' };
    } else if (!meta && name.startsWith('VK_LAYER_')) explicitNames.push(name);
    layers++;
    return l;
  };

  for (let i = 0; i < FILES; i++) {
    const r = i / FILES;
    // ~8% implicit, ~2% meta-layers (after the first thousand, so there are components to name), 2% two-layer files.
    const implicit = i % 12 === 5;
    const meta = !implicit && r > 0.1 && i % 50 === 7;
    const two = !implicit && !meta && i % 50 === 13;
    const folders = implicit ? implicitFolders : explicitFolders;
    const folder = folders[i % folders.length]!;
    const json = two
      ? { file_format_version: '1.1.2', layers: [layer(false, false), layer(false, false)] }
      : { file_format_version: meta ? '1.1.2' : '1.1.0', layer: layer(implicit, meta) };
    writeFileSync(join(folder, `VkLayer_bench_${String(i).padStart(5, '0')}.json`), `${JSON.stringify(json, null, 4)}\n`);
  }
  const env = {
    ...home.env,
    XDG_CONFIG_DIRS: [...cfgDirs, '/etc/xdg'].join(':'),
    XDG_DATA_DIRS: [...dataDirs, '/usr/local/share', '/usr/share'].join(':'),
    VK_ADD_LAYER_PATH: addDirs.join(':'),
  };
  return { env, files: FILES, layers };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

/** One discovery in a fresh Node process (tsx, as `npm run bench` runs): its time, and its peak RSS. */
function strataCold(root: string, env: NodeJS.ProcessEnv): { ms: number; importMs: number; rssBeforeKb: number; maxRssKb: number } {
  const service = pathToFileURL(join(root, 'main', 'discovery', 'discovery-service.ts')).href;
  const script = `
    const t0 = performance.now();
    const { discoveryManifests } = await import(${JSON.stringify(service)});
    const t1 = performance.now();
    const rssBeforeKb = process.resourceUsage().maxRSS;
    const inv = await discoveryManifests({ env: process.env });
    const t2 = performance.now();
    if (inv.manifests.explicit_layer.length < ${FILES / 2}) throw new Error('too few manifests');
    console.log(JSON.stringify({ ms: t2 - t1, importMs: t1 - t0, rssBeforeKb, maxRssKb: process.resourceUsage().maxRSS }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

function runProbe(probe: string, env: NodeJS.ProcessEnv, cwd: string, runs: number): { runs: ProbeRun[]; maxRssKb: number } {
  const r = spawnSync(probe, [String(runs)], { env, cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`loader probe exited ${r.status}: ${r.stderr.slice(-500)}`);
  return JSON.parse(r.stdout);
}

export const discovery10kBench: Bench = {
  name: 'discovery-10k',
  async run() {
    const root = findAppRoot();
    const home = makeTempHome(AS_USERS_RUN);
    try {
      const probeSource = join(home.dir, 'enumerate-layers.c');
      const probe = join(home.dir, 'enumerate-layers');
      writeFileSync(probeSource, PROBE_C);
      execFileSync('gcc', ['-O2', '-Wall', '-Werror', probeSource, '-o', probe, '-lvulkan'], { stdio: 'pipe' });

      const tree = buildTree(home);
      const { env } = tree;

      // Strata, in this process: one warm-up, then the median of 5.
      const first = await discoveryManifests({ env });
      const strataLayers = [...first.manifests.implicit_layer, ...first.manifests.explicit_layer].reduce(
        (n, m) => n + (m.duplicateOf === null ? m.layers.length : 0),
        0,
      );
      const strataFiles = first.manifests.implicit_layer.length + first.manifests.explicit_layer.length;
      const warm = await medianMs(5, () => discoveryManifests({ env }).then(() => undefined));

      // Strata cold: a fresh process per sample, median of 3.
      const colds = [0, 1, 2].map(() => strataCold(root, env));

      // The loader: 3 fresh processes of 6 count+fill rounds each; the first round of each is cold.
      const probes = [0, 1, 2].map(() => runProbe(probe, env, home.dir, 6));
      for (const pr of probes)
        for (const r of pr.runs) if (r.r1 !== 0 || r.r2 !== 0) throw new Error(`vkEnumerateInstanceLayerProperties returned ${r.r1}/${r.r2}`);
      const loaderCount = probes[0]!.runs[0]!.count;
      // Sanity: the loader saw the whole tree (every generated layer plus the system ones), so we compare like with like.
      if (loaderCount < tree.layers) throw new Error(`the loader enumerated ${loaderCount} layers, fewer than the ${tree.layers} generated`);
      const loaderWarmRuns = probes.flatMap((pr) => pr.runs.slice(1));
      const loaderWarm = median(loaderWarmRuns.map((r) => r.countMs + r.fillMs));
      const loaderWarmOne = median(loaderWarmRuns.map((r) => r.countMs));
      const loaderCold = median(probes.map((pr) => pr.runs[0]!.countMs + pr.runs[0]!.fillMs));
      const strataColdMs = median(colds.map((c) => c.ms));

      return {
        ratio: warm / loaderWarm,
        ratioCold: round(strataColdMs / loaderCold, 3),
        ratioVsOneCall: round(warm / loaderWarmOne, 3),
        strataWarmMs: round(warm),
        strataColdMs: round(strataColdMs),
        strataImportMs: round(median(colds.map((c) => c.importMs))),
        loaderWarmMs: round(loaderWarm),
        loaderWarmOneCallMs: round(loaderWarmOne),
        loaderColdMs: round(loaderCold),
        reference: 'libvulkan vkEnumerateInstanceLayerProperties count + fill, timed in process',
        files: strataFiles,
        generatedFiles: tree.files,
        layers: { strata: strataLayers, loader: loaderCount },
        strataPeakRssMB: round(median(colds.map((c) => c.maxRssKb)) / 1024),
        strataRssBeforeDiscoveryMB: round(median(colds.map((c) => c.rssBeforeKb)) / 1024),
        loaderPeakRssMB: round(median(probes.map((pr) => pr.maxRssKb)) / 1024),
      };
    } finally {
      home.cleanup();
    }
  },
};
