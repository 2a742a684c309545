import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeClient, type BridgeClientOptions } from '../../main/bridge/bridge-client';
import { BridgePool } from '../../main/bridge/bridge-pool';
import { findAppRoot } from '../../main/platform/app-paths';
import { loaderInfo } from '../../main/vulkan/vulkan-service';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/vulkan/vulkan-service.ts, its own logic: which probe answers (the pool's probe for the
 * request's environment; none without a pool), the answer checked against the contract, and —
 * when the probe died with every driver loaded — which driver manifest kills it alone. Probes are
 * real processes of tests/fixtures/probes/fake-probe.mjs, told how to behave through the
 * environment; the real loader's answers are tests/integration/bridge-queries.test.ts and
 * bridge-device-origin.test.ts (a real crashing driver).
 */
const root = findAppRoot();
const fakeProbe = { file: join(root, 'tests', 'fixtures', 'probes', 'fake-probe.mjs'), execArgv: [] };
const INFO = { library: 'libvulkan.so.1', path: '/usr/lib/libvulkan.so.1', apiVersion: 4206831, version: '1.3.239', layers: [], extensions: [] };

function setup(home: TempHome, extra: NodeJS.ProcessEnv = {}) {
  const env = { ...home.env, ...extra };
  const base: BridgeClientOptions = { probe: fakeProbe, cwd: root, env, timeoutMs: 5000 };
  const bridge = new BridgeClient(base);
  return { env, bridge, probes: new BridgePool(base, bridge) };
}

function withHome(fn: (home: TempHome) => Promise<void>) {
  return async () => {
    const home = makeTempHome();
    try {
      await fn(home);
    } finally {
      home.cleanup();
    }
  };
}

const refused = (code: string, check?: (e: StrataRequestError) => void) => (e: unknown) => {
  assert.ok(e instanceof StrataRequestError, String(e));
  assert.equal(e.error.code, code, JSON.stringify(e.error));
  check?.(e);
  return true;
};

test(
  "the request's environment picks the probe; an answer that matches the contract is returned as parsed",
  withHome(async (home) => {
    const { env, bridge, probes } = setup(home, { FAKE_PROBE_VALUE: JSON.stringify(INFO) });
    try {
      assert.deepEqual(await loaderInfo({ bridge, probes, env }, {}), INFO);
      const other = await loaderInfo({ bridge, probes, env }, { env: { FAKE_PROBE_VALUE: JSON.stringify({ ...INFO, version: '1.4.341' }) } });
      assert.equal(other.version, '1.4.341');
    } finally {
      probes.dispose();
    }
  }),
);

test(
  'an answer that breaks the contract is a bug report, not data; without a pool a request with its own environment is refused',
  withHome(async (home) => {
    const { env, bridge, probes } = setup(home);
    try {
      await assert.rejects(
        loaderInfo({ bridge, probes, env }, {}),
        refused('bridge/invalid-reply', (e) => {
          assert.match(e.error.message, /answer to "loader.info" does not match its schema/);
          assert.equal(e.error.where, 'native-bridge probe');
        }),
      );
      await assert.rejects(loaderInfo({ bridge, env }, { env: { VK_DRIVER_FILES: '/x.json' } }), refused('bridge/no-pool'));
      // An empty environment is no environment: the host's own probe answers.
      await assert.rejects(loaderInfo({ bridge, env }, { env: {} }), refused('bridge/invalid-reply'));
    } finally {
      probes.dispose();
    }
  }),
);

test(
  'the probe died with every driver loaded: each driver is tried alone, and the error names the one that kills it',
  withHome(async (home) => {
    const manifest = (name: string) => {
      const path = join(home.dir, `${name}.json`);
      writeFileSync(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: `/nonexistent/${name}.so`, api_version: '1.3.0' } }));
      return path;
    };
    const [good, bad, good2] = [manifest('good'), manifest('bad'), manifest('good2')];
    const { env, bridge, probes } = setup(home, {
      FAKE_PROBE_MODE: 'segv',
      FAKE_PROBE_METHOD: 'loader.info',
      FAKE_PROBE_BAD_DRIVER: bad,
      FAKE_PROBE_STAGE: 'vkCreateInstance',
    });
    try {
      await assert.rejects(
        loaderInfo({ bridge, probes, env }, { env: { VK_DRIVER_FILES: [good, bad, good2].join(':') } }),
        refused('bridge/crashed', (e) => {
          assert.match(e.error.message, new RegExp(`Loaded alone, this driver does the same: ${bad} \\(killed by SIGSEGV during vkCreateInstance\\)$`));
          assert.equal(e.error.where, bad);
          assert.match(e.error.fix ?? '', /remove or update that driver/);
        }),
      );
    } finally {
      probes.dispose();
    }
  }),
);

test(
  'every driver works alone: the error points at the implicit layers instead',
  withHome(async (home) => {
    const path = join(home.dir, 'only.json');
    writeFileSync(path, JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: '/nonexistent/only.so', api_version: '1.3.0' } }));
    // Only the first probe started crashes (the marker file): the pool's, with everything loaded.
    const { env, bridge, probes } = setup(home, { FAKE_PROBE_MODE: 'segv', FAKE_PROBE_MARKER: join(home.dir, 'crashed-once') });
    try {
      await assert.rejects(
        loaderInfo({ bridge, probes, env }, { env: { VK_DRIVER_FILES: path } }),
        refused('bridge/crashed', (e) => {
          assert.doesNotMatch(e.error.message, /Loaded alone/);
          assert.match(e.error.fix ?? '', /^every driver works when loaded alone, so an implicit layer is the likely cause/);
        }),
      );
    } finally {
      probes.dispose();
    }
  }),
);
