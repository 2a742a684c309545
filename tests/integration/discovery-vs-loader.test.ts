import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';
import { parseLoaderSearches, type LoaderSearch } from '../helpers/loader-log';
import { computeSearchPaths, DEBIAN_LINUX, MANIFEST_KINDS, type ManifestKind } from '../../shared/loader/search-paths';
import { DiscoveryPathsSchema } from '../../shared/loader/search-paths-schema';
import { scanManifests, type ManifestFile, type ScanResult } from '../../main/discovery/manifest-scanner';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { loaderHas } from '../../shared/loader/loader-rules';

/**
 * The ground truth for discovery: each of the six real loaders of the matrix (1.3.239 … 1.4.359,
 * tests/helpers/loader-builds.ts, configured as the distributions configure them) with
 * VK_LOADER_DEBUG=all, run through a tiny C probe in a temporary home, must list the same search
 * locations and the same manifest files, in the same order, as Strata's search paths + scanner
 * given that loader's version.
 *
 * The system folders (/etc/xdg/vulkan, /etc/vulkan, /usr/local/share/vulkan, /usr/share/vulkan …)
 * are part of every comparison, not filtered: both sides read the real ones, so Debian's installed
 * manifests (validation layers, Mesa drivers) are compared too, in their real readdir order.
 */

const PROBE_SOURCE = join(APP_ROOT, 'tests', 'fixtures', 'discovery', 'loader-scan-probe.c');
let buildDir = '';
let probe = '';

before(() => {
  buildDir = mkdtempSync(join(tmpdir(), 'strata-discovery-probe-'));
  probe = join(buildDir, 'loader-scan-probe');
  execFileSync('gcc', ['-O1', '-Wall', '-Werror', PROBE_SOURCE, '-o', probe, '-lvulkan'], { stdio: 'pipe' });
});
after(() => rmSync(buildDir, { recursive: true, force: true }));

/** A temporary tree (inside the temporary home) to put manifests in. */
class Tree {
  constructor(readonly home: TempHome) {}
  get dir() {
    return this.home.dir;
  }
  p(...parts: string[]) {
    return join(this.home.dir, ...parts);
  }
  /** A minimal layer manifest; the library does not exist, which discovery does not care about. */
  layer(path: string, name = `VK_LAYER_STRATA_${basename(path, '.json').replace(/\W/g, '_')}`, implicit = false) {
    mkdirSync(dirname(path), { recursive: true });
    const layer: Record<string, unknown> = {
      name,
      type: 'GLOBAL',
      library_path: './libmissing.so',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'strata discovery test',
    };
    if (implicit) layer['disable_environment'] = { STRATA_TEST_DISABLE: '1' };
    writeFileSync(path, JSON.stringify({ file_format_version: '1.1.0', layer }));
    return path;
  }
  implicit(path: string) {
    return this.layer(path, undefined, true);
  }
  driver(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: './libmissing_icd.so', api_version: '1.3.0' } }));
    return path;
  }
}

interface Scenario {
  name: string;
  /** Only for loaders that have this behaviour (a row of loader-rules.ts), or only those that lack it. */
  when?: (version: string) => boolean;
  /** Builds files under the tree; returns the variables to set ('' sets an empty one, null removes one). */
  setup(t: Tree): Record<string, string | null>;
  /** The probe's working directory (relative entries of the variables resolve against it). */
  cwd?(t: Tree): string;
  /** What this scenario is about, checked on Strata's result (which must also equal the loader's). */
  expect(r: ScanResult, t: Tree): void;
  /** Undoes what would stop the temporary home from being removed (e.g. a folder's mode 000). */
  cleanup?(t: Tree): void;
}

const paths = (r: ScanResult, kind: ManifestKind) => r.manifests[kind].map((m) => m.path);
const ours = (r: ScanResult, kind: ManifestKind, t: Tree) => r.manifests[kind].filter((m) => m.path.includes(t.dir)).map((m) => m.path);

const scenarios: Scenario[] = [
  {
    name: 'VK_IMPLICIT_LAYER_PATH replaces the implicit search (1.3.296+); older loaders ignore it',
    setup(t) {
      t.implicit(t.p('imp-a', 'a.json'));
      t.implicit(t.p('.config/vulkan/implicit_layer.d/home.json'));
      return { VK_IMPLICIT_LAYER_PATH: `${t.p('imp-a')}:${t.p('imp-missing')}`, VK_ADD_IMPLICIT_LAYER_PATH: t.p('ignored') };
    },
    expect() {},
  },
  {
    name: 'VK_ADD_IMPLICIT_LAYER_PATH goes before the standard implicit folders (1.3.296+)',
    setup(t) {
      t.implicit(t.p('imp-add', 'added.json'));
      t.implicit(t.p('.config/vulkan/implicit_layer.d/home.json'));
      return { VK_ADD_IMPLICIT_LAYER_PATH: t.p('imp-add') };
    },
    expect(r, t) {
      assert.equal(r.locations.implicit_layer[0]!.path === t.p('imp-add'), true);
    },
    when: (v) => loaderHas(v, 'implicit-layer-path'),
  },
  {
    name: 'defaults: only the system folders and the (empty) temporary home',
    setup: () => ({}),
    expect(r) {
      // Debian's mesa-vulkan-drivers and vulkan-validationlayers install these.
      assert.ok(
        paths(r, 'driver').some((p) => p.startsWith('/usr/share/vulkan/icd.d/')),
        'no system driver manifests found',
      );
      assert.ok(paths(r, 'explicit_layer').includes('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json'));
    },
  },
  {
    name: 'XDG_CONFIG_HOME and XDG_DATA_HOME: home manifests of every kind, config before data',
    setup(t) {
      t.implicit(t.p('.config/vulkan/implicit_layer.d/cfg_implicit.json'));
      t.layer(t.p('.config/vulkan/explicit_layer.d/cfg.json'));
      t.layer(t.p('.local/share/vulkan/explicit_layer.d/data.json'));
      t.driver(t.p('.local/share/vulkan/icd.d/home_icd.json'));
      return {};
    },
    expect(r, t) {
      assert.deepEqual(ours(r, 'explicit_layer', t), [t.p('.config/vulkan/explicit_layer.d/cfg.json'), t.p('.local/share/vulkan/explicit_layer.d/data.json')]);
      assert.deepEqual(ours(r, 'implicit_layer', t), [t.p('.config/vulkan/implicit_layer.d/cfg_implicit.json')]);
      assert.equal(r.manifests.driver.find((m) => m.path.includes(t.dir))?.origin, 'XDG_DATA_HOME');
    },
  },
  {
    name: 'order inside a folder is readdir order, not sorted (24 files created in shuffled order)',
    setup(t) {
      const names = ['m', 'z', 'a', 'q', 'b', 'y', 'c', 'x', 'd', 'w', 'e', 'v', 'f', 'u', 'g', 't', 'h', 's', 'i', 'r', 'j', 'p', 'k', 'o'];
      for (const n of names) t.layer(t.p('many', `${n}.json`));
      return { VK_LAYER_PATH: t.p('many') };
    },
    expect(r) {
      assert.equal(r.manifests.explicit_layer.length, 24);
      assert.ok(r.manifests.explicit_layer.every((m) => m.readdirOrder && m.origin === 'VK_LAYER_PATH[0]'));
    },
  },
  {
    name: 'VK_LAYER_PATH replaces the explicit search: folders, a single file, a missing folder',
    setup(t) {
      t.layer(t.p('a', 'one.json'));
      t.layer(t.p('b', 'two.json'));
      t.layer(t.p('single', 'file.json'));
      t.layer(t.p('.local/share/vulkan/explicit_layer.d/hidden.json'));
      return { VK_LAYER_PATH: [t.p('a'), t.p('nope'), t.p('b'), t.p('single', 'file.json')].join(':') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer'), [t.p('a', 'one.json'), t.p('b', 'two.json'), t.p('single', 'file.json')]);
      assert.deepEqual(
        r.locations.explicit_layer.map((l) => [l.origin, l.entry, l.exists]),
        [
          ['VK_LAYER_PATH[0]', 'folder', true],
          ['VK_LAYER_PATH[1]', 'folder', false],
          ['VK_LAYER_PATH[2]', 'folder', true],
          ['VK_LAYER_PATH[3]', 'file', true],
        ],
      );
    },
  },
  {
    name: 'VK_ADD_LAYER_PATH goes before the standard folders',
    setup(t) {
      t.layer(t.p('add1', 'first.json'));
      t.layer(t.p('add2', 'second.json'));
      t.layer(t.p('.config/vulkan/explicit_layer.d/home.json'));
      return { VK_ADD_LAYER_PATH: `${t.p('add1')}:${t.p('add2')}` };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer').slice(0, 3), [
        t.p('add1', 'first.json'),
        t.p('add2', 'second.json'),
        t.p('.config/vulkan/explicit_layer.d/home.json'),
      ]);
      assert.ok(paths(r, 'explicit_layer').includes('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json'));
    },
  },
  {
    name: 'VK_LAYER_PATH set: VK_ADD_LAYER_PATH is ignored',
    setup(t) {
      t.layer(t.p('replace', 'r.json'));
      t.layer(t.p('add', 'ignored.json'));
      return { VK_LAYER_PATH: t.p('replace'), VK_ADD_LAYER_PATH: t.p('add') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer'), [t.p('replace', 'r.json')]);
    },
  },
  {
    name: 'empty XDG_CONFIG_HOME, XDG_CONFIG_DIRS, XDG_DATA_DIRS, VK_ADD_LAYER_PATH: the defaults are used',
    setup(t) {
      t.layer(t.p('.config/vulkan/explicit_layer.d/default_home.json'));
      return { VK_ADD_LAYER_PATH: '', XDG_CONFIG_HOME: '', XDG_CONFIG_DIRS: '', XDG_DATA_DIRS: '' };
    },
    expect(r, t) {
      assert.ok(paths(r, 'explicit_layer').includes(t.p('.config/vulkan/explicit_layer.d/default_home.json')));
      assert.equal(r.locations.explicit_layer.find((l) => l.origin === 'XDG_CONFIG_HOME')?.source, 'default');
      assert.equal(r.locations.explicit_layer.find((l) => l.origin === 'XDG_CONFIG_DIRS[0]')?.path, '/etc/xdg/vulkan/explicit_layer.d');
      assert.equal(r.locations.explicit_layer.find((l) => l.origin === 'XDG_DATA_DIRS[1]')?.path, '/usr/share/vulkan/explicit_layer.d');
    },
  },
  {
    name: 'empty VK_LAYER_PATH and VK_DRIVER_FILES are *set*: no explicit layers and no drivers (not the defaults)',
    setup(t) {
      t.layer(t.p('.config/vulkan/explicit_layer.d/not_searched.json'));
      t.driver(t.p('old_name.json'));
      return { VK_LAYER_PATH: '', VK_ADD_LAYER_PATH: t.p('.config/vulkan/explicit_layer.d'), VK_DRIVER_FILES: '', VK_ICD_FILENAMES: t.p('old_name.json') };
    },
    expect(r) {
      assert.deepEqual(r.locations.explicit_layer, []);
      assert.deepEqual(r.manifests.driver, []);
      assert.ok(r.manifests.implicit_layer.length > 0, 'implicit layers are still searched');
    },
  },
  {
    name: 'empty VK_ICD_FILENAMES alone also leaves no drivers',
    setup: () => ({ VK_ICD_FILENAMES: '' }),
    expect(r) {
      assert.deepEqual(r.locations.driver, []);
    },
  },
  {
    name: 'VK_DRIVER_FILES: a folder and a file, instead of the standard folders',
    setup(t) {
      t.driver(t.p('icds', 'a.json'));
      t.driver(t.p('icds', 'b.json'));
      t.driver(t.p('one_icd.json'));
      t.driver(t.p('.local/share/vulkan/icd.d/not_searched.json'));
      return { VK_DRIVER_FILES: `${t.p('icds')}:${t.p('one_icd.json')}` };
    },
    expect(r, t) {
      assert.deepEqual(new Set(paths(r, 'driver')), new Set([t.p('icds', 'a.json'), t.p('icds', 'b.json'), t.p('one_icd.json')]));
      assert.equal(r.manifests.driver.at(-1)?.origin, 'VK_DRIVER_FILES[1]');
    },
  },
  {
    name: 'VK_DRIVER_FILES wins over VK_ICD_FILENAMES',
    setup(t) {
      t.driver(t.p('new.json'));
      t.driver(t.p('old.json'));
      return { VK_DRIVER_FILES: t.p('new.json'), VK_ICD_FILENAMES: t.p('old.json') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'driver'), [t.p('new.json')]);
    },
  },
  {
    name: 'VK_ICD_FILENAMES alone replaces the search, files and folders; VK_ADD_DRIVER_FILES is then ignored',
    setup(t) {
      t.driver(t.p('icd1.json'));
      t.driver(t.p('icdfolder', 'f.json'));
      t.driver(t.p('added.json'));
      return { VK_ICD_FILENAMES: `${t.p('icd1.json')}:${t.p('icdfolder')}`, VK_ADD_DRIVER_FILES: t.p('added.json') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'driver'), [t.p('icd1.json'), t.p('icdfolder', 'f.json')]);
      assert.deepEqual(
        r.locations.driver.map((l) => l.origin),
        ['VK_ICD_FILENAMES[0]', 'VK_ICD_FILENAMES[1]'],
      );
    },
  },
  {
    name: 'VK_ADD_DRIVER_FILES goes first; a missing .json entry is still listed, a missing folder is not',
    setup(t) {
      t.driver(t.p('extra.json'));
      t.driver(t.p('extradir', 'e.json'));
      return { VK_ADD_DRIVER_FILES: [t.p('extra.json'), t.p('gone.json'), t.p('extradir'), t.p('gonedir')].join(':') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'driver').slice(0, 3), [t.p('extra.json'), t.p('gone.json'), t.p('extradir', 'e.json')]);
      assert.equal(r.manifests.driver[1]?.problem, 'missing');
      assert.equal(r.locations.driver.find((l) => l.origin === 'VK_ADD_DRIVER_FILES[3]')?.exists, false);
      assert.ok(paths(r, 'driver').some((p) => p.startsWith('/usr/share/vulkan/icd.d/')));
    },
  },
  {
    name: 'XDG_DATA_DIRS replaces /usr/local/share:/usr/share; trailing slash and repeated entries searched once',
    setup(t) {
      t.layer(t.p('d1/vulkan/explicit_layer.d/d1.json'));
      t.driver(t.p('d2/vulkan/icd.d/d2.json'));
      t.implicit(t.p('d2/vulkan/implicit_layer.d/d2_implicit.json'));
      return { XDG_DATA_DIRS: `${t.p('d1')}/:${t.p('d2')}:${t.p('d1')}:` };
    },
    expect(r, t) {
      assert.ok(!paths(r, 'explicit_layer').some((p) => p.startsWith('/usr/share/')), 'the default data dirs must not be searched');
      assert.deepEqual(ours(r, 'explicit_layer', t), [t.p('d1/vulkan/explicit_layer.d/d1.json')]);
      assert.deepEqual(r.locations.explicit_layer.find((l) => l.origin === 'XDG_DATA_DIRS[0]')?.alsoFrom, ['XDG_DATA_DIRS[2]']);
      assert.deepEqual(ours(r, 'driver', t), [t.p('d2/vulkan/icd.d/d2.json')]);
    },
  },
  {
    name: 'XDG_CONFIG_DIRS override; XDG_DATA_HOME equal to XDG_DATA_DIRS[0] is searched once',
    setup(t) {
      t.layer(t.p('cfgdir/vulkan/explicit_layer.d/c.json'));
      t.layer(t.p('shared/vulkan/explicit_layer.d/s.json'));
      return { XDG_CONFIG_DIRS: t.p('cfgdir'), XDG_DATA_HOME: t.p('shared'), XDG_DATA_DIRS: `${t.p('shared')}:/usr/share` };
    },
    expect(r, t) {
      assert.deepEqual(ours(r, 'explicit_layer', t), [t.p('cfgdir/vulkan/explicit_layer.d/c.json'), t.p('shared/vulkan/explicit_layer.d/s.json')]);
      assert.ok(!r.locations.explicit_layer.some((l) => l.path.startsWith('/etc/xdg')));
      assert.deepEqual(r.locations.explicit_layer.find((l) => l.origin === 'XDG_DATA_HOME')?.alsoFrom, ['XDG_DATA_DIRS[0]']);
    },
  },
  {
    name: 'duplicates: one file reached through a folder, a symlinked folder, "dir/" and by name — the loader lists it four times',
    setup(t) {
      t.layer(t.p('dup', 'same.json'));
      symlinkSync(t.p('dup'), t.p('duplink'));
      return { VK_LAYER_PATH: [t.p('dup'), t.p('duplink'), `${t.p('dup')}/`, t.p('dup', 'same.json'), t.p('dup')].join(':') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer'), [t.p('dup', 'same.json'), t.p('duplink', 'same.json'), `${t.p('dup')}//same.json`, t.p('dup', 'same.json')]);
      assert.deepEqual(
        r.manifests.explicit_layer.map((m) => m.duplicateOf),
        [null, 0, 0, 0],
      );
    },
  },
  {
    name: 'what counts as a manifest: case-sensitive ".json" suffix of any file type; symlinks followed',
    setup(t) {
      const d = t.p('mixed');
      t.layer(join(d, 'real.json'));
      t.layer(join(d, 'UPPER.JSON'));
      t.layer(join(d, 'backup.json.bak'));
      t.layer(join(d, 'noext'));
      writeFileSync(join(d, '.json'), '{}');
      mkdirSync(join(d, 'folder.json'));
      symlinkSync(join(d, 'real.json'), join(d, 'link.json'));
      return { VK_LAYER_PATH: d };
    },
    expect(r, t) {
      const d = t.p('mixed');
      assert.deepEqual(new Set(paths(r, 'explicit_layer')), new Set(['real.json', '.json', 'folder.json', 'link.json'].map((n) => join(d, n))));
      assert.equal(r.manifests.explicit_layer.find((m) => m.path.endsWith('folder.json'))?.problem, 'not-a-file');
      const link = r.manifests.explicit_layer.find((m) => m.path.endsWith('link.json'))!;
      const real = r.manifests.explicit_layer.find((m) => m.path.endsWith('real.json'))!;
      assert.equal(link.problem, null);
      // Whichever readdir gives first is the original; the other is its duplicate.
      const [first, second] = link.order < real.order ? [link, real] : [real, link];
      assert.equal(second.duplicateOf, first.order);
    },
  },
  {
    name: 'a dangling symlink is listed (the loader logs only its bare name)',
    setup(t) {
      t.layer(t.p('dangle', 'ok.json'));
      symlinkSync(t.p('nowhere.json'), t.p('dangle', 'broken.json'));
      return { VK_LAYER_PATH: t.p('dangle') };
    },
    expect(r) {
      const broken = r.manifests.explicit_layer.find((m) => m.path.endsWith('/broken.json'));
      assert.equal(broken?.problem, 'dangling-symlink');
    },
  },
  {
    name: 'no ~ expansion: "~/layers" in VK_LAYER_PATH is a folder named "~" in the working directory',
    setup(t) {
      t.layer(t.p('layers', 'home_layer.json'));
      t.layer(t.p('cwd', '~', 'layers', 'tilde.json'));
      return { VK_LAYER_PATH: '~/layers' };
    },
    cwd: (t) => t.p('cwd'),
    expect(r) {
      assert.deepEqual(paths(r, 'explicit_layer'), ['~/layers/tilde.json']);
    },
  },
  {
    name: 'relative VK_DRIVER_FILES entries resolve against the working directory',
    setup(t) {
      t.driver(t.p('work', 'rel_icd.json'));
      t.driver(t.p('work', 'sub', 'x.json'));
      return { VK_DRIVER_FILES: 'rel_icd.json:sub' };
    },
    cwd: (t) => t.p('work'),
    expect(r) {
      assert.deepEqual(paths(r, 'driver'), ['rel_icd.json', 'sub/x.json']);
      assert.ok(r.manifests.driver.every((m) => m.problem === null));
    },
  },
  {
    name: 'HOME and XDG_*_HOME unset: no home folders are searched',
    setup(t) {
      t.layer(t.p('.config/vulkan/explicit_layer.d/unreachable.json'));
      return { HOME: null, XDG_CONFIG_HOME: null, XDG_DATA_HOME: null };
    },
    expect(r, t) {
      assert.equal(ours(r, 'explicit_layer', t).length, 0);
      assert.ok(!r.locations.explicit_layer.some((l) => l.origin === 'XDG_CONFIG_HOME' || l.origin === 'XDG_DATA_HOME'));
    },
  },
  {
    name: 'XDG_CONFIG_HOME through a symlinked folder, XDG_DATA_HOME the real one: two locations, each file twice',
    setup(t) {
      t.layer(t.p('realcfg/vulkan/explicit_layer.d/via_link.json'));
      t.implicit(t.p('realcfg/vulkan/implicit_layer.d/via_link_implicit.json'));
      symlinkSync(t.p('realcfg'), t.p('cfglink'));
      return { XDG_CONFIG_HOME: t.p('cfglink'), XDG_DATA_HOME: t.p('realcfg') };
    },
    expect(r, t) {
      // The loader compares location strings, not real paths: the folder is searched twice.
      assert.deepEqual(ours(r, 'explicit_layer', t), [
        t.p('cfglink/vulkan/explicit_layer.d/via_link.json'),
        t.p('realcfg/vulkan/explicit_layer.d/via_link.json'),
      ]);
      const [first, second] = r.manifests.explicit_layer.filter((m) => m.path.includes(t.dir));
      assert.equal(first!.origin, 'XDG_CONFIG_HOME');
      assert.equal(second!.duplicateOf, first!.order);
      assert.equal(ours(r, 'implicit_layer', t).length, 2);
    },
  },
  {
    name: 'a folder and a manifest with mode 000: as root both are read anyway (as another user the folder would list nothing)',
    setup(t) {
      t.layer(t.p('locked', 'in_locked.json'));
      t.layer(t.p('open', 'mode000.json'));
      t.layer(t.p('open', 'fine.json'));
      chmodSync(t.p('open', 'mode000.json'), 0o000);
      chmodSync(t.p('locked'), 0o000);
      return { VK_LAYER_PATH: `${t.p('locked')}:${t.p('open')}` };
    },
    cleanup(t) {
      chmodSync(t.p('locked'), 0o755);
      chmodSync(t.p('open', 'mode000.json'), 0o644);
    },
    expect(r, t) {
      const locked = r.locations.explicit_layer[0]!;
      if (process.getuid?.() === 0) {
        // Root's CAP_DAC_OVERRIDE ignores the mode: the loader and Strata read everything.
        assert.equal(locked.error, null);
        assert.equal(r.manifests.explicit_layer.length, 3);
        assert.ok(r.manifests.explicit_layer.every((m) => m.problem === null && m.text !== null));
      } else {
        assert.equal(locked.error, 'EACCES');
        assert.equal(r.manifests.explicit_layer.find((m) => m.path.endsWith('mode000.json'))?.problem, 'unreadable');
      }
      assert.ok(paths(r, 'explicit_layer').includes(t.p('open', 'fine.json')));
    },
  },
  {
    name: 'a folder full of files that are not manifests: nothing is listed',
    setup(t) {
      const d = t.p('notjson');
      mkdirSync(d);
      for (const n of ['README', 'layer.so', 'a.json~', 'b.jsonc', 'c.json5', 'd.json.disabled', 'e.js', 'f.JSON5', 'g.txt', 'json', 'h.jso', 'i.json.orig'])
        writeFileSync(join(d, n), '{}');
      return { VK_LAYER_PATH: d };
    },
    expect(r) {
      assert.deepEqual(r.manifests.explicit_layer, []);
      assert.equal(r.locations.explicit_layer[0]?.exists, true);
    },
  },
  {
    name: 'VK_ADD_LAYER_PATH of 5 entries: a repeat is searched once, "c" and "c/" twice, a standard folder moves to the front',
    setup(t) {
      t.layer(t.p('a', 'a.json'));
      t.layer(t.p('b', 'b.json'));
      t.layer(t.p('c', 'c.json'));
      t.layer(t.p('.config/vulkan/explicit_layer.d/home.json'));
      return { VK_ADD_LAYER_PATH: [t.p('a'), t.p('b'), t.p('a'), `${t.p('c')}/`, t.p('c'), t.p('.config/vulkan/explicit_layer.d')].join(':') };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer').slice(0, 5), [
        t.p('a', 'a.json'),
        t.p('b', 'b.json'),
        `${t.p('c')}//c.json`,
        t.p('c', 'c.json'),
        t.p('.config/vulkan/explicit_layer.d/home.json'),
      ]);
      assert.deepEqual(r.locations.explicit_layer[0]?.alsoFrom, ['VK_ADD_LAYER_PATH[2]']);
      assert.deepEqual(r.locations.explicit_layer[4]?.alsoFrom, ['XDG_CONFIG_HOME']);
      assert.ok(!r.locations.explicit_layer.some((l) => l.origin === 'XDG_CONFIG_HOME'));
      assert.equal(r.manifests.explicit_layer[3]?.duplicateOf, 2);
    },
  },
  {
    name: 'implicit layers in XDG_CONFIG_DIRS[1] and XDG_DATA_HOME: config dirs first, then /etc, then data home',
    setup(t) {
      t.implicit(t.p('cfg2/vulkan/implicit_layer.d/cfgdirs_implicit.json'));
      t.implicit(t.p('.local/share/vulkan/implicit_layer.d/datahome_implicit.json'));
      mkdirSync(t.p('cfg1/vulkan/implicit_layer.d'), { recursive: true });
      return { XDG_CONFIG_DIRS: `${t.p('cfg1')}:${t.p('cfg2')}` };
    },
    expect(r, t) {
      assert.deepEqual(ours(r, 'implicit_layer', t), [
        t.p('cfg2/vulkan/implicit_layer.d/cfgdirs_implicit.json'),
        t.p('.local/share/vulkan/implicit_layer.d/datahome_implicit.json'),
      ]);
      assert.deepEqual(
        r.manifests.implicit_layer.filter((m) => m.path.includes(t.dir)).map((m) => m.origin),
        ['XDG_CONFIG_DIRS[1]', 'XDG_DATA_HOME'],
      );
      assert.ok(paths(r, 'implicit_layer').includes('/usr/share/vulkan/implicit_layer.d/VkLayer_MESA_device_select.json'));
    },
  },
  {
    name: 'drivers in XDG_CONFIG_HOME come before XDG_DATA_HOME and the system drivers',
    setup(t) {
      t.driver(t.p('.config/vulkan/icd.d/cfg_icd.json'));
      t.driver(t.p('.local/share/vulkan/icd.d/data_icd.json'));
      return {};
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'driver').slice(0, 2), [t.p('.config/vulkan/icd.d/cfg_icd.json'), t.p('.local/share/vulkan/icd.d/data_icd.json')]);
      assert.equal(r.manifests.driver[0]?.origin, 'XDG_CONFIG_HOME');
    },
  },
  {
    name: "a manifest symlinked to another folder's manifest: listed in both places, the later one a duplicate by real path",
    setup(t) {
      const target = t.layer(t.p('.config/vulkan/explicit_layer.d/original.json'));
      mkdirSync(t.p('.local/share/vulkan/explicit_layer.d'), { recursive: true });
      symlinkSync(target, t.p('.local/share/vulkan/explicit_layer.d/alias.json'));
      return {};
    },
    expect(r, t) {
      assert.deepEqual(ours(r, 'explicit_layer', t), [
        t.p('.config/vulkan/explicit_layer.d/original.json'),
        t.p('.local/share/vulkan/explicit_layer.d/alias.json'),
      ]);
      const [original, alias] = r.manifests.explicit_layer.filter((m) => m.path.includes(t.dir));
      assert.equal(alias!.problem, null);
      assert.equal(alias!.duplicateOf, original!.order);
    },
  },
  {
    name: 'sub-folders of a search folder are not searched, whatever their name',
    setup(t) {
      t.layer(t.p('.local/share/vulkan/explicit_layer.d/top.json'));
      t.layer(t.p('.local/share/vulkan/explicit_layer.d/vendor/nested.json'));
      t.layer(t.p('.local/share/vulkan/explicit_layer.d/explicit_layer.d/nested_again.json'));
      t.driver(t.p('.local/share/vulkan/icd.d/deeper/icd.d/nested_icd.json'));
      return {};
    },
    expect(r, t) {
      assert.deepEqual(ours(r, 'explicit_layer', t), [t.p('.local/share/vulkan/explicit_layer.d/top.json')]);
      assert.deepEqual(ours(r, 'driver', t), []);
    },
  },
  {
    name: 'upper-case ".JSON" in the standard folders is not a manifest, for layers or drivers',
    setup(t) {
      t.implicit(t.p('.config/vulkan/implicit_layer.d/SHOUT.JSON'));
      t.implicit(t.p('.config/vulkan/implicit_layer.d/quiet.json'));
      t.driver(t.p('.local/share/vulkan/icd.d/DRIVER.Json'));
      t.driver(t.p('.local/share/vulkan/icd.d/driver.json'));
      return {};
    },
    expect(r, t) {
      assert.deepEqual(ours(r, 'implicit_layer', t), [t.p('.config/vulkan/implicit_layer.d/quiet.json')]);
      assert.deepEqual(ours(r, 'driver', t), [t.p('.local/share/vulkan/icd.d/driver.json')]);
    },
  },
  {
    name: 'VK_LAYER_PATH with a leading, a doubled and a trailing colon: empty entries are skipped',
    setup(t) {
      t.layer(t.p('x', 'x.json'));
      t.layer(t.p('y', 'y.json'));
      return { VK_LAYER_PATH: `:${t.p('x')}::${t.p('y')}:` };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer'), [t.p('x', 'x.json'), t.p('y', 'y.json')]);
      assert.deepEqual(
        r.locations.explicit_layer.map((l) => l.origin),
        ['VK_LAYER_PATH[0]', 'VK_LAYER_PATH[1]'],
      );
    },
  },
  {
    name: 'VK_LAYER_PATH naming a file that does not end in .json: searched as a folder, which fails with ENOTDIR',
    setup(t) {
      t.layer(t.p('plain', 'layer.txt'));
      t.layer(t.p('plain', 'other.json'));
      return { VK_LAYER_PATH: `${t.p('plain', 'layer.txt')}:${t.p('plain')}` };
    },
    expect(r, t) {
      assert.deepEqual(paths(r, 'explicit_layer'), [t.p('plain', 'other.json')]);
      assert.deepEqual([r.locations.explicit_layer[0]?.entry, r.locations.explicit_layer[0]?.error], ['folder', 'ENOTDIR']);
    },
  },
  {
    name: 'a symlink loop named *.json is listed, by its bare name like a dangling link, and cannot be read',
    setup(t) {
      t.layer(t.p('loops', 'good.json'));
      symlinkSync('self.json', t.p('loops', 'self.json'));
      return { VK_LAYER_PATH: t.p('loops') };
    },
    expect(r) {
      const self = r.manifests.explicit_layer.find((m) => m.path.endsWith('/self.json'));
      // ELOOP; the loader's log shows only "self.json" (its realpath failed).
      assert.deepEqual([self?.text, self?.problem], [null, 'symlink-loop']);
    },
  },
  {
    name: 'a relative XDG_DATA_HOME resolves against the working directory',
    setup(t) {
      t.layer(t.p('work', 'reldata', 'vulkan', 'explicit_layer.d', 'rel.json'));
      t.driver(t.p('work', 'reldata', 'vulkan', 'icd.d', 'rel_icd.json'));
      return { XDG_DATA_HOME: 'reldata' };
    },
    cwd: (t) => t.p('work'),
    expect(r) {
      assert.ok(paths(r, 'explicit_layer').includes('reldata/vulkan/explicit_layer.d/rel.json'));
      assert.ok(paths(r, 'driver').includes('reldata/vulkan/icd.d/rel_icd.json'));
      assert.equal(r.locations.explicit_layer.find((l) => l.origin === 'XDG_DATA_HOME')?.exists, true);
    },
  },
];

/**
 * How loader 1.3.239 prints a file in its list: a folder entry whose real path it cannot resolve
 * (a dangling symlink, a symlink loop) by its bare name; it lost the folder.
 */
function asLoaderLogsIt(m: ManifestFile, cwd: string): string {
  if (m.problem === 'dangling-symlink' || m.problem === 'symlink-loop') return basename(m.path);
  if (m.readdirOrder && m.problem !== null) {
    try {
      realpathSync(resolve(cwd, m.path));
    } catch {
      return basename(m.path);
    }
  }
  return m.path;
}

const skip = matrixSkip();
const builds: LoaderBuild[] = skip ? [] : loaderMatrix();

for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : builds)
  for (const s of scenarios) {
    if (!skip && s.when && !s.when(b.version)) continue;
    test(`loader ${b.version}: discovery matches the loader: ${s.name}`, { skip }, async () => {
      const home = makeTempHome();
      const t = new Tree(home);
      try {
        const env: NodeJS.ProcessEnv = { ...home.env };
        for (const [k, v] of Object.entries(s.setup(t))) {
          if (v === null) delete env[k];
          else env[k] = v;
        }
        const cwd = s.cwd?.(t) ?? t.dir;
        mkdirSync(cwd, { recursive: true });

        const loader = probeLoader(env, cwd, b.libDir);
        const strataPaths = computeSearchPaths({ platform: DEBIAN_LINUX, env, user: { home: env['HOME'] ?? null, elevated: false }, loaderVersion: b.version });
        const strata = await scanManifests(strataPaths, { cwd });

        for (const kind of MANIFEST_KINDS) {
          assert.deepEqual(
            strata.locations[kind].map((l) => l.path),
            loader[kind].locations,
            `${kind}: search locations differ from the loader's`,
          );
          assert.deepEqual(
            strata.manifests[kind].map((m) => asLoaderLogsIt(m, cwd)),
            loader[kind].files,
            `${kind}: manifest files differ from the loader's`,
          );
        }
        s.expect(strata, t);
      } finally {
        s.cleanup?.(t);
        home.cleanup();
      }
    });
  }

/** Runs the probe under VK_LOADER_DEBUG=all; the log and the probe's marker both go to stderr, in order. */
function probeLoader(env: NodeJS.ProcessEnv, cwd: string, libDir?: string): Record<ManifestKind, LoaderSearch> {
  const r = spawnSync(probe, [], {
    env: { ...env, VK_LOADER_DEBUG: 'all', ...(libDir ? { LD_LIBRARY_PATH: libDir } : {}) },
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  return parseLoaderSearches(r.stderr);
}

/** The CLI from source (tsx), so the test does not depend on a fresh `npm run build`. */
function strataFromSource(args: string[], env: NodeJS.ProcessEnv) {
  const script = `import('./main/hosts/cli/cli.ts').then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`;
  return spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: APP_ROOT, env, encoding: 'utf8', timeout: 60_000 });
}

test('strata path list --json: the contract shape, the same locations as the loader, exists flags from the disk', () => {
  const home = makeTempHome();
  const t = new Tree(home);
  try {
    t.layer(t.p('added', 'a.json'));
    const env = { ...home.env, VK_ADD_LAYER_PATH: `${t.p('added')}:${t.p('missing')}` };
    const r = strataFromSource(['path', 'list', '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const value = DiscoveryPathsSchema.parse(JSON.parse(r.stdout));
    const loader = probeLoader(env, t.dir);
    for (const kind of MANIFEST_KINDS)
      assert.deepEqual(
        value.locations[kind].map((l) => l.path),
        loader[kind].locations,
        kind,
      );
    assert.deepEqual(
      value.locations.explicit_layer.slice(0, 2).map((l) => [l.origin, l.exists]),
      [
        ['VK_ADD_LAYER_PATH[0]', true],
        ['VK_ADD_LAYER_PATH[1]', false],
      ],
    );
    assert.equal(value.locations.driver.find((l) => l.path === '/usr/share/vulkan/icd.d')?.exists, true);

    const human = strataFromSource(['path', 'list'], env);
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /^Implicit layers:\n {2}# +exists +path +origin/m);
    assert.match(human.stdout, new RegExp(`1 +yes +${t.p('added').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +VK_ADD_LAYER_PATH\\[0\\]`));
    assert.match(human.stdout, /no +\S+\/missing +VK_ADD_LAYER_PATH\[1\]/);
  } finally {
    home.cleanup();
  }
});
