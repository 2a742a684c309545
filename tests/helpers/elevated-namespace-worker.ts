import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { normalize } from 'node:path';
import { foundSettingsFile } from '../../main/chain/settings-file-found';
import { explainChain } from '../../main/chain/chain-service';
import { discoveryManifests } from '../../main/discovery/discovery-service';
import { DEBIAN_LINUX } from '../../shared/loader/search-paths';
import type { ElevatedProbes } from './elevated-probes';
import { loaderDriverScan } from './loader-log';

/**
 * Run by tests/helpers/elevated-probes.ts runInNamespace inside a private mount namespace whose
 * /etc/vulkan, /etc/xdg and /usr/local/share are the test's copies: runs the real loader (the
 * elevated probes) and asks Strata's model the same question, in the same file system, and prints
 * both as JSON on stdout. Never run directly: it deletes settings files it is told about.
 */

type Env = Record<string, string>;
interface JobBase {
  version: string;
  probes: ElevatedProbes;
  env: Env;
  home: string;
}
export type NamespaceJob = (JobBase & { kind: 'search' }) | (JobBase & { kind: 'drivers' }) | (JobBase & { kind: 'chain'; log: string });

type Variant = 'plain' | 'setuid' | 'setgid';
interface ProbeIds {
  uid: number;
  euid: number;
  gid: number;
  egid: number;
}
export interface SearchStep {
  strata: string | null;
  setuid: string | null;
  setgid: string | null;
  ids: ProbeIds[];
}
export interface VariantAnswer<T> {
  variant: Variant;
  ids: ProbeIds;
  loader: T;
  strata: T;
  /** The loader's version from its own log (plain runs only; an elevated run's log may be filtered). */
  loaderVersion: string | null;
}
export interface ChainAnswer {
  result: number | string;
  chain: string[];
}

const VK_RESULT: Record<string, number | string> = { VK_SUCCESS: 0, VK_ERROR_LAYER_NOT_PRESENT: -6, VK_ERROR_INITIALIZATION_FAILED: -3, LOADER_CRASH: 'crash' };
const VARIANTS: readonly Variant[] = ['plain', 'setuid', 'setgid'];

function runProbe(probe: string, job: JobBase) {
  const r = spawnSync(probe, [], { env: { ...job.env, VK_LOADER_DEBUG: 'all' }, cwd: job.home, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  if (r.error) throw r.error;
  const m = /STRATA-PROBE: uid=(\d+) euid=(\d+) gid=(\d+) egid=(\d+)/.exec(r.stderr);
  if (!m) throw new Error(`${probe} printed no ids (status ${r.status}, signal ${r.signal}):\n${r.stderr.slice(0, 2000)}`);
  const ids = { uid: Number(m[1]), euid: Number(m[2]), gid: Number(m[3]), egid: Number(m[4]) };
  const created = /STRATA-PROBE: create (-?\d+)/.exec(r.stderr)?.[1];
  return {
    stderr: r.stderr,
    ids,
    result: created !== undefined ? Number(created) : r.signal ? 'crash' : `no result (status ${r.status})`,
    version: /Vulkan Loader Version (\d+\.\d+\.\d+)/.exec(r.stderr)?.[1] ?? null,
  };
}

/** The settings file the loader says it uses (1.4.324+ log it with a doubled slash: the same file). */
function usedSettingsFile(log: string): string | null {
  const m = /Using layer configurations found in loader settings from (\S+)/.exec(log)?.[1];
  return m ? normalize(m) : null;
}

async function search(job: JobBase): Promise<SearchStep[]> {
  const steps: SearchStep[] = [];
  for (let i = 0; i < 16; i++) {
    const strata = foundSettingsFile(job.env, job.version, true);
    const setuid = runProbe(job.probes.setuid, job);
    const setgid = runProbe(job.probes.setgid, job);
    const step = { strata, setuid: usedSettingsFile(setuid.stderr), setgid: usedSettingsFile(setgid.stderr), ids: [setuid.ids, setgid.ids] };
    steps.push(step);
    if (strata === null || step.setuid !== strata || step.setgid !== strata) break;
    rmSync(strata);
  }
  return steps;
}

async function drivers(job: JobBase): Promise<VariantAnswer<string[]>[]> {
  const out: VariantAnswer<string[]>[] = [];
  for (const variant of VARIANTS) {
    const run = runProbe(job.probes[variant], job);
    const inv = await discoveryManifests({
      env: job.env,
      loaderVersion: job.version,
      platform: DEBIAN_LINUX,
      user: { home: job.home, elevated: variant !== 'plain' },
      cwd: job.home,
      libraries: false,
      appPath: job.probes[variant],
    });
    const strata = inv.manifests.driver.filter((m) => m.problem === null && m.driver !== null).map((m) => m.path);
    out.push({ variant, ids: run.ids, loader: loaderDriverScan(run.stderr), strata, loaderVersion: run.version });
  }
  return out;
}

async function chain(job: JobBase & { log: string }): Promise<VariantAnswer<ChainAnswer>[]> {
  const out: VariantAnswer<ChainAnswer>[] = [];
  for (const variant of VARIANTS) {
    // The layers append to the log as they are called; the elevated probe (euid nobody) must be able to.
    writeFileSync(job.log, '');
    chmodSync(job.log, 0o666); // not through writeFileSync's mode, which the umask narrows
    const run = runProbe(job.probes[variant], { ...job, env: { ...job.env, STRATA_LAYER_LOG: job.log } });
    const loader: ChainAnswer = {
      result: run.result,
      chain: existsSync(job.log) ? readFileSync(job.log, 'utf8').split('\n').filter(Boolean) : [],
    };
    const model = await explainChain(
      { env: job.env, user: { home: job.home, elevated: variant !== 'plain' }, cwd: job.home, platform: DEBIAN_LINUX },
      { app: { path: job.probes[variant], requestedLayers: [], apiVersion: '1.0' }, loader: { version: job.version } },
    );
    // Only the recording layers write to the log: the system's own implicit layers (Mesa's device
    // select, found in /usr/share even when elevated) are in both chains but seen in Strata's only.
    const recorded = model.chain.filter((e) => e.name.startsWith('VK_LAYER_STRATA_'));
    const strata: ChainAnswer = { result: VK_RESULT[model.result] ?? model.result, chain: recorded.map((e) => `${e.name} ${e.libraryPath}`) };
    out.push({ variant, ids: run.ids, loader, strata, loaderVersion: run.version });
  }
  return out;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '') as NamespaceJob;
  const answer = job.kind === 'search' ? await search(job) : job.kind === 'drivers' ? await drivers(job) : await chain(job);
  process.stdout.write(JSON.stringify(answer));
}

await main();
