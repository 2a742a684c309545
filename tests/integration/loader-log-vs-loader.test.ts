import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { makeTempHome } from '../helpers/temp-home';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { loaderLogColumn, parseLoaderLogLine } from '../../shared/sessions/loader-log-line';

// What each real loader prints with VK_LOADER_DEBUG=all while it creates an instance under lavapipe:
// the session parser must read every line as a loader line, with the version's message column.
const work = mkdtempSync(join(tmpdir(), 'strata-loader-log-'));
after(() => rmSync(work, { recursive: true, force: true }));
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

const skip = matrixSkip();
for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : loaderMatrix()) {
  test(`loader ${b.version}: every VK_LOADER_DEBUG=all line is a loader line, and the messages start where that loader puts them`, { skip }, () => {
    const probe = join(work, 'chain-probe');
    execFileSync('gcc', ['-O1', '-o', probe, join(APP_ROOT, 'tests', 'fixtures', 'layers', 'chain-probe.c'), '-lvulkan'], { stdio: 'pipe' });
    const home = makeTempHome();
    try {
      const r = spawnSync(probe, ['1.3', 'VK_LAYER_KHRONOS_validation'], {
        env: { ...home.env, LD_LIBRARY_PATH: b.libDir, VK_LOADER_DEBUG: 'all', VK_DRIVER_FILES: LAVAPIPE },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const lines = r.stderr.split('\n').filter((l) => l.length > 0);
      assert.ok(lines.length > 50, `only ${lines.length} lines:\n${r.stderr.slice(0, 2000)}`);
      const notLoader = lines.filter((l) => parseLoaderLogLine(l, loaderLogColumn(b.version)) === null);
      // The validation layer writes its own lines to stdout, not stderr: every stderr line is the loader's.
      assert.deepEqual(notLoader, [], `loader ${b.version}: lines the parser does not read as the loader's`);
      const version = lines.map((l) => parseLoaderLogLine(l, loaderLogColumn(b.version))!).find((p) => p.message.startsWith('Vulkan Loader Version'));
      assert.equal(version?.message, `Vulkan Loader Version ${b.version}`, 'the message starts exactly at its column');
      // The parser skips padding up to the column it is given, so a column one too far still reads: the
      // unprefixed line itself must put the message at that column (18 before 1.3.262, 19 from it).
      const unprefixed = lines.find((l) => l.startsWith('INFO:') && l.includes('Vulkan Loader Version'));
      if (unprefixed)
        assert.equal(unprefixed.indexOf('Vulkan Loader Version'), loaderLogColumn(b.version), `loader ${b.version}: ${JSON.stringify(unprefixed)}`);
      assert.ok(lines.some((l) => parseLoaderLogLine(l, loaderLogColumn(b.version))!.categories.includes('layer')));
    } finally {
      home.cleanup();
    }
  });
}
