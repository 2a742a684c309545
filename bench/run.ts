// `npm run bench [-- NAME ...]`: every benchmark, one JSON line each. Exit 1 if one failed to run.
import { runBenches } from './harness';
import { loaderInfoBench } from './loader-info.bench';
import { spirvDisBench } from './spirv-dis.bench';

process.exitCode = (await runBenches([loaderInfoBench, spirvDisBench], process.argv.slice(2))) > 0 ? 1 : 0;
