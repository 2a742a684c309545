import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { parseLoaderSearches, type LoaderSearch } from '../helpers/loader-log';
import { computeSearchPaths, DEBIAN_LINUX, MANIFEST_KINDS, type ManifestKind } from '../../shared/loader/search-paths';
import { DiscoveryPathsSchema } from '../../shared/loader/search-paths-schema';
import { DiscoveredManifestSchema } from '../../shared/discovery/manifest-inventory-schema';
import { scanManifests } from '../../main/discovery/manifest-scanner';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { buildElevatedProbes, isRoot, setuidCapableFolder, type ElevatedProbes } from '../helpers/elevated-probes';

/**
 * Elevated mode against the real loader. "Exception for Elevated Privileges" (LLP_LOADER_13, and
 * the XDG_*_HOME rows of "Linux Layer Discovery"): a setuid/setgid application gets no
 * VK_LAYER_PATH, VK_ADD_LAYER_PATH, VK_DRIVER_FILES …, no XDG_* variables and no home folders.
 *
 * The probe is copied setuid to `nobody` (and setgid to `nogroup`) in a world-readable temporary
 * folder and run as root, so real id ≠ effective id: glibc sets AT_SECURE, and loader 1.3.239's
 * secure_getenv answers NULL. Its VK_LOADER_DEBUG log still comes out (the loader reads that one
 * with plain getenv, found by running it), so the search locations and files are compared with
 * Strata's `elevated: true` search paths + scanner, and with `strata path list --elevated`.
 */

const SKIP = isRoot
  ? false
  : 'needs root: the test makes setuid/setgid copies of a probe owned by nobody/nogroup and runs them as root, so real id != effective id';

let buildDir = '';
/** Probes per loader: the system's (Debian 12), and each version of the matrix through an RPATH (a setuid program ignores LD_LIBRARY_PATH). */
const probeSets = new Map<string, ElevatedProbes>();
const matrixSkipped = matrixSkip();
const builds: LoaderBuild[] = isRoot && !matrixSkipped ? loaderMatrix() : [];

before(() => {
  if (!isRoot) return;
  buildDir = mkdtempSync(join(setuidCapableFolder(), 'strata-elevated-probe-'));
  // nobody must reach the binaries: the folder is world-readable (mkdtemp makes it 0700).
  chmodSync(buildDir, 0o755);
  for (const b of [{ version: 'system', libDir: null as string | null }, ...builds])
    probeSets.set(b.version, buildElevatedProbes(buildDir, b.version, b.libDir));
});
after(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

interface ProbeRun {
  log: string;
  ids: { uid: number; euid: number; gid: number; egid: number };
  searches: Record<ManifestKind, LoaderSearch>;
  /** vkEnumerateInstanceLayerProperties, in the loader's order. */
  layers: string[];
}

function runProbe(probe: string, env: NodeJS.ProcessEnv, cwd: string): ProbeRun {
  const r = spawnSync(probe, [], { env: { ...env, VK_LOADER_DEBUG: 'all' }, cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  const m = r.stderr.match(/STRATA-PROBE: uid=(\d+) euid=(\d+) gid=(\d+) egid=(\d+)/);
  assert.ok(m, `the probe printed no ids:\n${r.stderr.slice(0, 1000)}`);
  return {
    log: r.stderr,
    ids: { uid: Number(m[1]), euid: Number(m[2]), gid: Number(m[3]), egid: Number(m[4]) },
    searches: parseLoaderSearches(r.stderr),
    layers: r.stdout.split('\n').filter(Boolean),
  };
}

/** A manifest of every kind in every place the environment below names, world-readable. */
function buildTree(home: TempHome) {
  const p = (...parts: string[]) => join(home.dir, ...parts);
  const layer = (path: string, name: string, implicit = false) => {
    mkdirSync(dirname(path), { recursive: true });
    const l: Record<string, unknown> = {
      name,
      type: 'GLOBAL',
      library_path: './libmissing.so',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'elevated test',
    };
    if (implicit) l['disable_environment'] = { STRATA_TEST_DISABLE: '1' };
    writeFileSync(path, JSON.stringify({ file_format_version: '1.1.0', layer: l }));
  };
  const driver = (path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: './libmissing_icd.so', api_version: '1.3.0' } }));
  };
  layer(p('.config/vulkan/implicit_layer.d/home_implicit.json'), 'VK_LAYER_STRATA_home_implicit', true);
  layer(p('.config/vulkan/explicit_layer.d/home_explicit.json'), 'VK_LAYER_STRATA_home_explicit');
  driver(p('.local/share/vulkan/icd.d/home_icd.json'));
  layer(p('cfg/vulkan/implicit_layer.d/cfg_implicit.json'), 'VK_LAYER_STRATA_cfg_implicit', true);
  layer(p('data/vulkan/explicit_layer.d/data_explicit.json'), 'VK_LAYER_STRATA_data_explicit');
  driver(p('data/vulkan/icd.d/data_icd.json'));
  layer(p('lp/replace.json'), 'VK_LAYER_STRATA_layer_path');
  layer(p('add/added.json'), 'VK_LAYER_STRATA_add_layer_path');
  driver(p('drivers/replace_icd.json'));
  driver(p('drivers/added_icd.json'));
  for (const d of [home.dir, ...['.config', '.local', '.local/share', 'cfg', 'data', 'lp', 'add', 'drivers'].map((x) => p(x))]) chmodSync(d, 0o755);
  return p;
}

/** The layer names a manifest's text declares (`layer` or `layers`). */
function layerNames(text: string | null): string[] {
  try {
    const json = JSON.parse(text ?? '') as { layer?: { name?: string }; layers?: { name?: string }[] };
    return [...(json.layer ? [json.layer] : []), ...(json.layers ?? [])].flatMap((l) => (l.name ? [l.name] : []));
  } catch {
    return [];
  }
}

interface Scenario {
  name: string;
  env(p: (...parts: string[]) => string): Record<string, string>;
}

const scenarios: Scenario[] = [
  {
    name: 'VK_LAYER_PATH, VK_DRIVER_FILES and every XDG_* variable set',
    env: (p) => ({ VK_LAYER_PATH: p('lp'), VK_DRIVER_FILES: p('drivers/replace_icd.json'), XDG_CONFIG_DIRS: p('cfg'), XDG_DATA_DIRS: p('data') }),
  },
  {
    name: 'VK_ADD_LAYER_PATH, VK_ADD_DRIVER_FILES, and the home folders through HOME and XDG_*_HOME',
    env: (p) => ({ VK_ADD_LAYER_PATH: p('add'), VK_ADD_DRIVER_FILES: p('drivers/added_icd.json') }),
  },
  {
    name: 'VK_ICD_FILENAMES (the older name) and a single-file VK_LAYER_PATH',
    env: (p) => ({ VK_ICD_FILENAMES: p('drivers/replace_icd.json'), VK_LAYER_PATH: p('add/added.json') }),
  },
  {
    name: 'VK_IMPLICIT_LAYER_PATH and VK_ADD_IMPLICIT_LAYER_PATH (read by 1.3.296+, ignored by every loader when elevated)',
    env: (p) => ({ VK_IMPLICIT_LAYER_PATH: p('cfg/vulkan/implicit_layer.d'), VK_ADD_IMPLICIT_LAYER_PATH: p('.config/vulkan/implicit_layer.d') }),
  },
];

for (const version of ['system', ...(isRoot && !matrixSkipped ? builds.map((b) => b.version) : [])])
  for (const s of scenarios) {
    test(`elevated, loader ${version}: the loader ignores the user's paths, and Strata's elevated search equals it — ${s.name}`, { skip: SKIP }, async () => {
      const probes = probeSets.get(version)!;
      const home = makeTempHome();
      try {
        const p = buildTree(home);
        const env: NodeJS.ProcessEnv = { ...home.env, ...s.env(p) };

        // Not elevated (the plain binary, as root): the variables are in effect, so the test means something.
        const plain = runProbe(probes.plain, env, home.dir);
        const plainFiles = [...plain.searches.implicit_layer.files, ...plain.searches.explicit_layer.files, ...plain.searches.driver.files];
        assert.ok(
          plainFiles.some((f) => f.startsWith(home.dir)),
          'the plain probe reads manifests under the temporary home',
        );
        if (version !== 'system')
          assert.match(plain.log, new RegExp(`Vulkan Loader Version ${version.replaceAll('.', '\\.')}`), 'the probe runs the loader of this version');

        for (const variant of ['setuid', 'setgid'] as const) {
          const run = runProbe(probes[variant], env, home.dir);
          const elevated = run.ids.uid !== run.ids.euid || run.ids.gid !== run.ids.egid;
          assert.ok(elevated, `the ${variant} bit had no effect (${JSON.stringify(run.ids)}) in ${buildDir}`);
          const strataPaths = computeSearchPaths({
            platform: DEBIAN_LINUX,
            env,
            user: { home: env['HOME'] ?? null, elevated: true },
            loaderVersion: version === 'system' ? null : version,
          });
          const strata = await scanManifests(strataPaths, { cwd: home.dir });
          for (const kind of MANIFEST_KINDS) {
            assert.deepEqual(
              strata.locations[kind].map((l) => l.path),
              run.searches[kind].locations,
              `${variant} ${kind}: search locations differ from the elevated loader's`,
            );
            assert.deepEqual(
              strata.manifests[kind].map((m) => m.path),
              run.searches[kind].files,
              `${variant} ${kind}: manifest files differ from the elevated loader's`,
            );
            assert.ok(!run.searches[kind].locations.some((l) => l.startsWith(home.dir)), `${variant} ${kind}: the elevated loader searched the user's folders`);
          }
          // And what it enumerates: the names of the layer manifests Strata finds, in the loader's order
          // (implicit, then explicit; the first manifest of a name wins).
          const names = [...new Set([...strata.manifests.implicit_layer, ...strata.manifests.explicit_layer].flatMap((m) => layerNames(m.text)))];
          assert.deepEqual([...run.layers].sort(), [...names].sort(), `${variant}: enumerated layers`);
        }

        // The CLI (built bundle) as a user asks it, without being elevated itself (once: it does not depend on the loader).
        if (version !== 'system') return;
        const loader = runProbe(probes.setuid, env, home.dir).searches;
        const cli = runStrata(['path', 'list', '--elevated', '--json'], env);
        assert.equal(cli.status, 0, cli.stderr);
        const paths = DiscoveryPathsSchema.parse(JSON.parse(cli.stdout));
        assert.equal(paths.elevated, true);
        for (const kind of MANIFEST_KINDS)
          assert.deepEqual(
            paths.locations[kind].map((l) => l.path),
            loader[kind].locations,
            `strata path list --elevated: ${kind}`,
          );
        const layers = runStrata(['layer', 'list', '--elevated', '--json'], env);
        assert.equal(layers.status, 0, layers.stderr);
        const listed = DiscoveredManifestSchema.array()
          .parse(JSON.parse(layers.stdout))
          .map((m) => m.path);
        assert.deepEqual(listed, [...loader.implicit_layer.files, ...loader.explicit_layer.files], 'strata layer list --elevated');
        const human = runStrata(['path', 'list', '--elevated'], env);
        assert.match(human.stdout, /^Elevated: the loader ignores VK_LAYER_PATH/m);
      } finally {
        home.cleanup();
      }
    });
  }

test('without --elevated the same CLI run honours the variables (root is not "elevated": real id = effective id)', { skip: SKIP }, () => {
  const home = makeTempHome();
  try {
    const p = buildTree(home);
    const env = { ...home.env, VK_LAYER_PATH: p('lp') };
    const paths = DiscoveryPathsSchema.parse(JSON.parse(runStrata(['path', 'list', '--json'], env).stdout));
    assert.equal(paths.elevated, false);
    assert.deepEqual(
      paths.locations.explicit_layer.map((l) => l.origin),
      ['VK_LAYER_PATH[0]'],
    );
  } finally {
    home.cleanup();
  }
});
