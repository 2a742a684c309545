import { execFileSync } from 'node:child_process';
import { medianMs, type Bench } from './harness';
import { strataCommand } from '../tests/helpers/strata-cli';

/**
 * `strata info --json` (Node start, CLI, probe process, koffi, vkEnumerateInstanceVersion) against
 * `vulkaninfo --summary` (which also creates an instance and enumerates devices): both are what a
 * user runs to ask "which loader do I have".
 */
export const loaderInfoBench: Bench = {
  name: 'loader-info',
  async run() {
    const runs = 5;
    const strata = await medianMs(runs, () => {
      const { command, args } = strataCommand(['info', '--json']);
      execFileSync(command, args, { stdio: 'ignore' });
    });
    const vulkaninfo = await medianMs(runs, () => {
      try {
        execFileSync('vulkaninfo', ['--summary'], { stdio: 'ignore' });
      } catch {
        // vulkaninfo exits non-zero without a usable driver; the time still counts.
      }
    });
    return { ratio: strata / vulkaninfo, strataMs: Math.round(strata), referenceMs: Math.round(vulkaninfo), reference: 'vulkaninfo --summary', runs };
  },
};
