import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiscoveryPaths } from '../../main/hosts/cli/paths-command';
import { discoveryPaths } from '../../main/discovery/discovery-service';
import type { DiscoveryPaths } from '../../shared/loader/search-paths';
import { makeTempHome } from '../helpers/temp-home';

/**
 * main/hosts/cli/paths-command.ts: `strata path list` over what discovery answers for a temporary HOME —
 * one table per kind in the loader's order, whether each folder exists, its origin; elevated, what
 * the loader then ignores (on Windows, with what counts as elevated there).
 */
test("path list: one table per kind in the loader's order, whether each folder exists, where it comes from; elevated says what the loader ignores", async () => {
  const home = makeTempHome();
  const layersDir = { explicit: join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d') };
  mkdirSync(layersDir.explicit, { recursive: true });
  try {
    const paths = await discoveryPaths({ env: home.env });
    const text = formatDiscoveryPaths(paths);
    const sections = text.split('\n\n');
    assert.deepEqual(
      sections.map((s) => s.split('\n')[0]),
      ['Implicit layers:', 'Explicit layers:', 'Drivers:'],
    );
    const explicit = sections[1]!.split('\n').slice(2);
    assert.equal(explicit.length, paths.locations.explicit_layer.length);
    const i = paths.locations.explicit_layer.findIndex((l) => l.path === layersDir.explicit);
    assert.ok(i >= 0);
    assert.match(explicit[i]!, new RegExp(`^  ${i + 1} +yes +${layersDir.explicit.replace(/[.]/g, '\\.')} +`));
    assert.doesNotMatch(text, /^Elevated/);
    const elevated = formatDiscoveryPaths(await discoveryPaths({ env: home.env, elevated: true }));
    assert.match(elevated.split('\n')[0]!, /^Elevated: the loader ignores VK_LAYER_PATH, .*, the XDG_\* variables and the home folders\.$/);
    const windows: DiscoveryPaths = { ...paths, elevated: true, platform: { os: 'windows' } as DiscoveryPaths['platform'] };
    const lines = formatDiscoveryPaths(windows).split('\n');
    assert.match(lines[0]!, /^Elevated: .* and the HKEY_CURRENT_USER keys\.$/);
    assert.match(lines[1]!, /integrity level is High or above/);
  } finally {
    home.cleanup();
  }
});
