import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { findAppRoot, probeCommand } from '../../main/platform/app-paths';
import { chainContext } from '../../main/chain/chain-context-service';
import { withTempHome } from '../helpers/temp-home';

/**
 * main/chain/chain-context-service.ts: what the renderer gets to run the chain model itself — only
 * the variables some manifest names (or VK_*), the real loader's version, where the override goes.
 */
const root = findAppRoot();

test(
  'chain.context: the variables the chain depends on, never the rest of the environment; the loader; the override file',
  withTempHome(async (home) => {
    const implicit = join(home.dir, '.local', 'share', 'vulkan', 'implicit_layer.d');
    mkdirSync(implicit, { recursive: true });
    writeFileSync(
      join(implicit, 'x.json'),
      JSON.stringify({
        file_format_version: '1.2.0',
        layer: {
          name: 'VK_LAYER_x',
          type: 'GLOBAL',
          library_path: 'libx.so',
          api_version: '1.3.0',
          implementation_version: '1',
          description: 'd',
          disable_environment: { NO_X: '1' },
          enable_environment: { WANT_X: '1' },
        },
      }),
    );
    const env = { ...home.env, NO_X: '', WANT_X: '1', SECRET_TOKEN: 'do not send', VK_LOADER_DEBUG: 'error' };
    const bridge = new BridgeClient({ probe: probeCommand(root), cwd: root, env, loaderVersionInProcess: true });
    try {
      const ctx = await chainContext({ env, bridge });
      assert.equal(ctx.env['NO_X'], '');
      assert.equal(ctx.env['WANT_X'], '1');
      assert.equal(ctx.env['VK_LOADER_DEBUG'], 'error');
      assert.equal('SECRET_TOKEN' in ctx.env, false);
      assert.equal('HOME' in ctx.env, false);
      assert.match(ctx.loaderVersion ?? '', /^\d+\.\d+\.\d+$/);
      assert.equal(ctx.overrideDir, implicit);
      assert.equal(ctx.overrideFile, join(implicit, 'VkLayer_override.json'));
    } finally {
      bridge.dispose();
    }
  }),
);
