import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLoaderKit, fourApps, importProfiles, runProbe, writeRecordingManifests, type LoaderKit } from '../helpers/profile-loader-kit';
import { runStrata } from '../helpers/strata-cli';
import { makeTempHome } from '../helpers/temp-home';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { loaderHas } from '../../shared/loader/loader-rules';

/**
 * Per-application profiles on every loader of the matrix, as a user of each distribution gets them:
 * the real loader of that version is the one on LD_LIBRARY_PATH for Strata (which picks its method
 * from the version: override layers scoped by app_keys before 1.3.302, vk_loader_settings.json from
 * 1.3.302, whose loaders can turn the global override layer off for a bound application) and for three copies of a C program bound to three profiles, run outside Strata.
 */
const LAYERS = ['VK_LAYER_STRATA_ra', 'VK_LAYER_STRATA_rb', 'VK_LAYER_STRATA_rc'];
const [A, B, C] = LAYERS as [string, string, string];
const work = realpathSync(mkdtempSync(join(tmpdir(), 'strata-profile-matrix-')));
after(() => rmSync(work, { recursive: true, force: true }));
let kit: LoaderKit | undefined;

const skip = matrixSkip();
for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : loaderMatrix()) {
  test(
    `loader ${b.version}: three applications bound to three profiles each get their own chain, an unbound one the global profile`,
    { skip, timeout: 180_000 },
    async () => {
      kit ??= buildLoaderKit(join(work, 'kit'), LAYERS);
      const home = makeTempHome({ LD_LIBRARY_PATH: b.libDir });
      try {
        writeRecordingManifests(kit, join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d'), LAYERS);
        const apps = fourApps(kit, join(work, `bin-${b.version}`));
        const profileDir = join(work, `profiles-${b.version}`);
        mkdirSync(profileDir);
        importProfiles(home.env, profileDir, {
          One: [{ name: A, state: 'on' }],
          Two: [
            { name: C, state: 'on' },
            { name: B, state: 'on' },
          ],
          Three: [{ name: B, state: 'on' }],
          Global: [{ name: C, state: 'on' }],
        });
        assert.equal(runStrata(['profile', 'apply', 'Global'], home.env).status, 0);
        const mechanism = loaderHas(b.version, 'settings-layer-off-meta') ? 'loader-settings' : 'override-app-keys';
        for (const [app, profile] of [
          [apps.one, 'One'],
          [apps.two, 'Two'],
          [apps.three, 'Three'],
        ] as const) {
          const r = runStrata(['profile', 'bind', app, profile, '--json'], home.env);
          assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
          const sync = JSON.parse(r.stdout).sync as { mechanism: string; checks: { app: string; ok: boolean; message: string }[] };
          assert.equal(sync.mechanism, mechanism, `loader ${b.version}: Strata picks the method by the version`);
          assert.ok(
            sync.checks.every((c) => c.ok),
            JSON.stringify(sync.checks, null, 2),
          );
        }
        for (const [app, chain] of [
          [apps.one, [A]],
          [apps.two, [C, B]],
          [apps.three, [B]],
          [apps.unbound, [C]],
        ] as const) {
          const run = await runProbe(app, home.env);
          assert.equal(run.result, 0, run.log);
          assert.deepEqual(run.chain, chain, `loader ${b.version}, ${app}\n${run.log.slice(-3000)}`);
        }
      } finally {
        home.cleanup();
      }
    },
  );
}
