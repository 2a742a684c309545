import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { medianMs, type Bench } from './harness';
import { buildShaderCorpus } from '../tests/helpers/shader-corpus';
import { disassembleSpirv } from '../shared/shader/spirv-disassembler';

/**
 * Disassembling the test corpus (every stage, compiled by glslangValidator): Strata in process
 * (warm) against spirv-dis, one process per module as a user runs it. Node's own start-up is
 * reported separately, as `nodeStartMs`. A ≥ 1 MB generated module is still to come (issue 10).
 */
export const spirvDisBench: Bench = {
  name: 'spirv-dis',
  async run() {
    const corpus = buildShaderCorpus();
    try {
      const inputs = corpus.modules.map((m) => ({ path: m.path, bytes: new Uint8Array(readFileSync(m.path)) }));
      const bytes = corpus.modules.reduce((n, m) => n + statSync(m.path).size, 0);
      for (const i of inputs) disassembleSpirv(i.bytes); // warm-up
      const strata = await medianMs(9, () => {
        for (const i of inputs) disassembleSpirv(i.bytes);
      });
      const reference = await medianMs(3, () => {
        for (const i of inputs) execFileSync('spirv-dis', ['--raw-id', i.path], { stdio: ['ignore', 'pipe', 'ignore'] });
      });
      const nodeStart = await medianMs(3, () => {
        execFileSync(process.execPath, ['-e', '0']);
      });
      return {
        ratio: strata / reference,
        strataMs: Number(strata.toFixed(2)),
        referenceMs: Number(reference.toFixed(1)),
        reference: 'spirv-dis --raw-id, one process per module',
        nodeStartMs: Math.round(nodeStart),
        modules: inputs.length,
        bytes,
        strataMBps: Number((bytes / 1e6 / (strata / 1000)).toFixed(1)),
      };
    } finally {
      corpus.cleanup();
    }
  },
};
