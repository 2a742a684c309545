import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../../main/hosts/app-context';
import { findAppRoot } from '../../main/platform/app-paths';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { buildFakeIcds, buildNegotiateOracle, type FakeIcds } from '../helpers/fake-icds';
import {
  DriversNegotiateReportSchema,
  LOADER_ICD_INTERFACE_VERSION,
  type DriverNegotiation,
  type DriversNegotiateReport,
} from '../../shared/vulkan/driver-negotiation';

const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const TIMEOUT_MS = 3000;

let home: TempHome;
let fakes: FakeIcds;
let ctx: AppContext;

before(() => {
  home = makeTempHome();
  fakes = buildFakeIcds(home.dir);
  // LD_LIBRARY_PATH reaches the probes' dynamic linker, for the bare-name manifest.
  ctx = createAppContext({ root: findAppRoot(), env: { ...home.env, LD_LIBRARY_PATH: fakes.libDir } });
});
after(() => {
  ctx?.dispose();
  home?.cleanup();
});

async function negotiate(manifests: string[]): Promise<{ report: DriversNegotiateReport; wallMs: number }> {
  const started = performance.now();
  const result = await ctx.router.call('drivers.negotiate', { manifests, timeoutMs: TIMEOUT_MS }, { host: 'cli' });
  const wallMs = performance.now() - started;
  assert.ok(result.ok, JSON.stringify(result));
  return { report: DriversNegotiateReportSchema.parse(result.value), wallMs };
}

function failure(d: DriverNegotiation | undefined, code: string, manifestBase: string): DriverNegotiation {
  assert.ok(d, `no result for ${manifestBase}`);
  assert.equal(d.ok, false, JSON.stringify(d));
  assert.equal(d.error?.code, code, JSON.stringify(d.error));
  assert.match(d.error.message, new RegExp(manifestBase.replace(/\./g, '\\.')), 'the message names the driver');
  assert.ok(d.error.fix && d.error.fix.length > 10, 'the error says what to do');
  return d;
}

/** What the real library exports, by nm: the oracle for the exports column. */
function nmVkIcdExports(library: string): string[] {
  const out = execFileSync('nm', ['-D', '--defined-only', library], { encoding: 'utf8' });
  return [...out.matchAll(/ T (vk_icd\w+|vkGetInstanceProcAddr)$/gm)].map((m) => m[1]!).sort();
}

test('the offered interface version is the installed vk_icd.h CURRENT_LOADER_ICD_INTERFACE_VERSION', () => {
  const header = readFileSync('/usr/include/vulkan/vk_icd.h', 'utf8');
  assert.equal(Number(header.match(/#define CURRENT_LOADER_ICD_INTERFACE_VERSION (\d+)/)?.[1]), LOADER_ICD_INTERFACE_VERSION);
});

test('one request: good fakes and lavapipe negotiate while crashing, hanging and broken drivers each get their own diagnostic', async () => {
  const m = fakes.manifests;
  const order = [
    m.segv,
    m.good,
    m.hang,
    LAVAPIPE,
    m.incompatible,
    m['good-relative'],
    m['good-bare'],
    m['null-create'],
    m['gipa-only'],
    m.nothing,
    m['text-file'],
    m['wrong-arch'],
    m['missing-file'],
  ];
  const { report, wallMs } = await negotiate(order);
  assert.equal(report.loaderInterfaceVersion, 7);
  assert.equal(report.source, 'request');
  assert.deepEqual(
    report.drivers.map((d) => d.manifest),
    order,
    'one result per manifest, in the order asked',
  );
  const by = (path: string) => report.drivers.find((d) => d.manifest === path);

  // The good fake: negotiates down to its 5 from the offered 7, vkCreateInstance reachable.
  const good = by(m.good)!;
  assert.ok(good.ok, JSON.stringify(good));
  assert.deepEqual(
    {
      interfaceVersion: good.interfaceVersion,
      requested: good.requestedVersion,
      result: good.negotiateResult,
      from: good.negotiateFrom,
      create: good.createInstanceFound,
      library: good.library,
    },
    { interfaceVersion: 5, requested: 7, result: 'VK_SUCCESS', from: 'export', create: true, library: join(fakes.libDir, 'libfake_good.so') },
  );
  assert.deepEqual(good.exports, ['vk_icdNegotiateLoaderICDInterfaceVersion', 'vk_icdGetInstanceProcAddr', 'vk_icdGetPhysicalDeviceProcAddr']);
  // A relative library_path is relative to the manifest's folder; a bare name is the dynamic linker's.
  assert.equal(by(m['good-relative'])!.library, join(fakes.libDir, 'libfake_good.so'));
  assert.ok(by(m['good-relative'])!.ok);
  const bare = by(m['good-bare'])!;
  assert.ok(bare.ok, JSON.stringify(bare));
  assert.equal(bare.library, join(fakes.libDir, 'libfake_bare.so'), 'the file ld.so really mapped');

  // Mesa's real lavapipe, in the same request as the crashing and hanging fakes.
  const lvp = by(LAVAPIPE)!;
  assert.ok(lvp.ok, JSON.stringify(lvp));
  assert.equal(lvp.negotiateResult, 'VK_SUCCESS');
  // The oracle: the same handshake in C, with plain dlopen/dlsym.
  const oracle = buildNegotiateOracle(home.dir)(lvp.library!, LOADER_ICD_INTERFACE_VERSION);
  assert.deepEqual({ result: 0, version: lvp.interfaceVersion }, oracle);
  assert.ok(lvp.interfaceVersion! >= 2 && lvp.interfaceVersion! <= LOADER_ICD_INTERFACE_VERSION, String(lvp.interfaceVersion));
  assert.equal(lvp.createInstanceFound, true);
  assert.equal(lvp.library, '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so');
  assert.deepEqual([...(lvp.exports ?? [])].sort(), nmVkIcdExports(lvp.library!));

  // Interface 7: negotiation only through vk_icdGetInstanceProcAddr.
  const gipaOnly = by(m['gipa-only'])!;
  assert.ok(gipaOnly.ok, JSON.stringify(gipaOnly));
  assert.equal(gipaOnly.negotiateFrom, 'vk_icdGetInstanceProcAddr');
  assert.ok(!gipaOnly.exports?.includes('vk_icdNegotiateLoaderICDInterfaceVersion'));
  assert.equal(gipaOnly.interfaceVersion, 5);

  // The crash: its own diagnostic, naming the driver, its library, the signal and the call it died in.
  const segv = failure(by(m.segv), 'driver/crashed', 'segv.json');
  assert.match(segv.error!.message, /libfake_segv\.so/);
  assert.match(segv.error!.message, /SIGSEGV/);
  assert.match(segv.error!.message, /during vk_icdNegotiateLoaderICDInterfaceVersion/);
  assert.ok(segv.elapsedMs < TIMEOUT_MS, `a crash is reported at once, not at the timeout (${segv.elapsedMs} ms)`);

  // The hang: reported at the per-driver limit, not later.
  const hang = failure(by(m.hang), 'driver/timeout', 'hang.json');
  assert.match(hang.error!.message, /during vk_icdNegotiateLoaderICDInterfaceVersion within 3000 ms/);
  assert.ok(hang.elapsedMs >= TIMEOUT_MS - 50 && hang.elapsedMs < TIMEOUT_MS + 5000, `${hang.elapsedMs} ms`);

  const incompatible = failure(by(m.incompatible), 'driver/unsupported-interface', 'incompatible.json');
  assert.equal(incompatible.negotiateResult, 'VK_ERROR_INCOMPATIBLE_DRIVER');
  assert.equal(incompatible.interfaceVersion, null);

  const nullCreate = failure(by(m['null-create']), 'driver/no-create-instance', 'null-create.json');
  assert.equal(nullCreate.interfaceVersion, 5);
  assert.equal(nullCreate.createInstanceFound, false);

  const nothing = failure(by(m.nothing), 'driver/missing-symbol', 'nothing.json');
  assert.deepEqual(nothing.exports, []);

  failure(by(m['text-file']), 'driver/not-elf', 'text-file.json');
  const wrong = failure(by(m['wrong-arch']), 'driver/wrong-architecture', 'wrong-arch.json');
  assert.match(wrong.error!.message, fakes.wrongArch === 'gcc -m32' ? /32-bit x86 \(i386\).*64-bit x86-64/ : /AArch64.*x86-64/);
  const missing = failure(by(m['missing-file']), 'driver/library-not-found', 'missing-file.json');
  assert.equal(missing.exports, null);

  assert.equal(report.drivers.filter((d) => d.ok).length, 5);
  assert.ok(wallMs < 20_000, `the whole request took ${Math.round(wallMs)} ms`);
  const times = report.drivers.map((d) => `${d.manifest.split('/').pop()} ${Math.round(d.elapsedMs)} ms`).join(', ');
  process.stdout.write(`# per-driver negotiate times: ${times}; request ${Math.round(wallMs)} ms\n`);

  // The next request gets fresh probes and works.
  const again = await negotiate([m.good, LAVAPIPE]);
  assert.deepEqual(
    again.report.drivers.map((d) => d.ok),
    [true, true],
    JSON.stringify(again.report.drivers.map((d) => d.error)),
  );
  assert.equal(again.report.drivers[1]!.interfaceVersion, lvp.interfaceVersion);
});

test('without manifests the request uses VK_DRIVER_FILES, as the loader does', async () => {
  const local = createAppContext({ root: findAppRoot(), env: { ...home.env, VK_DRIVER_FILES: `${fakes.manifests.good}:${LAVAPIPE}` } });
  try {
    const result = await local.router.call('drivers.negotiate', {}, { host: 'cli' });
    assert.ok(result.ok, JSON.stringify(result));
    const report = DriversNegotiateReportSchema.parse(result.value);
    assert.equal(report.source, 'VK_DRIVER_FILES');
    assert.deepEqual(
      report.drivers.map((d) => [d.manifest, d.ok]),
      [
        [fakes.manifests.good, true],
        [LAVAPIPE, true],
      ],
    );
  } finally {
    local.dispose();
  }
});
