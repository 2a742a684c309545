import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { LayerChainSchema } from '../../shared/loader/chain';

// `strata explain` as a user runs it (the built CLI), on Debian's real installed layers plus one
// implicit layer of our own in a temporary home. chain-vs-loader.test.ts proves the model itself.
function homeWithImplicitLayer() {
  const home = makeTempHome();
  const dir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'implicit_layer.d');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'strata_test.json'),
    JSON.stringify({
      file_format_version: '1.1.0',
      layer: {
        name: 'VK_LAYER_STRATA_explain_test',
        type: 'GLOBAL',
        library_path: '/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so',
        api_version: '1.3.239',
        implementation_version: '1',
        description: 'explain test',
        disable_environment: { DISABLE_STRATA_EXPLAIN_TEST: '1' },
      },
    }),
  );
  return home;
}

test('strata explain --json: requested validation layer and the implicit layers, in order, with reasons', () => {
  const home = homeWithImplicitLayer();
  try {
    const r = runStrata(['explain', '--enable-layers', 'VK_LAYER_KHRONOS_validation', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const chain = LayerChainSchema.parse(JSON.parse(r.stdout));
    assert.equal(chain.result, 'VK_SUCCESS');
    assert.equal(chain.loaderVersion, '1.3.239');
    const names = chain.chain.map((e) => e.name);
    assert.ok(names.includes('VK_LAYER_KHRONOS_validation'));
    assert.ok(names.includes('VK_LAYER_STRATA_explain_test'));
    assert.ok(names.includes('VK_LAYER_MESA_device_select'));
    assert.ok(chain.chain.every((e) => e.reasons.length > 0), 'every layer in the chain says why');
    assert.ok(chain.excluded.some((e) => e.name === 'VK_LAYER_MESA_overlay' && e.reasons.some((x) => x.code === 'explicit/not-requested')));
  } finally {
    home.cleanup();
  }
});

test('strata explain --env K=V disables an implicit layer, and --env K= unsets it again', () => {
  const home = homeWithImplicitLayer();
  try {
    const off = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--env', 'DISABLE_STRATA_EXPLAIN_TEST=1', '--json'], home.env).stdout));
    assert.ok(!off.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'));
    const reason = off.excluded.find((e) => e.name === 'VK_LAYER_STRATA_explain_test')!.reasons.map((x) => x.message).join(' ');
    assert.match(reason, /DISABLE_STRATA_EXPLAIN_TEST/);
    const envOn = { ...home.env, DISABLE_STRATA_EXPLAIN_TEST: '1' };
    const on = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--env', 'DISABLE_STRATA_EXPLAIN_TEST=', '--json'], envOn).stdout));
    assert.ok(on.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'));
  } finally {
    home.cleanup();
  }
});

test('strata explain: a missing requested layer gives VK_ERROR_LAYER_NOT_PRESENT and exit 1, human form says why', () => {
  const home = homeWithImplicitLayer();
  try {
    const r = runStrata(['explain', '--enable-layers', 'VK_LAYER_NOT_INSTALLED'], home.env);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /VK_ERROR_LAYER_NOT_PRESENT/);
    assert.match(r.stdout, /VK_LAYER_NOT_INSTALLED/);
  } finally {
    home.cleanup();
  }
});
