// `npm run bench [-- NAME ...]`: every benchmark, one JSON line each. Exit 1 if one failed to run.
import { runBenches } from './harness';
import { bridgeEnumerateBench } from './bridge-enumerate.bench';
import { loaderInfoBench } from './loader-info.bench';
import { discovery10kBench } from './discovery-10k.bench';
import { spirvDisBench } from './spirv-dis.bench';

process.exitCode = (await runBenches([loaderInfoBench, spirvDisBench, bridgeEnumerateBench, discovery10kBench], process.argv.slice(2))) > 0 ? 1 : 0;
