import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairedProcesses, runProcess, type Bench, type PairedResult } from './harness';
import { findAppRoot } from '../main/app-paths';
import { makeTempHome } from '../tests/helpers/temp-home';
import { buildTree, PROBE_C } from './discovery-10k.bench';

/**
 * The commands as a user runs them (issue #19): whole processes, Node's start, loading the CLI,
 * the work and the output included, each against the tool or program it replaces, started in turn
 * (A B A B …) in the same run; the ratio is the median of the pairs' ratios.
 *
 * - version, help: `strata --version` / `strata --help` against a bare `node -e 0`;
 * - info, loader: `strata info --json` / `strata loader --json` against `vulkaninfo --summary`;
 * - explain: `strata explain --json` against a C program's real vkCreateInstance (bench/native/create-instance-timing.c);
 * - layersList10k: `strata layers list --json` on discovery-10k's 10,000-manifest tree against a C
 *   program's count + fill vkEnumerateInstanceLayerProperties, with both peak RSS (GNU time).
 * The CLI's output goes to a pipe and is thrown away, as the reference's is.
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

export const cliWholeProcessBench: Bench = {
  name: 'cli-whole-process',
  async run() {
    const root = findAppRoot();
    const strata = join(root, 'bin', 'strata');
    const home = makeTempHome();
    try {
      const node = process.execPath;
      const cli = (...args: string[]) => ({ command: node, args: [strata, ...args], env: home.env });
      const runs = 9;
      const version = pairedProcesses(cli('--version'), { command: node, args: ['-e', '0'], env: home.env }, runs);
      const help = pairedProcesses(cli('--help'), { command: node, args: ['-e', '0'], env: home.env }, runs);
      const vulkaninfo = { command: 'vulkaninfo', args: ['--summary'], env: home.env };
      const info = pairedProcesses(cli('info', '--json'), vulkaninfo, runs);
      const loader = pairedProcesses(cli('loader', '--json'), vulkaninfo, runs);

      const createInstance = join(home.dir, 'create-instance-timing');
      execFileSync('gcc', ['-O2', '-o', createInstance, join(root, 'bench', 'native', 'create-instance-timing.c'), '-lvulkan'], { stdio: 'pipe' });
      const explain = pairedProcesses(cli('explain', '--json', '--api-version', '1.3'), { command: createInstance, args: ['0', '1.3'], env: home.env }, runs);

      // 10,000 manifests: the discovery-10k tree, and its loader program (count + fill, once).
      const tree = buildTree(home);
      const probeSource = join(home.dir, 'enumerate-layers.c');
      const probe = join(home.dir, 'enumerate-layers');
      writeFileSync(probeSource, PROBE_C);
      execFileSync('gcc', ['-O2', probeSource, '-o', probe, '-lvulkan'], { stdio: 'pipe' });
      const check = runProcess(node, [strata, 'layers', 'list', '--json'], tree.env);
      if (check.status !== 0) throw new Error(`strata layers list --json exited ${check.status} on the 10k tree`);
      const layersList10k = pairedProcesses(
        { command: node, args: [strata, 'layers', 'list', '--json'], env: tree.env },
        { command: probe, args: ['1'], env: tree.env },
        5,
      );

      return {
        ratio: round(help.ratio),
        version: row(version, 'node -e 0'),
        help: row(help, 'node -e 0'),
        info: row(info, 'vulkaninfo --summary'),
        loader: row(loader, 'vulkaninfo --summary'),
        explain: row(explain, 'vkCreateInstance in a C program (create-instance-timing 0 1.3), whole process'),
        layersList10k: {
          ...row(layersList10k, 'vkEnumerateInstanceLayerProperties count + fill in a C program, whole process'),
          rssRatio: round(layersList10k.aMaxRssKb / layersList10k.bMaxRssKb),
        },
      };
    } finally {
      home.cleanup();
    }
  },
};
