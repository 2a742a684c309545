import { readFileSync } from 'node:fs';
import { machineFact } from '../../shared/app/machine-facts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set by scripts/build.mjs (esbuild `define`); absent when running TypeScript sources through tsx. */
declare const __STRATA_BUNDLED__: boolean | undefined;

export const runningFromSource = typeof __STRATA_BUNDLED__ === 'undefined';

interface PackageJson {
  name?: unknown;
  version?: unknown;
}

/**
 * The package.json files this process read, by folder (null: none there, or not JSON). A command
 * asks for Strata's root and version several times (the program, the service context, the router);
 * each read was ~0.3 ms of a one-shot command, run cold (issue #19). A machine fact: a startup
 * snapshot's builder reads them in its own checkout and forgets them before the heap is written.
 */
const packageJsons = machineFact(() => new Map<string, PackageJson | null>());

function packageJsonIn(dir: string): PackageJson | null {
  const known = packageJsons();
  let pkg = known.get(dir);
  if (pkg === undefined) {
    try {
      const value: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      pkg = typeof value === 'object' && value !== null ? (value as PackageJson) : null;
    } catch {
      // None here, or a broken one (not ours).
      pkg = null;
    }
    known.set(dir, pkg);
  }
  return pkg;
}

/** The folder this module is in (the bundle's, once built). */
const moduleDir = machineFact(() => dirname(fileURLToPath(import.meta.url)));

/** The folder holding Strata's package.json, found from this module's own location. */
export function findAppRoot(start: string = moduleDir()): string {
  for (let dir = start; ; dir = dirname(dir)) {
    // A package.json further down that is not ours (or is broken): keep walking up.
    if (packageJsonIn(dir)?.name === 'strata') return dir;
    if (dirname(dir) === dir) throw new Error(`Strata's package.json not found above ${start}`);
  }
}

export function readAppVersion(root: string): string {
  const version = packageJsonIn(root)?.version;
  if (typeof version !== 'string') throw new Error(`no version in ${join(root, 'package.json')}`);
  return version;
}

export function rendererDir(root: string): string {
  return join(root, 'out', 'renderer');
}

/** How to start the probe process: the bundled file, or the TypeScript source through tsx. */
export function probeCommand(root: string): { file: string; execArgv: string[] } {
  if (runningFromSource) return { file: join(root, 'native-bridge', 'probe.ts'), execArgv: ['--import', 'tsx'] };
  return { file: join(root, 'out', 'native-bridge', 'probe.cjs'), execArgv: [] };
}
