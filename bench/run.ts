// `npm run bench [-- NAME ...]`: every benchmark, one JSON line each. Exit 1 if one failed to run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBenches } from './harness';
import { bridgeEnumerateBench } from './bridge-enumerate.bench';
import { loaderInfoBench } from './loader-info.bench';
import { discovery10kBench } from './discovery-10k.bench';
import { spirvDisBench } from './spirv-dis.bench';
import { spirvReflectBench } from './spirv-reflect.bench';
import { chainModelBench } from './chain-model.bench';
import { ui1kLayersBench } from './ui-1k-layers.bench';
import { sessionCaptureBench } from './session-capture.bench';
import { cliWholeProcessBench } from './cli-whole-process.bench';
import { loaderMatrixBench } from './loader-matrix.bench';
import { hugeManifestRssBench } from './huge-manifest-rss.bench';
import { targetTable } from './targets';

// Vulkan programs started by the benches (lavapipe, the validation layer) write shader caches under
// XDG_CACHE_HOME, else ~/.cache: give them a throwaway one so a bench run leaves the user's home as it was.
const cache = mkdtempSync(join(tmpdir(), 'strata-bench-cache-'));
process.env['XDG_CACHE_HOME'] = cache;
const { failures, results } = await runBenches(
  [
    cliWholeProcessBench,
    loaderInfoBench,
    spirvDisBench,
    spirvReflectBench,
    bridgeEnumerateBench,
    discovery10kBench,
    ui1kLayersBench,
    sessionCaptureBench,
    chainModelBench,
    hugeManifestRssBench,
    loaderMatrixBench,
  ],
  process.argv.slice(2),
);
// The issue #19 table: whole commands against the tools they replace, with targets. A miss is
// printed, not an error: the exit status says whether every bench ran.
const table = targetTable(results);
process.stdout.write(`\n${table.text}\n${table.misses ? `${table.misses} of the targets missed (MISS above)` : 'every target measured here is met'}\n`);
process.exitCode = failures > 0 ? 1 : 0;
rmSync(cache, { recursive: true, force: true });
