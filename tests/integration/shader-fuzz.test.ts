import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { buildShaderCorpus, type ShaderCorpus } from '../helpers/shader-corpus';
import type { FuzzMessage, FuzzWork } from '../helpers/shader-fuzz-worker';
import { packVbc, type VbcStageInput } from '../../shared/shader/vbc';

/**
 * Issue 10's fuzz: 100,000 seeded mutations of valid SPIR-V modules (the whole corpus) and VBC files
 * (the corpus packed) through reader, decoder, validation, reflection and both disassemblies (a VBC
 * file: decoder, checks, cross-check, each stage's texts). No mutant may throw. "Bounded time" is
 * checked structurally, not by a clock: the worker reports progress every 2,000 mutants and a worker
 * silent for WATCHDOG_MS is a hang (the slowest single input is printed, not asserted). The work is
 * spread over worker threads, one per core (at most 4), so the suite stays fast.
 */
const MUTANTS = Number(process.env.STRATA_FUZZ_MUTANTS ?? 100_000);
const SEED = 0x5eed_0010;
const WATCHDOG_MS = 120_000;
const WORKER = new URL('../helpers/shader-fuzz-worker.ts', import.meta.url).href;

let corpus: ShaderCorpus;
before(() => {
  corpus = buildShaderCorpus();
});
after(() => corpus?.cleanup());

const VBC_SETS: Record<string, string>[] = [
  { vert: 'vertex-attributes.vert', frag: 'fragment-outputs.frag' },
  { tesc: 'tessellation.tesc', tese: 'tessellation.tese' },
  { geom: 'geometry.geom' },
  { frag: 'subpass-input.frag' },
];

function runWorker(work: FuzzWork, onProgress: () => void): Promise<Extract<FuzzMessage, { type: 'done' }>> {
  return new Promise((resolve, reject) => {
    // The worker is TypeScript like the test; Node 20 does not apply `--import tsx` to a worker's
    // entry module, so the worker starts from a line that loads it through tsx's API.
    const worker = new Worker(`import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(WORKER)}, ${JSON.stringify(import.meta.url)}))`, {
      eval: true,
      workerData: work,
    });
    let watchdog = setTimeout(
      () => fail(new Error(`a fuzz worker (mutants ${work.start}–${work.end - 1}) made no progress for ${WATCHDOG_MS / 1000} s: an input does not finish`)),
      WATCHDOG_MS,
    );
    const fail = (e: Error) => {
      clearTimeout(watchdog);
      void worker.terminate();
      reject(e);
    };
    worker.on('message', (m: FuzzMessage) => {
      clearTimeout(watchdog);
      if (m.type === 'done') {
        resolve(m);
        void worker.terminate();
        return;
      }
      onProgress();
      watchdog = setTimeout(() => fail(new Error(`a fuzz worker stopped after ${m.done} of its mutants: an input does not finish`)), WATCHDOG_MS);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`a fuzz worker exited with code ${code}`));
    });
  });
}

test(`fuzz: ${MUTANTS.toLocaleString('en-US')} seeded mutations of SPIR-V and VBC files through reader, validation, reflection and disassembly: no exception, every input finishes`, async (t) => {
  const spirv = corpus.modules.map((m) => new Uint8Array(readFileSync(m.path)));
  const byName = (name: string) => spirv[corpus.modules.findIndex((m) => m.name === name)]!;
  const vbc = VBC_SETS.map((set) => {
    const packed = packVbc(Object.fromEntries(Object.entries(set).map(([stage, name]) => [stage, byName(name)])) as VbcStageInput);
    assert.ok(packed.bytes, JSON.stringify(packed.diagnostics));
    return packed.bytes;
  });

  const workers = Math.max(1, Math.min(4, availableParallelism()));
  const started = performance.now();
  const cpu = process.cpuUsage();
  const share = Math.ceil(MUTANTS / workers);
  const results = await Promise.all(
    Array.from({ length: workers }, (_, w) => runWorker({ spirv, vbc, start: w * share, end: Math.min(MUTANTS, (w + 1) * share), seed: SEED }, () => {})),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  // CPU time of the whole process (all its threads): on a busy machine, wall time says more about the neighbours.
  const cpuSeconds = (used.user + used.system) / 1e6;

  const failures = results.flatMap((r) => r.failures);
  assert.deepEqual(failures, [], failures.map((f) => f.error).join('\n\n'));
  const count = results.reduce((n, r) => n + r.count, 0);
  assert.equal(count, MUTANTS);
  const spirvCount = results.reduce((n, r) => n + r.spirvCount, 0);
  const vbcCount = results.reduce((n, r) => n + r.vbcCount, 0);
  const diagnosed = results.reduce((n, r) => n + r.diagnosed, 0);
  const slowest = results.map((r) => r.slowest).reduce((a, b) => (b.ms > a.ms ? b : a));
  t.diagnostic(
    `${count.toLocaleString('en-US')} mutants (${spirvCount.toLocaleString('en-US')} SPIR-V, ${vbcCount.toLocaleString('en-US')} VBC; ${diagnosed.toLocaleString('en-US')} diagnosed) in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU) on ${workers} worker thread${workers === 1 ? '' : 's'}; slowest input ${slowest.ms.toFixed(1)} ms (mutant ${slowest.index})`,
  );

  // The mutations reach the decoders' checks, not only their happy paths.
  assert.ok(diagnosed > count / 2, `only ${diagnosed} of ${count} mutants had a diagnostic`);
  const codes = new Set(results.flatMap((r) => r.codes));
  for (const code of [
    'spirv/truncated-instruction',
    'spirv/zero-word-count',
    'spirv/unknown-opcode',
    'spirv/id-out-of-bound',
    'spirv/unterminated-string',
    'spirv/layout-order',
    'vbc/bad-magic',
    'vbc/truncated-header',
    'vbc/section-past-end',
    'vbc/bytecode-size-mismatch',
    'vbc/bad-base-type',
  ]) {
    assert.ok(codes.has(code), `the fuzz reached ${code} (seen: ${[...codes].sort().join(', ')})`);
  }
});
