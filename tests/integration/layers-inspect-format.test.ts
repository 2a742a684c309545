import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BridgeClient, type BridgeClientOptions } from '../../main/bridge/bridge-client';
import { BridgePool } from '../../main/bridge/bridge-pool';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { formatLayersInspection } from '../../main/hosts/cli/layers-inspect-format';
import { inspectLayers } from '../../main/vulkan/layer-inspect-service';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/layers-inspect-format.ts: the human form of `strata layer inspect`, over a real inspection
 * (the real probe loading Debian's validation layer) — one row per layer with what it exports and
 * the interface it negotiates, then the problems (a name no manifest defines) with their fix.
 * Crashing and hanging layers in the table: tests/integration/layers-inspect-command.test.ts.
 */
const root = findAppRoot();
const VALIDATION = 'VK_LAYER_KHRONOS_validation';

test('a real layer and an unknown name: the row, the offered version, the problem with its fix', async () => {
  const home = makeTempHome();
  const base: BridgeClientOptions = { probe: probeCommand(root), cwd: root, env: home.env, timeoutMs: 20_000 };
  const probes = new BridgePool(base, new BridgeClient(base));
  try {
    const report = await inspectLayers({ probes, env: home.env }, { names: [VALIDATION, 'VK_LAYER_STRATA_nope'], timeoutMs: 20_000 });
    const layer = report.layers.find((l) => l.name === VALIDATION);
    assert.ok(layer?.ok, JSON.stringify(layer));
    const text = formatLayersInspection(report);
    const lines = text.split('\n');
    assert.equal(lines[0], `Loader–layer interface version offered: ${report.offeredInterfaceVersion}`);
    assert.match(lines[2]!, /^  LAYER +TYPE +LIBRARY +EXPORTS +INTERFACE +RESULT +TIME$/);
    const row = lines.find((l) => l.startsWith(`  ${VALIDATION} `))!;
    assert.ok(row, text);
    // The library as the dynamic linker found it (a bare library_path: the ld.so cache), the loader functions it exports, its entry points.
    assert.match(
      row,
      new RegExp(
        `^  ${VALIDATION} +explicit +\\S*libVkLayer_khronos_validation\\.so \\(found in the ld\\.so cache\\) +negotiate,GIPA,GDPA \\d+ entrypoints \\(\\d+ exported\\) +${layer.interfaceVersion} +ok(, \\d+ warnings?)? +\\d+ ms$`,
      ),
    );
    const problems = lines.indexOf('Problems:');
    assert.ok(problems > 0, text);
    assert.equal(lines[problems + 1], '  No discovered layer manifest defines VK_LAYER_STRATA_nope. Fix: check the name with `strata layer list`');
  } finally {
    probes.dispose();
    home.cleanup();
  }
});

test('nothing to inspect says where to look, and nothing else', () => {
  assert.equal(
    formatLayersInspection({ offeredInterfaceVersion: 2, layers: [], notFound: [] }),
    'No layers to inspect. Run `strata layer list` to see what the loader finds.',
  );
});
