import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { LayerChainSchema } from '../../shared/loader/chain-schema';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { probeCommand } from '../../main/platform/app-paths';
import { loaderVersionFromBridge } from '../../main/chain/loader-version';
import { explainChainRequest } from '../../main/chain/chain-service';
import { loaderMatrix, matrixSkip } from '../helpers/loader-builds';

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
    // The version comes from the real loader (through the probe); vulkaninfo is the independent witness.
    const real = /Vulkan Instance Version: (\d+\.\d+\.\d+)/.exec(
      execFileSync('vulkaninfo', ['--summary'], { env: home.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    )?.[1];
    assert.equal(chain.loaderVersion, real);
    assert.deepEqual(
      chain.rules.filter((x) => x.applied).map((x) => x.id),
      ['layer-chain', 'layer-filters', 'driver-filters'],
    );
    const names = chain.chain.map((e) => e.name);
    assert.ok(names.includes('VK_LAYER_KHRONOS_validation'));
    assert.ok(names.includes('VK_LAYER_STRATA_explain_test'));
    assert.ok(names.includes('VK_LAYER_MESA_device_select'));
    assert.ok(
      chain.chain.every((e) => e.reasons.length > 0),
      'every layer in the chain says why',
    );
    assert.ok(chain.excluded.some((e) => e.name === 'VK_LAYER_MESA_overlay' && e.reasons.some((x) => x.code === 'explicit/not-requested')));
  } finally {
    home.cleanup();
  }
});

test('strata explain --env K=V disables an implicit layer, --unset K enables it again, and --env K= (set, empty) still disables it', () => {
  const home = homeWithImplicitLayer();
  try {
    const off = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--env', 'DISABLE_STRATA_EXPLAIN_TEST=1', '--json'], home.env).stdout));
    assert.ok(!off.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'));
    const reason = off.excluded
      .find((e) => e.name === 'VK_LAYER_STRATA_explain_test')!
      .reasons.map((x) => x.message)
      .join(' ');
    assert.match(reason, /DISABLE_STRATA_EXPLAIN_TEST/);
    const envOn = { ...home.env, DISABLE_STRATA_EXPLAIN_TEST: '1' };
    const on = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--unset', 'DISABLE_STRATA_EXPLAIN_TEST', '--json'], envOn).stdout));
    assert.ok(on.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'));
    // The loader disables the layer when the variable is set at all: "" is set (getenv() != NULL).
    const empty = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--env', 'DISABLE_STRATA_EXPLAIN_TEST=', '--json'], home.env).stdout));
    assert.ok(!empty.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'));
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

test('strata explain --env VK_LOADER_LAYERS_DISABLE / _ENABLE: the filters act, and each says so', () => {
  const home = homeWithImplicitLayer();
  try {
    const r = runStrata(['explain', '--env', 'VK_LOADER_LAYERS_DISABLE=~implicit~', '--env', 'VK_LOADER_LAYERS_ENABLE=*EXPLAIN_TEST', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const chain = LayerChainSchema.parse(JSON.parse(r.stdout));
    const ours = chain.chain.find((e) => e.name === 'VK_LAYER_STRATA_explain_test');
    assert.ok(ours, `the enable filter keeps our implicit layer: ${JSON.stringify(chain.chain.map((e) => e.name))}`);
    assert.deepEqual(
      ours.reasons.map((x) => x.code),
      ['implicit/enabled', 'filter/disable-overridden'],
    );
    const mesa = chain.excluded.find((e) => e.name === 'VK_LAYER_MESA_device_select');
    assert.match(
      mesa?.reasons.map((x) => `${x.code}: ${x.message}`).join('\n') ?? '(not excluded)',
      /filter\/disabled: .*~implicit~ disables every implicit layer/,
    );
  } finally {
    home.cleanup();
  }
});

test('chain.explain asks the probe for the loader version once per probe, and says so when the probe cannot answer', async () => {
  const home = makeTempHome();
  class CountingClient extends BridgeClient {
    requests = 0;
    override request<T = unknown>(...args: Parameters<BridgeClient['request']>) {
      this.requests++;
      return super.request<T>(...args);
    }
  }
  const probe = new CountingClient({ probe: probeCommand(APP_ROOT), cwd: APP_ROOT, env: home.env, timeoutMs: 30_000 });
  const broken = new BridgeClient({ probe: { file: join(home.dir, 'no-such-probe.mjs'), execArgv: [] }, cwd: APP_ROOT, env: home.env, timeoutMs: 30_000 });
  try {
    const lookup = loaderVersionFromBridge(probe);
    const first = await explainChainRequest(home.env, {}, lookup);
    const second = await explainChainRequest(home.env, {}, loaderVersionFromBridge(probe));
    assert.match(first.loaderVersion ?? 'null', /^\d+\.\d+\.\d+$/);
    assert.equal(second.loaderVersion, first.loaderVersion);
    assert.equal(probe.requests, 1, 'the second question is answered from the cache');

    const fallback = await explainChainRequest(home.env, {}, loaderVersionFromBridge(broken));
    assert.equal(fallback.loaderVersion, null);
    assert.equal(fallback.rulesVersion, '1.3.239');
    assert.match(fallback.notes.join('\n'), /why the loader's version is unknown: .*probe/i);
    assert.match(fallback.notes.join('\n'), /rules of loader 1\.3\.239 were applied/);
  } finally {
    probe.dispose();
    broken.dispose();
    home.cleanup();
  }
});

test('strata explain --loader PATH asks that loader for its version; --loader-version and --compare model other loaders', { skip: matrixSkip() }, () => {
  const newest = loaderMatrix(['1.4.359'])[0]!;
  const home = homeWithImplicitLayer();
  try {
    const env = { ...home.env, VK_INSTANCE_LAYERS: 'VK_LAYER_KHRONOS_validation:VK_LAYER_STRATA_explain_test' };
    const byPath = runStrata(['explain', '--loader', join(newest.libDir, 'libvulkan.so.1'), '--json'], env);
    assert.equal(byPath.status, 0, byPath.stderr);
    const chain = LayerChainSchema.parse(JSON.parse(byPath.stdout));
    assert.equal(chain.loaderVersion, '1.4.359', 'the version came from the library named, not the installed 1.3.239');
    assert.ok(chain.rules.find((r) => r.id === 'instance-layers-order-implicit')!.applied);
    // 1.4.326+ places an implicit layer named in VK_INSTANCE_LAYERS in that variable's order.
    const names = chain.chain.map((e) => e.name);
    assert.ok(names.indexOf('VK_LAYER_KHRONOS_validation') < names.indexOf('VK_LAYER_STRATA_explain_test'), names.join(', '));

    const byVersion = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--loader-version', '1.3.275', '--json'], env).stdout));
    assert.equal(byVersion.loaderVersion, '1.3.275');
    assert.match(byVersion.notes.join('\n'), /modeled for loader 1\.3\.275/);

    const compared = runStrata(['explain', '--compare', '1.3.275,1.4.359'], env);
    assert.equal(compared.status, 1, 'exit 1: the loaders disagree');
    assert.match(compared.stdout, /From 1\.3\.275 to 1\.4\.359: changes at loader 1\.4\.326\n {2}rule instance-layers-order-implicit/);
    const bad = runStrata(['explain', '--compare', '1.4'], env);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /expected 2 to 8 loader versions/);
  } finally {
    home.cleanup();
  }
});

test('strata explain follows a loader settings file another tool wrote, for the loaders that read it, and names it as the reason', () => {
  const home = homeWithImplicitLayer();
  try {
    const file = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'loader_settings.d', 'vk_loader_settings.json');
    const manifest = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'implicit_layer.d', 'strata_test.json');
    mkdirSync(join(file, '..'), { recursive: true });
    // vkconfig 3's shape: the global entry turns the implicit layer off and keeps the rest where they are.
    const layers = [
      { control: 'off', name: 'VK_LAYER_STRATA_explain_test', path: manifest, treat_as_implicit_manifest: true },
      { control: 'unordered_layer_location' },
    ];
    writeFileSync(file, JSON.stringify({ file_format_version: '1.0.0', settings_array: [{ layers }] }));
    const modern = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--loader-version', '1.4.341', '--json'], home.env).stdout));
    assert.equal(modern.settingsFile, file);
    assert.ok(!modern.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'), 'the file turns it off');
    const off = modern.excluded.find((e) => e.name === 'VK_LAYER_STRATA_explain_test')!;
    assert.ok(
      off.reasons.some((r) => r.code === 'settings/off' && r.message.includes(file)),
      JSON.stringify(off),
    );
    assert.match(
      modern.notes.join('\n'),
      /the loader applies the global entry \(settings_array\[0\]\) of .*vk_loader_settings\.json: its layer list decides the chain/,
    );
    const text = runStrata(['explain', '--loader-version', '1.4.341'], home.env).stdout;
    assert.match(text, /vk_loader_settings\.json/, 'the human output names the file');
    const old = LayerChainSchema.parse(JSON.parse(runStrata(['explain', '--loader-version', '1.3.239', '--json'], home.env).stdout));
    assert.equal(old.settingsFile, null, 'loader 1.3.239 reads no settings file');
    assert.ok(
      old.chain.some((e) => e.name === 'VK_LAYER_STRATA_explain_test'),
      'so the implicit layer stays on',
    );
  } finally {
    home.cleanup();
  }
});
