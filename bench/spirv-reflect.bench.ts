import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { medianMs, type Bench } from './harness';
import { buildLargeModule, buildShaderCorpus } from '../tests/helpers/shader-corpus';
import { parseSpirv } from '../shared/shader/spirv-instructions';
import { reflectModule, reflectSpirv } from '../shared/shader/spirv-reflect';

/**
 * Parse + reflect throughput (MB/s): the generated ≥ 1 MiB module (bench/spirv-dis.bench.ts) and the
 * test corpus (small modules of every stage, where per-module costs show). `reflectSpirv` reads the
 * whole file but decodes only the declarations before the first function (all that reflection
 * reads); `fullParse*` is the Shaders panel's path, which decodes every instruction once for
 * reflection, validation and disassembly together. `ratio`: reflectSpirv of the large module (in
 * process, warm) over `spirv-cross FILE --reflect` on it (one process, as a user runs it);
 * `ratioWithNodeStart` adds Node's own start-up.
 */
export const spirvReflectBench: Bench = {
  name: 'spirv-reflect',
  async run() {
    const large = buildLargeModule();
    const corpus = buildShaderCorpus();
    try {
      const modules = corpus.modules.map((m) => new Uint8Array(readFileSync(m.path)));
      const corpusBytes = modules.reduce((n, m) => n + m.length, 0);
      const full = (bytes: Uint8Array) => reflectModule(parseSpirv(bytes));
      // Warm-up: the JIT's first rounds are not what a long-running UI or a test suite sees.
      for (let i = 0; i < 3; i++) {
        reflectSpirv(large.bytes);
        full(large.bytes);
      }
      for (let i = 0; i < 30; i++) for (const m of modules) reflectSpirv(m);
      const strataLarge = await medianMs(9, () => void reflectSpirv(large.bytes));
      const fullLarge = await medianMs(9, () => void full(large.bytes));
      const strataCorpus = await medianMs(9, () => {
        for (const m of modules) reflectSpirv(m);
      });
      const pipe = { stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 };
      const cross = await medianMs(5, () => void execFileSync('spirv-cross', [large.path, '--reflect'], pipe));
      const nodeStart = await medianMs(5, () => void execFileSync(process.execPath, ['-e', '0']));
      const mbps = (bytes: number, ms: number) => Number((bytes / 1e6 / (ms / 1000)).toFixed(1));
      return {
        ratio: strataLarge / cross,
        ratioWithNodeStart: Number(((strataLarge + nodeStart) / cross).toFixed(3)),
        reference: 'spirv-cross FILE --reflect (one process)',
        bytes: large.bytes.length,
        strataMs: Number(strataLarge.toFixed(1)),
        spirvCrossMs: Number(cross.toFixed(1)),
        nodeStartMs: Number(nodeStart.toFixed(1)),
        strataMBps: mbps(large.bytes.length, strataLarge),
        fullParseMs: Number(fullLarge.toFixed(1)),
        fullParseMBps: mbps(large.bytes.length, fullLarge),
        corpusModules: modules.length,
        corpusBytes,
        corpusMBps: mbps(corpusBytes, strataCorpus),
      };
    } finally {
      large.cleanup();
      corpus.cleanup();
    }
  },
};
