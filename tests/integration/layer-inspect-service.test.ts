/**
 * layers.inspect against the real layers Debian installs (Khronos validation, Mesa's device-select,
 * overlay and nullhw, MangoHud, vkBasalt) and gcc-built fakes that crash or hang in their
 * constructor or in negotiation. Oracles: `nm -D` for what a library exports, a C program doing the
 * loader's handshake for the negotiated version, and the real loader's own VK_LOADER_DEBUG verdict
 * for a layer that refuses to negotiate.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../main/hosts/app-context';
import { findAppRoot } from '../../main/platform/app-paths';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { buildFakeLayers, type FakeLayers } from '../helpers/fake-layers';
import { LAYER_LAYOUT } from '../../native-bridge/vulkan-layouts';
import {
  LayersInspectReportSchema,
  LOADER_LAYER_INTERFACE_VERSION,
  MIN_LAYER_INTERFACE_VERSION,
  type LayerInspection,
  type LayersInspectReport,
} from '../../shared/vulkan/layer-inspection';

const TIMEOUT_MS = 2000;
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const REAL_LAYERS = [
  'VK_LAYER_KHRONOS_validation',
  'VK_LAYER_MESA_device_select',
  'VK_LAYER_MESA_overlay',
  'VK_LAYER_INTEL_nullhw',
  'VK_LAYER_MANGOHUD_overlay',
  'VK_LAYER_VKBASALT_post_processing',
];

let home: TempHome;
let fakes: FakeLayers;
let ctx: AppContext;
let oracle: (library: string, symbol: string, offered: number) => string;

before(() => {
  home = makeTempHome();
  fakes = buildFakeLayers(home.dir);
  const exe = join(home.dir, 'layer-negotiate-oracle');
  execFileSync('gcc', ['-O1', '-Wall', '-Werror', join(findAppRoot(), 'tests', 'fixtures', 'layers', 'layer-negotiate-oracle.c'), '-o', exe, '-ldl'], {
    stdio: 'pipe',
  });
  // The test's HOME: the validation layer writes its shader cache under $HOME/.cache when the process exits.
  oracle = (library, symbol, offered) => execFileSync(exe, [library, symbol, String(offered)], { encoding: 'utf8', env: home.env }).trim();
  ctx = createAppContext({ root: findAppRoot(), env: home.env });
});
after(() => {
  ctx?.dispose();
  home?.cleanup();
});

async function inspect(request: object): Promise<LayersInspectReport> {
  const result = await ctx.router.call('layers.inspect', { timeoutMs: TIMEOUT_MS, ...request }, { host: 'cli' });
  assert.ok(result.ok, JSON.stringify(result));
  return LayersInspectReportSchema.parse(result.value);
}

/** What the library exports, by nm: the oracle for `exported`. */
function nmExports(library: string): Set<string> {
  const out = execFileSync('nm', ['-D', '--defined-only', library], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return new Set([...out.matchAll(/ [TW] (\S+)$/gm)].map((m) => m[1]!));
}

const fakeEnv = () => ({ VK_LAYER_PATH: fakes.manifestDir, LD_LIBRARY_PATH: fakes.libDir });

test('the offered and minimum versions and the VkNegotiateLayerInterface layout match the installed vk_layer.h', () => {
  const header = readFileSync('/usr/include/vulkan/vk_layer.h', 'utf8');
  assert.equal(Number(header.match(/#define CURRENT_LOADER_LAYER_INTERFACE_VERSION (\d+)/)?.[1]), LOADER_LAYER_INTERFACE_VERSION);
  assert.equal(Number(header.match(/#define MIN_SUPPORTED_LOADER_LAYER_INTERFACE_VERSION (\d+)/)?.[1]), MIN_LAYER_INTERFACE_VERSION);
  const lines = Object.entries(LAYER_LAYOUT).flatMap(([struct, fields]) =>
    Object.keys(fields).map((f) =>
      f === 'sizeof' ? `printf("${struct}.sizeof %zu\\n", sizeof(${struct}));` : `printf("${struct}.${f} %zu\\n", offsetof(${struct}, ${f}));`,
    ),
  );
  writeFileSync(
    join(home.dir, 'layer-layouts.c'),
    `#include <stdio.h>\n#include <stddef.h>\n#include <vulkan/vk_layer.h>\nint main(void) {\n${lines.join('\n')}\nreturn 0;\n}\n`,
  );
  execFileSync('gcc', ['-o', join(home.dir, 'layer-layouts'), join(home.dir, 'layer-layouts.c')], { stdio: 'pipe' });
  const measured = Object.fromEntries(
    execFileSync(join(home.dir, 'layer-layouts'), { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => l.split(' '))
      .map(([k, v]) => [k!, Number(v)]),
  );
  const ours = Object.fromEntries(Object.entries(LAYER_LAYOUT).flatMap(([s, fields]) => Object.entries(fields).map(([f, n]) => [`${s}.${f}`, n])));
  assert.deepEqual(ours, measured);
});

test('the real layers: exports as nm sees them, negotiation as the C handshake gets it, libraries where ld.so maps them', async () => {
  const report = await inspect({ names: REAL_LAYERS });
  assert.deepEqual(report.notFound, [], 'Debian installs all six (vulkan-validationlayers, mesa-vulkan-drivers, mangohud, vkbasalt)');
  assert.equal(report.offeredInterfaceVersion, 2);
  const by = (name: string) => report.layers.find((l) => l.name === name)!;
  for (const l of report.layers) {
    assert.ok(l.ok, JSON.stringify(l.error));
    assert.ok(l.library, `${l.name}: the mapped library is known`);
    // The resolver (ld.so.cache, $LIB) names the same file the dynamic linker mapped.
    assert.equal(realpathSync(l.resolution!.path!), realpathSync(l.library!), `${l.name}: ${JSON.stringify(l.resolution)}`);
    const exported = nmExports(l.library!);
    for (const s of l.symbols) assert.equal(s.exported, exported.has(s.symbol), `${l.name}: ${s.symbol}`);
    if (l.negotiation) {
      const [result, version, gipa, gdpa, gpdpa] = oracle(l.library!, l.symbols.find((s) => s.role === 'negotiate')!.symbol, 2)
        .split(' ')
        .map(Number);
      assert.deepEqual(
        {
          result: l.negotiation.result,
          version: l.negotiation.interfaceVersion,
          gipa: l.negotiation.getInstanceProcAddr,
          gdpa: l.negotiation.getDeviceProcAddr,
          gpdpa: l.negotiation.getPhysicalDeviceProcAddr,
        },
        { result: result === 0 ? 'VK_SUCCESS' : String(result), version, gipa: gipa === 1, gdpa: gdpa === 1, gpdpa: gpdpa === 1 },
        String(l.name),
      );
    }
  }
  const vvl = by('VK_LAYER_KHRONOS_validation');
  assert.equal(vvl.interfaceVersion, 2);
  assert.equal(vvl.resolution?.via, 'ld.so.cache', 'a bare name, found in the ld.so cache');
  assert.ok(vvl.symbols.filter((s) => s.role === 'extension-entrypoint').length >= 5, 'the manifest names extension entrypoints');
  assert.equal(by('VK_LAYER_MESA_device_select').interfaceVersion, 2);
  // Mesa's overlay and nullhw, MangoHud and vkBasalt do not negotiate: interface 1 through an exported (or renamed) vkGetInstanceProcAddr.
  for (const name of ['VK_LAYER_MESA_overlay', 'VK_LAYER_INTEL_nullhw', 'VK_LAYER_MANGOHUD_overlay', 'VK_LAYER_VKBASALT_post_processing']) {
    assert.equal(by(name).interfaceVersion, 1, name);
    assert.deepEqual(
      by(name).warnings.map((w) => w.code),
      ['layer/no-negotiate'],
      name,
    );
  }
  const mango = by('VK_LAYER_MANGOHUD_overlay');
  assert.equal(mango.symbols.find((s) => s.role === 'get-instance-proc-addr')?.symbol, 'overlay_GetInstanceProcAddr');
  assert.doesNotMatch(mango.resolution!.path!, /\$LIB/, '$LIB is expanded as ld.so does');
});

function failure(l: LayerInspection | undefined, code: string): LayerInspection {
  assert.ok(l, 'a result for the layer');
  assert.equal(l.ok, false, JSON.stringify(l));
  assert.equal(l.error?.code, code, JSON.stringify(l.error));
  assert.ok(l.error.message.includes(l.name!), 'the message names the layer');
  assert.ok(l.error.fix && l.error.fix.length > 10, 'the error says what to do');
  return l;
}

test('fakes in one request (environment per request): crashes and hangs each get their own diagnostic; the next request works', async () => {
  const report = await inspect({ env: fakeEnv(), names: [...Object.values(fakes.names), 'VK_LAYER_STRATA_no_such_layer'] });
  assert.deepEqual(report.notFound, ['VK_LAYER_STRATA_no_such_layer']);
  const by = (kind: keyof FakeLayers['names']) => report.layers.find((l) => l.name === fakes.names[kind]);

  const good = by('good')!;
  assert.ok(good.ok, JSON.stringify(good));
  assert.equal(good.interfaceVersion, 2);
  assert.deepEqual(good.negotiation, {
    offered: 2,
    result: 'VK_SUCCESS',
    interfaceVersion: 2,
    getInstanceProcAddr: true,
    getDeviceProcAddr: true,
    getPhysicalDeviceProcAddr: false,
  });
  assert.deepEqual(
    good.symbols.filter((s) => s.role === 'pre-instance').map((s) => [s.function, s.symbol, s.exported]),
    [
      ['vkEnumerateInstanceVersion', 'Fake_EnumerateInstanceVersion', true],
      ['vkEnumerateInstanceLayerProperties', 'Fake_Missing', false],
    ],
  );
  assert.deepEqual(
    good.warnings.map((w) => w.code),
    ['layer/missing-pre-instance-function'],
  );

  const segv = failure(by('ctor-segv'), 'layer/crashed');
  assert.match(segv.error!.message, /SIGSEGV/);
  assert.match(segv.error!.message, /during dlopen of \S+libfake_layer_ctor_segv\.so/);
  assert.ok(segv.elapsedMs < TIMEOUT_MS, `a crash is reported at once (${segv.elapsedMs} ms)`);
  const hang = failure(by('ctor-hang'), 'layer/timeout');
  assert.match(hang.error!.message, /during dlopen of .* within 2000 ms/);
  assert.ok(hang.elapsedMs >= TIMEOUT_MS - 50 && hang.elapsedMs < TIMEOUT_MS + 5000, `${hang.elapsedMs} ms`);
  assert.match(failure(by('negotiate-segv'), 'layer/crashed').error!.message, /during vkNegotiateLoaderLayerInterfaceVersion: killed by SIGSEGV/);
  assert.match(failure(by('negotiate-hang'), 'layer/timeout').error!.message, /during vkNegotiateLoaderLayerInterfaceVersion within 2000 ms/);

  assert.equal(failure(by('refuse'), 'layer/negotiation-failed').negotiation?.result, 'VK_ERROR_INITIALIZATION_FAILED');
  assert.equal(failure(by('zero'), 'layer/negotiation-failed').negotiation?.interfaceVersion, 0);
  failure(by('nothing'), 'layer/missing-symbol');

  const v1 = by('v1')!;
  assert.ok(v1.ok, JSON.stringify(v1));
  assert.equal(v1.interfaceVersion, 1);
  assert.equal(v1.resolution?.via, 'manifest-relative');
  assert.deepEqual(
    v1.symbols.filter((s) => s.exported).map((s) => s.symbol),
    ['Fake_GetInstanceProcAddr', 'Fake_GetDeviceProcAddr'],
  );

  const bare = by('bare')!;
  assert.ok(bare.ok, JSON.stringify(bare));
  assert.equal(bare.resolution?.via, 'LD_LIBRARY_PATH', "the request's LD_LIBRARY_PATH reaches the resolver");
  assert.equal(bare.library, join(fakes.libDir, 'libfake_layer_bare.so'), "… and the probe's dynamic linker");

  const missing = failure(by('missing'), 'layer/library-not-found');
  assert.equal(missing.elapsedMs, 0, 'no probe is started for a library that is not there');
  const meta = by('meta')!;
  assert.ok(meta.ok);
  assert.deepEqual(
    meta.warnings.map((w) => w.code),
    ['layer/meta-layer'],
  );

  // The probes died with their layers; the next request starts fresh ones.
  const again = await inspect({ env: fakeEnv(), names: [fakes.names.good, 'VK_LAYER_MESA_device_select'] });
  assert.deepEqual(
    again.layers.map((l) => [l.name, l.ok]),
    [
      ['VK_LAYER_MESA_device_select', true],
      [fakes.names.good, true],
    ],
  );
});

test('the real loader agrees: a layer whose negotiation fails and that exports no vkGetInstanceProcAddr is skipped', () => {
  const r = spawnSync('vulkaninfo', ['--summary'], {
    env: { ...home.env, ...fakeEnv(), VK_DRIVER_FILES: LAVAPIPE, VK_INSTANCE_LAYERS: fakes.names.refuse, VK_LOADER_DEBUG: 'error' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.match(r.stderr, /Failed to find 'vkGetInstanceProcAddr' in layer ".*libfake_layer_refuse\.so"/);
});
