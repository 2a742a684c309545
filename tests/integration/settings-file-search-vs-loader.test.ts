import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { makeTempHome } from '../helpers/temp-home';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { settingsFileSearch } from '../../shared/loader/settings-file-locations';
import { loaderHas } from '../../shared/loader/loader-rules';

// Where each real loader looks for vk_loader_settings.json: a file is put at every place Strata says
// the loader looks (those under the temporary home and XDG folders; /etc is never written), then
// removed one by one from the front; the loader must name, each time, the first file Strata expects.
const work = mkdtempSync(join(tmpdir(), 'strata-settings-search-'));
after(() => rmSync(work, { recursive: true, force: true }));
const SETTINGS = JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers: [{ control: 'unordered_layer_location' }] }] });

const skip = matrixSkip();
for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : loaderMatrix()) {
  test(`loader ${b.version}: the settings file it reads is the first one found where Strata says it looks`, { skip }, () => {
    const probe = join(work, 'chain-probe');
    execFileSync('gcc', ['-O1', '-o', probe, join(APP_ROOT, 'tests', 'fixtures', 'layers', 'chain-probe.c'), '-lvulkan'], { stdio: 'pipe' });
    const home = makeTempHome();
    try {
      const env = {
        ...home.env,
        XDG_DATA_HOME: `${home.dir}/xdg-data`,
        XDG_CONFIG_DIRS: `${home.dir}/config-dirs-a:${home.dir}/config-dirs-b`,
        XDG_DATA_DIRS: `${home.dir}/data-dirs-a:${home.dir}/data-dirs-b`,
        LD_LIBRARY_PATH: b.libDir,
        VK_LOADER_DEBUG: 'info',
      };
      const search = settingsFileSearch({ env, loaderVersion: b.version });
      if (!loaderHas(b.version, 'settings-file')) {
        assert.deepEqual(search, []);
        return;
      }
      const ours = search.filter((p) => p.startsWith(home.dir));
      assert.ok(ours.length >= 2, `only ${ours.length} places under the temporary home: ${search.join(', ')}`);
      // Second entries of the XDG lists: never found (the loader keeps the ':' in front of them).
      const decoys = [`${home.dir}/config-dirs-b`, `${home.dir}/data-dirs-b`].map(
        (d) => `${d}/vulkan/${loaderHas(b.version, 'settings-folder-renamed') ? 'loader_settings.d' : 'settings.d'}/vk_loader_settings.json`,
      );
      for (const p of [...ours, ...decoys]) {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, SETTINGS);
      }
      const used = () => {
        const r = spawnSync(probe, ['1.3'], { env, encoding: 'utf8', timeout: 30_000 });
        // 1.4.324+ log the path with a doubled slash ("vulkan//loader_settings.d"): the same file.
        const m = /Using layer configurations found in loader settings from (\S+)/.exec(r.stderr)?.[1];
        return m ? normalize(m) : null;
      };
      for (const p of ours) {
        assert.equal(used(), p, `loader ${b.version}: expected ${p} (Strata's order: ${search.join(', ')})`);
        rmSync(p);
      }
      assert.equal(used(), null, `loader ${b.version}: with only the decoys left, no settings file is read`);
    } finally {
      home.cleanup();
    }
  });
}
