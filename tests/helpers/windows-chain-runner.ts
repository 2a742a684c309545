/**
 * The Windows side of tests/integration/windows-chain-vs-loader.test.ts, bundled by that test
 * (esbuild, as scripts/build.mjs bundles the CLI) and run by Windows Node under Wine: one process
 * for every scenario, because each Wine process start costs seconds.
 *
 *   node windows-chain-runner.mjs PLAN.json RESULTS.json
 *
 * For each scenario of the plan, in order:
 * 1. the registry values of the previous scenario go, this one's are set (DWORD 0, as an installer
 *    registers a manifest; native-bridge/windows-native.ts, RegSetValueExW);
 * 2. the previous scenario's variables are unset and this one's set (process.env on Windows is
 *    SetEnvironmentVariableW, which the loader's GetEnvironmentVariableW reads);
 * 3. Strata predicts the chain through the entry `strata explain --json` uses (explainChainRequest:
 *    Windows discovery through the registry and this process's elevation, then the chain model), for
 *    this process as the application (app_keys are compared with its path, node.exe);
 * 4. the real loader (vulkan-1.dll by full path) creates an instance with the scenario's apiVersion
 *    and layers, and the recording layers append to the plan's log file what they saw.
 * Nothing here decides agreement: the test compares the two on Linux.
 */
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { explainChainRequest } from '../../main/chain/chain-service';
import { NativeArena, openLibrary } from '../../native-bridge/ffi';
import { deleteRegistryValue, setRegistryDword } from '../../native-bridge/windows-native';

export interface RunnerScenario {
  id: string;
  /** Registry values (DWORD `data`, 0 unless given) to set: full key (HKLM\… / HKCU\…) and value name. */
  registry: { key: string; name: string; data?: number }[];
  /** Variables for this scenario ("$APP" in a value is this process's path). */
  env: Record<string, string>;
  requested: string[];
  apiVersion: string;
}

export interface RunnerPlan {
  /** Windows path of the recording layers' log (STRATA_LAYER_LOG, set before this process started). */
  logFile: string;
  loaderPath: string;
  scenarios: RunnerScenario[];
}

export interface RunnerResult {
  id: string;
  /** This process's path (process.execPath: GetModuleFileNameW), which the loader compares with app_keys. */
  app: string;
  loaderVersion: string | null;
  /** The VkResult vkCreateInstance returned. */
  result: number;
  /** The recording layers' lines ("NAME DLLPATH"), application side first. */
  log: string[];
  /** Strata's prediction: VkResult, and the chain as "NAME LIBRARYPATH". */
  model: { result: number; chain: string[]; reasons: [string, string[]][]; excluded: [string, string[]][]; notes: string[] } | { error: string };
  ms: { model: number; loader: number };
}

const VK_RESULT: Record<string, number> = { VK_SUCCESS: 0, VK_ERROR_LAYER_NOT_PRESENT: -6 };
const VK_STRUCTURE_TYPE_APPLICATION_INFO = 0;
const VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1;

async function main(planFile: string, resultsFile: string) {
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as RunnerPlan;
  const vk = openLibrary(plan.loaderPath);
  const need = <T>(f: T | null, name: string): T => {
    if (!f) throw new Error(`${plan.loaderPath} does not export ${name}`);
    return f;
  };
  const enumerateVersion = need(vk.func('vkEnumerateInstanceVersion', 'i32', ['u64']), 'vkEnumerateInstanceVersion');
  const createInstance = need(vk.func('vkCreateInstance', 'i32', ['u64', 'u64', 'u64']), 'vkCreateInstance');
  const destroyInstance = need(vk.func('vkDestroyInstance', 'void', ['u64', 'u64']), 'vkDestroyInstance');

  const arena = new NativeArena();
  const versionOut = arena.alloc(4);
  const loaderVersion =
    enumerateVersion(versionOut.address) === 0
      ? (() => {
          const v = versionOut.bytes.readUInt32LE(0);
          return `${(v >>> 22) & 0x7f}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;
        })()
      : null;
  arena.free();

  const results: RunnerResult[] = [];
  let previous: RunnerScenario | null = null;
  for (const s of plan.scenarios) {
    if (previous) {
      for (const r of previous.registry) deleteRegistryValue(r.key, r.name);
      for (const k of Object.keys(previous.env)) delete process.env[k];
    }
    for (const r of s.registry) setRegistryDword(r.key, r.name, r.data ?? 0);
    for (const [k, v] of Object.entries(s.env)) process.env[k] = v.replaceAll('$APP', process.execPath);
    previous = s;
    rmSync(plan.logFile, { force: true });

    const t0 = Date.now();
    let model: RunnerResult['model'];
    try {
      const chain = await explainChainRequest(process.env, { appPath: process.execPath, requestedLayers: s.requested, apiVersion: s.apiVersion }, async () =>
        loaderVersion ? { version: loaderVersion } : { version: null, why: 'vkEnumerateInstanceVersion failed' },
      );
      model = {
        result: VK_RESULT[chain.result] ?? -1000,
        chain: chain.chain.map((e) => `${e.name} ${e.libraryPath ?? ''}`),
        reasons: chain.chain.map((e) => [e.name, e.reasons.map((r) => r.code)]),
        excluded: [...chain.metaLayers, ...chain.excluded].map((e) => [e.name, e.reasons.map((r) => `${r.code}: ${r.message}`)]),
        notes: chain.notes,
      };
    } catch (e) {
      model = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    const t1 = Date.now();

    const call = new NativeArena();
    let result: number;
    try {
      const [major = 1, minor = 0] = s.apiVersion.split('.').map(Number);
      const app = call.alloc(48);
      app.bytes.writeUInt32LE(VK_STRUCTURE_TYPE_APPLICATION_INFO, 0);
      app.bytes.writeUInt32LE(((major << 22) | (minor << 12)) >>> 0, 44);
      const info = call.alloc(64);
      info.bytes.writeUInt32LE(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, 0);
      info.bytes.writeBigUInt64LE(app.address, 24);
      info.bytes.writeUInt32LE(s.requested.length, 32);
      if (s.requested.length) info.bytes.writeBigUInt64LE(call.cStringArray(s.requested).address, 40);
      const instance = call.alloc(8);
      result = createInstance(info.address, 0n, instance.address);
      if (result === 0) destroyInstance(instance.bytes.readBigUInt64LE(0), 0n);
    } finally {
      call.free();
    }
    const t2 = Date.now();
    const log = existsSync(plan.logFile)
      ? readFileSync(plan.logFile, 'utf8')
          .split(/\r?\n/)
          .filter((l) => l.length > 0)
      : [];
    results.push({ id: s.id, app: process.execPath, loaderVersion, result, log, model, ms: { model: t1 - t0, loader: t2 - t1 } });
  }
  if (previous) for (const r of previous.registry) deleteRegistryValue(r.key, r.name);
  writeFileSync(resultsFile, JSON.stringify(results));
}

const [planFile, resultsFile] = process.argv.slice(2);
if (!planFile || !resultsFile) {
  process.stderr.write('usage: windows-chain-runner PLAN.json RESULTS.json\n');
  process.exit(2);
}
main(planFile, resultsFile).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
