import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { medianMs, pairedProcesses, runProcess, type Bench, type PairedResult } from './harness';
import { findAppRoot } from '../main/platform/app-paths';
import { createServiceContext } from '../main/hosts/service-context';
import { answerMode } from '../main/hosts/cli/cli-channel';
import type { ChannelName } from '../shared/ipc/contract';
import { AS_USERS_RUN, makeTempHome } from '../tests/helpers/temp-home';
import { strataCommand } from '../tests/helpers/strata-cli';
import { buildTree, PROBE_C } from './discovery-10k.bench';

/**
 * The commands as a user runs them (issue #19): whole processes, Node's start, loading the CLI,
 * the work and the output included, each against the tool or program it replaces, started in turn
 * (A B A B …) in the same run; the ratio is the median of the pairs' ratios.
 *
 * - version, help: `strata --version` / `strata --help` against a bare `node -e 0`;
 * - info, loader: `strata info --json` / `strata loader show --json` against `vulkaninfo --summary`;
 * - explain: `strata explain --json` against a C program's real vkCreateInstance (bench/native/create-instance-timing.c);
 * - layersList10k: `strata layer list --json` on discovery-10k's 10,000-manifest tree against a C
 *   program's count + fill vkEnumerateInstanceLayerProperties, with both peak RSS (GNU time).
 * The CLI's output goes to a pipe and is thrown away, as the reference's is.
 *
 * Next to each, `inProcessMs` / `inProcessRatio`: the same channel through the router in this
 * process once everything is loaded and warm (the probe started), over the same reference's whole
 * process: what is left when Node's start, loading and a cold JIT are taken away.
 * `nodeExtraCaCerts`: where NODE_EXTRA_CA_CERTS is set, Node reads that file at every start
 * (Node 20); what a bare `node -e 0` costs with it and without, so the table can say so. bin/strata
 * sets it aside for Node's start (main/hosts/cli/node-environment.ts), so Strata's rows do not pay it
 * and the `node -e 0` reference of --version and --help runs without it.
 */
const round = (n: number, d = 3) => Number(n.toFixed(d));

function row(r: PairedResult, reference: string) {
  return {
    ratio: round(r.ratio),
    strataMs: round(r.aMs, 1),
    referenceMs: round(r.bMs, 1),
    strataPeakRssMB: round(r.aMaxRssKb / 1024, 1),
    referencePeakRssMB: round(r.bMaxRssKb / 1024, 1),
    reference,
    runs: r.runs,
  };
}

/**
 * One channel through the router in this process, after a warm-up call: the median of `runs`, in ms.
 * The router treats answers as the CLI's does (main/hosts/cli/cli-channel.ts answerMode).
 */
async function inProcessMs(root: string, env: NodeJS.ProcessEnv, channel: ChannelName, request: unknown, runs = 7): Promise<number> {
  const ctx = createServiceContext({ root, env, loaderVersionInProcess: true, answers: answerMode(env) });
  try {
    if (channel === 'loader.info') {
      // The probe's start is not part of "after warm-up" (nor of a request's 5 s limit on a busy machine).
      const ready = await ctx.bridge.request('ping', undefined, { timeoutMs: 60_000 });
      if (!ready.ok) throw new Error(`the probe did not start: ${ready.error.message}`);
    }
    const call = async () => {
      const r = await ctx.router.call(channel, request, { host: 'cli' });
      if (!r.ok) throw new Error(`${channel} in process: ${r.error.message}`);
    };
    await call();
    return await medianMs(runs, call);
  } finally {
    ctx.dispose();
  }
}

const withInProcess = (r: ReturnType<typeof row>, ms: number) => ({ ...r, inProcessMs: round(ms, 1), inProcessRatio: round(ms / r.referenceMs) });

export const cliWholeProcessBench: Bench = {
  name: 'cli-whole-process',
  async run() {
    const root = findAppRoot();
    const home = makeTempHome(AS_USERS_RUN);
    try {
      const node = process.execPath;
      // As a user runs it: bin/strata as a program (its shell part picks a startup snapshot where there is one).
      const cli = (...args: string[]) => ({ ...strataCommand(args), env: home.env });
      // Pairs enough for a steady median: on 2 shared cores whose speed swings by a third within
      // minutes, 9 pairs (5 for the 10,000-manifest listing) moved a ratio by up to 0.1 between runs (issue #19).
      const runs = 15;
      // Bare Node's start without NODE_EXTRA_CA_CERTS, which bin/strata sets aside (Node reads its file as it
      // starts): the floor of a Node start, not a start slowed by a variable Strata's own does not read.
      const { NODE_EXTRA_CA_CERTS: _ca, ...bareEnv } = home.env;
      const version = pairedProcesses(cli('--version'), { command: node, args: ['-e', '0'], env: bareEnv }, runs);
      const help = pairedProcesses(cli('--help'), { command: node, args: ['-e', '0'], env: bareEnv }, runs);
      const vulkaninfo = { command: 'vulkaninfo', args: ['--summary'], env: home.env };
      const info = pairedProcesses(cli('info', '--json'), vulkaninfo, runs);
      const loader = pairedProcesses(cli('loader', 'show', '--json'), vulkaninfo, runs);

      const createInstance = join(home.dir, 'create-instance-timing');
      execFileSync('gcc', ['-O2', '-o', createInstance, join(root, 'bench', 'native', 'create-instance-timing.c'), '-lvulkan'], { stdio: 'pipe' });
      const explain = pairedProcesses(cli('explain', '--json', '--api-version', '1.3'), { command: createInstance, args: ['0', '1.3'], env: home.env }, runs);

      // In process, before the 10,000 manifests below land in this home's XDG folders.
      const inProcess = {
        info: await inProcessMs(root, home.env, 'app.info', {}),
        loader: await inProcessMs(root, home.env, 'loader.info', {}),
        explain: await inProcessMs(root, home.env, 'chain.explain', { apiVersion: '1.3' }),
      };

      // 10,000 manifests: the discovery-10k tree, and its loader program (count + fill, once).
      const tree = buildTree(home);
      const probeSource = join(home.dir, 'enumerate-layers.c');
      const probe = join(home.dir, 'enumerate-layers');
      writeFileSync(probeSource, PROBE_C);
      execFileSync('gcc', ['-O2', probeSource, '-o', probe, '-lvulkan'], { stdio: 'pipe' });
      const list = strataCommand(['layer', 'list', '--json']);
      const check = runProcess(list.command, list.args, tree.env);
      if (check.status !== 0) throw new Error(`strata layer list --json exited ${check.status} on the 10k tree`);
      // As many pairs as the other rows (~2.5 s each): with 9 its ratio moved between 0.90 and 0.98 in runs of one afternoon.
      const layersList10k = pairedProcesses({ ...list, env: tree.env }, { command: probe, args: ['1'], env: tree.env }, runs);

      const layersList10kInProcess = await inProcessMs(root, tree.env, 'discovery.manifests', {}, 3);
      const caCerts = process.env['NODE_EXTRA_CA_CERTS'];
      let nodeExtraCaCerts: { file: string; withMs: number; withoutMs: number; ratio: number } | null = null;
      if (caCerts) {
        const start = pairedProcesses({ command: node, args: ['-e', '0'], env: home.env }, { command: node, args: ['-e', '0'], env: bareEnv }, runs);
        nodeExtraCaCerts = { file: caCerts, withMs: round(start.aMs, 1), withoutMs: round(start.bMs, 1), ratio: round(start.ratio) };
      }

      return {
        ratio: round(help.ratio),
        version: row(version, 'node -e 0'),
        help: row(help, 'node -e 0'),
        info: withInProcess(row(info, 'vulkaninfo --summary'), inProcess.info),
        loader: withInProcess(row(loader, 'vulkaninfo --summary'), inProcess.loader),
        explain: withInProcess(row(explain, 'vkCreateInstance in a C program (create-instance-timing 0 1.3), whole process'), inProcess.explain),
        layersList10k: {
          ...withInProcess(row(layersList10k, 'vkEnumerateInstanceLayerProperties count + fill in a C program, whole process'), layersList10kInProcess),
          rssRatio: round(layersList10k.aMaxRssKb / layersList10k.bMaxRssKb),
        },
        nodeExtraCaCerts,
      };
    } finally {
      home.cleanup();
    }
  },
};
