import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bench } from './harness';
import { findAppRoot } from '../main/platform/app-paths';
import { createAppContext } from '../main/hosts/app-context';
import { BridgeClient } from '../main/bridge/bridge-client';
import { DevicesReportSchema } from '../shared/vulkan/devices';

/**
 * 50 × (create an instance, enumerate physical devices, their properties, destroy) with lavapipe
 * alone (VK_DRIVER_FILES): Strata's `devices` channel through the router, in process, on a warm
 * probe (JSON lines to the probe process, koffi, schema checks both ways) against the same calls
 * in C (bench/native/enumerate-devices.c, built with gcc here). The C program's first pass, which
 * loads the driver, is left out of its time as the probe's start is left out of Strata's; the
 * probe's cold start (the bundled probe, as the app ships it) is reported on its own. Devices are
 * asked with `origins: false` (no per-driver pass); one call with origins is timed apart.
 */
const ITERATIONS = 50;
const ROUNDS = 5;
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** This process's environment without any Vulkan variable, plus lavapipe as the only driver. */
function lavapipeEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(VK_|VULKAN_)/.test(k)) env[k] = v;
  return { ...env, VK_DRIVER_FILES: LAVAPIPE };
}

interface CResult {
  devices: number;
  iterations: number;
  firstMs: number;
  totalMs: number;
}

export const bridgeEnumerateBench: Bench = {
  name: 'bridge-enumerate',
  async run() {
    const root = findAppRoot();
    const env = lavapipeEnv();
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-enumerate-'));
    const context = createAppContext({ root, env });
    try {
      const exe = join(dir, 'enumerate-devices');
      execFileSync('gcc', ['-O2', '-Wall', '-Wextra', '-Werror', join(root, 'bench', 'native', 'enumerate-devices.c'), '-o', exe, '-lvulkan'], {
        stdio: 'pipe',
      });
      const runC = (): CResult => JSON.parse(execFileSync(exe, [String(ITERATIONS)], { env, encoding: 'utf8' })) as CResult;

      // Cold start of the probe as shipped (out/native-bridge/probe.cjs; `npm run bench` builds it):
      // process start to the first `devices` answer, and to a ping (node + koffi, no Vulkan yet).
      const cold = async (method: 'ping' | 'devices') => {
        const client = new BridgeClient({ probe: { file: join(root, 'out', 'native-bridge', 'probe.cjs'), execArgv: [] }, cwd: root, env, timeoutMs: 30_000 });
        try {
          const t0 = performance.now();
          const r = await client.request(method);
          if (!r.ok) throw new Error(`cold ${method}: ${r.error.message}`);
          return performance.now() - t0;
        } finally {
          client.dispose();
        }
      };
      const coldStartMs = median([await cold('devices'), await cold('devices'), await cold('devices')]);
      const coldPingMs = median([await cold('ping'), await cold('ping'), await cold('ping')]);

      // origins: false: the same work as the C program. Finding each device's manifest (the default)
      // enumerates once more per driver manifest; its cost is reported on its own below.
      const callDevices = async (origins = false) => {
        const r = await context.router.call('devices.list', { origins }, { host: 'cli' });
        if (!r.ok) throw new Error(`devices: ${r.error.code}: ${r.error.message}`);
        return DevicesReportSchema.parse(r.value);
      };
      const warmUp = await callDevices(); // starts the app's probe (from source, through tsx) and loads the driver
      // Interleaved rounds, so a slow spell of the machine hits all three alike. The probe alone
      // (no router, no schema checks) shows where Strata's time goes.
      const strataRounds: number[] = [];
      const bridgeRounds: number[] = [];
      const referenceRounds: number[] = [];
      let reference: CResult | null = null;
      for (let round = 0; round < ROUNDS; round++) {
        let t0 = performance.now();
        for (let i = 0; i < ITERATIONS; i++) await callDevices();
        strataRounds.push(performance.now() - t0);
        t0 = performance.now();
        for (let i = 0; i < ITERATIONS; i++) {
          const r = await context.bridge.request('devices');
          if (!r.ok) throw new Error(`bridge devices: ${r.error.message}`);
        }
        bridgeRounds.push(performance.now() - t0);
        reference = runC();
        referenceRounds.push(reference.totalMs);
      }
      if (reference!.devices !== warmUp.devices.length) {
        throw new Error(`Strata saw ${warmUp.devices.length} devices, the C program ${reference!.devices}`);
      }

      const withOrigins: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        await callDevices(true);
        withOrigins.push(performance.now() - t0);
      }
      const strata = median(strataRounds);
      const c = median(referenceRounds);
      return {
        ratio: strata / c,
        strataMs: Number(strata.toFixed(1)),
        referenceMs: Number(c.toFixed(1)),
        reference: `C with -lvulkan, ${ITERATIONS} iterations in one process (gcc -O2)`,
        iterations: ITERATIONS,
        rounds: ROUNDS,
        perIterationStrataMs: Number((strata / ITERATIONS).toFixed(2)),
        perIterationReferenceMs: Number((c / ITERATIONS).toFixed(2)),
        bridgeOnlyMs: Number(median(bridgeRounds).toFixed(1)),
        perCallWithOriginsMs: Number(median(withOrigins).toFixed(2)),
        probeColdStartMs: Math.round(coldStartMs),
        probeColdPingMs: Math.round(coldPingMs),
        referenceFirstPassMs: Number(reference!.firstMs.toFixed(1)),
        devices: reference!.devices,
        driver: 'lavapipe (VK_DRIVER_FILES)',
      };
    } finally {
      context.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
