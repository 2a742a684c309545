import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by scripts/build.mjs (esbuild `define`); absent when running TypeScript sources through tsx. */
declare const __STRATA_BUNDLED__: boolean | undefined;

export const runningFromSource = typeof __STRATA_BUNDLED__ === 'undefined';

/** The folder holding Strata's package.json, found from this module's own location. */
export function findAppRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'strata') return dir;
      } catch {
        // A broken package.json further down is not ours; keep walking up.
      }
    }
    if (dirname(dir) === dir) throw new Error(`Strata's package.json not found above ${start}`);
  }
}

export function readAppVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export function rendererDir(root: string): string {
  return join(root, 'out', 'renderer');
}

/** How to start the probe process: the bundled file, or the TypeScript source through tsx. */
export function probeCommand(root: string): { file: string; execArgv: string[] } {
  if (runningFromSource) return { file: join(root, 'native-bridge', 'probe.ts'), execArgv: ['--import', 'tsx'] };
  return { file: join(root, 'out', 'native-bridge', 'probe.cjs'), execArgv: [] };
}
