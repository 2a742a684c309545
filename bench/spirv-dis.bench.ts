import { execFileSync } from 'node:child_process';
import { medianMs, pairedProcesses, type Bench } from './harness';
import { buildLargeModule } from '../tests/helpers/shader-corpus';
import { strataCommand } from '../tests/helpers/strata-cli';
import { AS_USERS_RUN, makeTempHome } from '../tests/helpers/temp-home';
import { disassembleSpirv } from '../shared/shader/spirv-disassembler';

/**
 * Disassembling a large module (≥ 1 MiB: 640 generated GLSL functions compiled by glslangValidator
 * into a temporary folder at bench time), Strata against spirv-dis, both ways spirv-dis prints:
 * `--raw-id` and friendly names.
 *
 * - `ratio`: Strata's disassembly (--raw-id, in process, after warm-up) over `spirv-dis --raw-id
 *   FILE` as a user runs it (one process, output to a pipe). Target ≤ 1.0.
 * - Node's own start-up (`node -e 0`) is measured separately, as `nodeStartMs`;
 *   `ratioWithNodeStart` adds it to Strata's time.
 * - `ratioFriendly`: friendly names against plain `spirv-dis` (Node start-up included);
 *   `ratioCli`: `bin/strata shader dis --raw-id FILE` end to end (Node start-up, loading the CLI
 *   bundle, reading the file, a cold JIT, checking the answer against the contract) over
 *   `spirv-dis --raw-id FILE`, both whole processes started in turn, the median of the pairs' ratios.
 */
const MIN_BYTES = 1 << 20;

export const spirvDisBench: Bench = {
  name: 'spirv-dis',
  async run() {
    const large = buildLargeModule();
    const home = makeTempHome(AS_USERS_RUN);
    try {
      if (large.bytes.length < MIN_BYTES) throw new Error(`the generated module is ${large.bytes.length} bytes, less than 1 MiB`);
      const pipe = { stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20 };
      // Warm-up, and the texts must be spirv-dis's before their speed means anything.
      for (const rawIds of [true, false]) {
        const ours = disassembleSpirv(large.bytes, { rawIds }).text;
        const theirs = execFileSync('spirv-dis', [...(rawIds ? ['--raw-id'] : []), large.path], pipe).toString('utf8');
        if (ours !== theirs) throw new Error(`Strata's ${rawIds ? '--raw-id ' : ''}text differs from spirv-dis's`);
      }
      // Warm-up: what a long-running UI or serve process sees after its first files.
      for (let i = 0; i < 5; i++) {
        disassembleSpirv(large.bytes, { rawIds: true });
        disassembleSpirv(large.bytes);
      }
      const strataRaw = await medianMs(9, () => void disassembleSpirv(large.bytes, { rawIds: true }));
      const strataFriendly = await medianMs(5, () => void disassembleSpirv(large.bytes));
      const spirvDisRaw = await medianMs(5, () => void execFileSync('spirv-dis', ['--raw-id', large.path], pipe));
      const spirvDisFriendly = await medianMs(3, () => void execFileSync('spirv-dis', [large.path], pipe));
      const nodeStart = await medianMs(5, () => void execFileSync(process.execPath, ['-e', '0']));
      // The CLI and spirv-dis started in turn (A B A B …), the ratio taken pair by pair: 15 pairs, where
      // 7 moved the ratio between 0.93 and 1.13 in runs minutes apart on 2 shared cores (issue #19).
      const cli = pairedProcesses(
        { ...strataCommand(['shader', 'dis', '--raw-id', large.path]), env: home.env },
        { command: 'spirv-dis', args: ['--raw-id', large.path], env: home.env },
        15,
      );
      const round = (n: number) => Number(n.toFixed(1));
      return {
        ratio: strataRaw / spirvDisRaw,
        ratioWithNodeStart: Number(((strataRaw + nodeStart) / spirvDisRaw).toFixed(3)),
        ratioFriendly: Number(((strataFriendly + nodeStart) / spirvDisFriendly).toFixed(3)),
        ratioCli: Number(cli.ratio.toFixed(3)),
        reference: 'spirv-dis --raw-id FILE (one process)',
        bytes: large.bytes.length,
        strataRawMs: round(strataRaw),
        strataFriendlyMs: round(strataFriendly),
        spirvDisRawMs: round(spirvDisRaw),
        spirvDisFriendlyMs: round(spirvDisFriendly),
        nodeStartMs: round(nodeStart),
        strataCliMs: round(cli.aMs),
        spirvDisCliMs: round(cli.bMs),
        strataMBps: round(large.bytes.length / 1e6 / (strataRaw / 1000)),
      };
    } finally {
      large.cleanup();
      home.cleanup();
    }
  },
};
