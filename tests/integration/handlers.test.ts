import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BridgeClient } from '../../main/bridge/bridge-client';
import { findAppRoot } from '../../main/platform/app-paths';
import { createRouter } from '../../main/router/router';
import { createHandlers } from '../../main/router/handlers';
import { SessionService } from '../../main/sessions/session-service';
import { channels } from '../../shared/ipc/contract';
import type { EnvSummary } from '../../shared/loader/environment-summary';
import type { DiscoveryPaths } from '../../shared/loader/search-paths';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/router/handlers.ts: the channel table. One handler per contract channel; every handler
 * reasons about the environment it was given; the launch and session channels share one service,
 * made on the first call of any of them; a request that needs a probe pool is refused, with what
 * is missing, by a host that has none. (The services themselves have their own tests.)
 */
const root = findAppRoot();
// A probe that is never started by these tests' calls (none of them asks the probe without a pool).
const bridge = () =>
  new BridgeClient({ probe: { file: join(root, 'tests', 'fixtures', 'probes', 'fake-probe.mjs'), execArgv: [] }, cwd: root, timeoutMs: 5000 });

function withHome(fn: (home: TempHome) => Promise<void>, extra: NodeJS.ProcessEnv = {}) {
  return async () => {
    const home = makeTempHome(extra);
    try {
      await fn(home);
    } finally {
      home.cleanup();
    }
  };
}

test('one handler for every channel of the contract, and no other', () => {
  assert.deepEqual(Object.keys(createHandlers({ version: '0', bridge: bridge() })).sort(), Object.keys(channels).sort());
});

test(
  "every handler reasons about the environment it was given, not this process's",
  withHome(
    async (home) => {
      const router = createRouter(createHandlers({ version: '0', bridge: bridge(), env: home.env }));
      const env = await router.call('env.summary', {}, { host: 'cli' });
      assert.ok(env.ok, JSON.stringify(env));
      assert.deepEqual(
        (env.value as EnvSummary).variables.map((v) => v.name),
        ['VK_LOADER_LAYERS_ENABLE'],
      );
      const paths = await router.call('discovery.paths', {}, { host: 'cli' });
      assert.ok(paths.ok, JSON.stringify(paths));
      const report = paths.value as DiscoveryPaths;
      assert.ok(
        report.locations.explicit_layer.some((l) => l.path === join(home.env['XDG_DATA_HOME']!, 'vulkan', 'explicit_layer.d')),
        JSON.stringify(report.locations.explicit_layer.map((l) => l.path)),
      );
    },
    { VK_LOADER_LAYERS_ENABLE: '*validation' },
  ),
);

test(
  'the launch and session channels share one service, made on the first call of any of them',
  withHome(async (home) => {
    let made = 0;
    const router = createRouter(
      createHandlers({
        version: '0',
        bridge: bridge(),
        env: home.env,
        sessions: async () => {
          made++;
          return new SessionService({ env: home.env, version: '0', predictChain: false });
        },
      }),
    );
    assert.equal(made, 0, 'making the handlers makes no service');
    for (const [channel, payload] of [
      ['sessions.list', {}],
      ['launch.stop', { id: 'none' }],
      ['sessions.list', {}],
    ] as const) {
      const r = await router.call(channel, payload, { host: 'cli' });
      assert.ok(r.ok, JSON.stringify(r));
    }
    assert.equal(made, 1);
  }),
);

test(
  'without a probe pool: a request with its own environment, and driver negotiation, are refused with what is missing',
  withHome(async (home) => {
    const router = createRouter(createHandlers({ version: '0', bridge: bridge(), env: home.env }));
    const loader = await router.call('loader.info', { env: { VK_DRIVER_FILES: '/x.json' } }, { host: 'cli' });
    assert.equal(!loader.ok && loader.error.code, 'bridge/no-pool');
    const negotiate = await router.call('drivers.negotiate', { manifests: ['/x.json'] }, { host: 'cli' });
    assert.equal(!negotiate.ok && negotiate.error.code, 'bridge/no-pool');
    assert.match(!negotiate.ok ? negotiate.error.message : '', /cannot start probes of their own/);
  }),
);
