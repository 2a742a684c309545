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

// Vulkan programs started by the benches (lavapipe, the validation layer) write shader caches under
// XDG_CACHE_HOME, else ~/.cache: give them a throwaway one so a bench run leaves the user's home as it was.
const cache = mkdtempSync(join(tmpdir(), 'strata-bench-cache-'));
process.env['XDG_CACHE_HOME'] = cache;
process.exitCode = (await runBenches([loaderInfoBench, spirvDisBench, spirvReflectBench, bridgeEnumerateBench, discovery10kBench, ui1kLayersBench, sessionCaptureBench, chainModelBench], process.argv.slice(2))) > 0 ? 1 : 0;
rmSync(cache, { recursive: true, force: true });
