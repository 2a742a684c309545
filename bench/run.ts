// `npm run bench [-- NAME ...]`: every benchmark, one JSON line each. Exit 1 if one failed to run.
import { runBenches } from './harness';
import { bridgeEnumerateBench } from './bridge-enumerate.bench';
import { loaderInfoBench } from './loader-info.bench';
import { discovery10kBench } from './discovery-10k.bench';
import { spirvDisBench } from './spirv-dis.bench';
import { spirvReflectBench } from './spirv-reflect.bench';
import { chainModelBench } from './chain-model.bench';
import { ui1kLayersBench } from './ui-1k-layers.bench';
import { sessionCaptureBench } from './session-capture.bench';

process.exitCode = (await runBenches([loaderInfoBench, spirvDisBench, spirvReflectBench, bridgeEnumerateBench, discovery10kBench, ui1kLayersBench, sessionCaptureBench, chainModelBench], process.argv.slice(2))) > 0 ? 1 : 0;
