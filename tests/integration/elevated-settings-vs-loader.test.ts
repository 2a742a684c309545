import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import {
  buildElevatedProbes,
  NAMESPACE_FOLDERS,
  namespaceUnavailable,
  runInNamespace,
  setuidCapableFolder,
  type ElevatedProbes,
} from '../helpers/elevated-probes';
import type { ChainAnswer, NamespaceJob, SearchStep, VariantAnswer } from '../helpers/elevated-namespace-worker';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';
import { compareLoaderVersions, LOADER_RULES, loaderHas, NEWEST_PROVEN } from '../../shared/loader/loader-rules';

/**
 * Elevated mode and vk_loader_settings.json, against the six real loaders. An elevated application
 * (setuid/setgid: AT_SECURE, so the loader's secure_getenv answers NULL) reads the settings file
 * only from the system folders, takes drivers from it, and loads the layers it names, while the
 * user's folders and the search variables are ignored. Those folders are /etc/vulkan, /etc/xdg and
 * /usr/local/share: the test never writes them. Each scenario runs in a private mount namespace
 * (`unshare --mount`) where they are copies in the test's HOME, with both the real loader (setuid
 * and setgid copies of tests/fixtures/discovery/elevated-probe.c, linked to each build through
 * DT_RPATH) and Strata's model (tests/helpers/elevated-namespace-worker.ts) looking at the same files.
 * The plain probe (root, not elevated) runs the same scenario, so each one shows what elevation changes.
 *
 * Needs root and mount namespaces; under CI=true a missing one fails every test with the reason.
 */

const matrixSkipped = matrixSkip();
const unavailable = matrixSkipped ? null : namespaceUnavailable();
const SKIP = matrixSkipped || (unavailable && process.env['CI'] !== 'true' ? `elevated settings suite did not run: ${unavailable}` : false);
const builds: LoaderBuild[] = SKIP ? [] : loaderMatrix();

let buildDir = '';
const probeSets = new Map<string, ElevatedProbes>();
const LAYERS = ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_b', 'VK_LAYER_STRATA_c', 'VK_LAYER_STRATA_d', 'VK_LAYER_STRATA_e'] as const;
type LayerName = (typeof LAYERS)[number];
const layerLibrary = (name: LayerName) => join(buildDir, `lib${name}.so`);
const fakeDriver = () => join(buildDir, 'libfake_good.so');

before(() => {
  if (SKIP || unavailable) return;
  buildDir = mkdtempSync(join(setuidCapableFolder(), 'strata-elevated-settings-'));
  chmodSync(buildDir, 0o755); // nobody must reach the probes, layers and driver
  for (const b of builds) probeSets.set(b.version, buildElevatedProbes(buildDir, b.version, b.libDir));
  const src = join(APP_ROOT, 'tests', 'fixtures');
  for (const name of LAYERS)
    execFileSync(
      'gcc',
      ['-O1', '-Wall', '-shared', '-fPIC', `-DLAYER_NAME="${name}"`, '-o', layerLibrary(name), join(src, 'layers', 'recording-layer.c'), '-ldl'],
      {
        stdio: 'pipe',
      },
    );
  execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-D', 'FAKE_GOOD', join(src, 'icd', 'fake-icd.c'), '-o', fakeDriver()], { stdio: 'pipe' });
});
after(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

/** A scenario's files: the temporary HOME (world-readable) and the copies of the system folders. */
class Tree {
  readonly copies: string[];
  constructor(readonly home: TempHome) {
    chmodSync(home.dir, 0o755);
    mkdirSync(join(home.dir, 'sys'));
    this.copies = NAMESPACE_FOLDERS.map((f, i) => {
      const copy = join(home.dir, 'sys', String(i));
      execFileSync('cp', ['-a', f, copy]);
      return copy;
    });
  }
  /** Where a path of the namespace (a system folder or the HOME) is written from outside it. */
  outside(path: string): string {
    const i = NAMESPACE_FOLDERS.findIndex((f) => path === f || path.startsWith(`${f}/`));
    return i < 0 ? path : this.copies[i]! + path.slice(NAMESPACE_FOLDERS[i]!.length);
  }
  /** Writes `text` at `path` (as the namespace sees it), every folder on the way readable by nobody. */
  write(path: string, text: string): string {
    const real = this.outside(path);
    mkdirSync(dirname(real), { recursive: true, mode: 0o755 });
    writeFileSync(real, text, { mode: 0o644 });
    for (let d = dirname(real); d.startsWith(this.home.dir) && d !== this.home.dir; d = dirname(d)) chmodSync(d, 0o755);
    return path;
  }
  p(...parts: string[]) {
    return join(this.home.dir, ...parts);
  }
  layer(path: string, name: LayerName, implicit = false): string {
    const l: Record<string, unknown> = {
      name,
      type: 'GLOBAL',
      library_path: layerLibrary(name),
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'recording layer',
    };
    if (implicit) l['disable_environment'] = { [`DISABLE_${name.slice(-1).toUpperCase()}`]: '1' };
    return this.write(path, JSON.stringify({ file_format_version: '1.1.0', layer: l }));
  }
  driver(path: string): string {
    return this.write(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: fakeDriver(), api_version: '1.3.0' } }));
  }
}

// Builds of 1.3.251–1.3.252 read vulkan/settings.d (the table's own row: a STRATA_RULE_FLIP of it does not move the file).
const systemSettings = (version: string) =>
  `/etc/vulkan/${compareLoaderVersions(version, LOADER_RULES.find((r) => r.id === 'settings-folder-renamed')!.since) >= 0 ? 'loader_settings.d' : 'settings.d'}/vk_loader_settings.json`;
const settingsText = (entry: Record<string, unknown>) => JSON.stringify({ file_format_version: '1.0.0', settings_array: [entry] });

function scenario(b: LoaderBuild, body: (t: Tree, job: (kind: NamespaceJob['kind'], env: Record<string, string>) => unknown) => void) {
  return () => {
    assert.equal(unavailable, null, `elevated settings suite cannot run: ${unavailable}`);
    const home = makeTempHome();
    try {
      const t = new Tree(home);
      body(t, (kind, env) =>
        runInNamespace(t.copies, {
          kind,
          version: b.version,
          probes: probeSets.get(b.version)!,
          env: { ...(home.env as Record<string, string>), ...env },
          home: home.dir,
          log: t.p('layers.log'),
        }),
      );
    } finally {
      home.cleanup();
    }
  };
}

function assertElevated(a: { variant: string; ids: { uid: number; euid: number; gid: number; egid: number } }) {
  const elevated = a.ids.uid !== a.ids.euid || a.ids.gid !== a.ids.egid;
  assert.equal(elevated, a.variant !== 'plain', `${a.variant} probe ids ${JSON.stringify(a.ids)} (${buildDir} must not be nosuid)`);
}

for (const b of SKIP ? [{ version: 'the matrix' } as LoaderBuild] : builds) {
  test(
    `elevated, loader ${b.version}: the vk_loader_settings.json it reads is the first of the system folders Strata names; the user's are never read`,
    { skip: SKIP },
    scenario(b, (t, job) => {
      const env = { XDG_DATA_HOME: t.p('xdg-data'), XDG_CONFIG_DIRS: t.p('config-dirs'), XDG_DATA_DIRS: t.p('data-dirs') };
      const text = settingsText({ layers: [{ control: 'unordered_layer_location' }] });
      // Everywhere this loader or the newest one looks, elevated or not: the user's places and the variables' too.
      const places = new Set<string>();
      for (const version of [b.version, NEWEST_PROVEN])
        for (const elevated of [false, true])
          for (const p of settingsFileSearch({ env: { ...t.home.env, ...env }, loaderVersion: version, elevated })) places.add(p);
      for (const p of places) t.write(p, text);
      const steps = job('search', env) as SearchStep[];
      for (const s of steps) {
        for (const ids of s.ids) assert.ok(ids.uid !== ids.euid || ids.gid !== ids.egid, `not elevated: ${JSON.stringify(ids)}`);
        assert.deepEqual([s.setuid, s.setgid], [s.strata, s.strata], `loader ${b.version}: the elevated loader read another settings file than Strata names`);
        assert.ok(!s.setuid?.startsWith(t.home.dir), `loader ${b.version}: the elevated loader read the user's ${s.setuid}`);
      }
      assert.equal(steps.at(-1)!.strata, null, 'with the system files removed one by one, none is left');
      const read = steps.flatMap((s) => (s.strata ? [s.strata] : []));
      if (loaderHas(b.version, 'settings-file'))
        assert.ok(read.includes(systemSettings(b.version)), `${systemSettings(b.version)} was never read: ${read.join(', ')}`);
      else assert.deepEqual(read, []);
    }),
  );

  test(
    `elevated, loader ${b.version}: the settings file's additional_drivers are read, VK_ADD_DRIVER_FILES and the user's drivers are not, as Strata lists them`,
    { skip: SKIP },
    scenario(b, (t, job) => {
      const fromFile = t.driver(t.p('icds', 'a.json'));
      const added = t.driver(t.p('icds', 'b.json'));
      const user = t.driver(t.p('.local', 'share', 'vulkan', 'icd.d', 'c.json'));
      // stderr_log: the driver log must come out on the loaders whose active settings file silences VK_LOADER_DEBUG.
      t.write(
        systemSettings(b.version),
        settingsText({ stderr_log: ['all'], layers: [{ control: 'unordered_layer_location' }], additional_drivers: [{ path: fromFile }] }),
      );
      const answers = job('drivers', { VK_ADD_DRIVER_FILES: added }) as VariantAnswer<string[]>[];
      for (const a of answers) {
        assertElevated(a);
        assert.deepEqual(a.strata, a.loader, `loader ${b.version}, ${a.variant}: the driver manifests it reads differ from Strata's list`);
        const elevated = a.variant !== 'plain';
        assert.equal(a.loader.includes(added), !elevated, `${a.variant}: VK_ADD_DRIVER_FILES`);
        assert.equal(a.loader.includes(user), !elevated, `${a.variant}: the user's driver folder`);
        assert.equal(a.loader.includes(fromFile), loaderHas(b.version, 'settings-drivers'), `${a.variant}: the settings file's additional driver`);
      }
      assert.equal(answers[0]!.loaderVersion, b.version, 'the probe runs the loader of this version');
    }),
  );

  test(
    `elevated, loader ${b.version}: the chain with a system settings file, a system implicit layer and VK_INSTANCE_LAYERS equals Strata's; VK_LAYER_PATH, the filters and the user's layers are ignored`,
    { skip: SKIP },
    scenario(b, (t, job) => {
      const named = t.layer(t.p('settings-layers', 'a.json'), 'VK_LAYER_STRATA_a');
      t.layer(t.p('.local', 'share', 'vulkan', 'implicit_layer.d', 'b.json'), 'VK_LAYER_STRATA_b', true);
      t.layer('/etc/vulkan/explicit_layer.d/strata-c.json', 'VK_LAYER_STRATA_c');
      t.layer(t.p('lp', 'd.json'), 'VK_LAYER_STRATA_d');
      t.layer('/etc/vulkan/implicit_layer.d/strata-e.json', 'VK_LAYER_STRATA_e', true);
      t.write(
        systemSettings(b.version),
        settingsText({
          layers: [{ control: 'on', name: 'VK_LAYER_STRATA_a', path: named, treat_as_implicit_manifest: false }, { control: 'unordered_layer_location' }],
        }),
      );
      const answers = job('chain', {
        VK_LAYER_PATH: t.p('lp'),
        VK_INSTANCE_LAYERS: 'VK_LAYER_STRATA_c:VK_LAYER_STRATA_d',
        VK_LOADER_LAYERS_DISABLE: 'VK_LAYER_STRATA_e',
      }) as VariantAnswer<ChainAnswer>[];
      const names = (a: ChainAnswer) => a.chain.map((l) => l.split(' ')[0]);
      for (const a of answers) {
        assertElevated(a);
        assert.deepEqual(a.strata, a.loader, `loader ${b.version}, ${a.variant}: the chain differs from Strata's`);
      }
      // 1.3.267–1.3.301 crash on VK_INSTANCE_LAYERS with a settings file that lists layers (settings-instance-layers-overflow,
      // settings-instance-layers-fix): predicted above, elevated or not; there is no chain to look into.
      if (answers.every((a) => a.loader.result === 'crash')) {
        assert.ok(
          loaderHas(b.version, 'settings-instance-layers-overflow') && !loaderHas(b.version, 'settings-instance-layers-fix'),
          `loader ${b.version} crashed`,
        );
        return;
      }
      const [plain, setuid, setgid] = answers.map((a) => names(a.loader));
      assert.deepEqual(setgid, setuid, 'setuid and setgid are both elevated');
      // The user's implicit layer and VK_LAYER_PATH's layer: in the plain chain only.
      assert.ok(plain!.includes('VK_LAYER_STRATA_b') && !setuid!.includes('VK_LAYER_STRATA_b'), `user's implicit layer: ${plain} / ${setuid}`);
      assert.ok(!setuid!.includes('VK_LAYER_STRATA_d'), `VK_LAYER_PATH's layer: ${setuid}`);
      // The layer the system's settings file turns on, from the user's folder, and VK_INSTANCE_LAYERS' system layer.
      assert.equal(setuid!.includes('VK_LAYER_STRATA_a'), loaderHas(b.version, 'settings-file'), `the settings file's layer: ${setuid}`);
      assert.ok(setuid!.includes('VK_LAYER_STRATA_c'), `VK_INSTANCE_LAYERS: ${setuid}`);
    }),
  );
}
