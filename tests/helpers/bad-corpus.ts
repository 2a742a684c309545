import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestRole } from '../../shared/lint/manifest-lint';
import { APP_ROOT } from './strata-cli';
import { compareLoaderVersions } from '../../shared/loader/loader-rules';

/**
 * What Debian's loader 1.3.239 does with a corpus file, as tests/integration/lint-vs-loader.test.ts
 * observes it (the file is put alone where its role says, library paths swapped for real libraries):
 * - `loads`: every layer the file defines is listed under its name and an instance with it enabled is
 *   created (a file that defines no layer: enumeration succeeds); a driver yields a physical device.
 * - `rejects`: enumeration succeeds but a layer the file defines is not listed; a driver yields none.
 * - `unusable`: listed, but with an empty name, or enabling it fails, crashes or hangs.
 * - `fails`: vkEnumerateInstanceLayerProperties / vkCreateInstance return VK_ERROR_OUT_OF_HOST_MEMORY,
 *   for every application, whatever it asks for.
 * - `crashes`: the process dies by a signal while the loader reads the manifest.
 * The lint must report an error-level diagnostic for every verdict but `loads`.
 */
export type LoaderVerdict = 'loads' | 'rejects' | 'unusable' | 'fails' | 'crashes';

export interface CorpusExpectation {
  role: ManifestRole;
  /** What loader 1.3.239 does. */
  loader: LoaderVerdict;
  /** Where a newer loader does something else: from that version on (oldest first), this verdict. */
  loaderSince?: Record<string, LoaderVerdict>;
  /** Exactly the codes the lint must produce, sorted (a multiset). */
  codes: string[];
}

export const BAD_CORPUS_DIR = join(APP_ROOT, 'tests', 'fixtures', 'manifests', 'bad');

export function readBadCorpus(): Record<string, CorpusExpectation> {
  return JSON.parse(readFileSync(join(BAD_CORPUS_DIR, 'expected.json'), 'utf8')) as Record<string, CorpusExpectation>;
}

/** The verdict `e` expects from loader `version`: the last `loaderSince` entry at or below it, else `loader`. */
export function expectedVerdict(e: CorpusExpectation, version: string): LoaderVerdict {
  let verdict = e.loader;
  for (const [since, v] of Object.entries(e.loaderSince ?? {}).sort(([a], [b]) => compareLoaderVersions(a, b)))
    if (compareLoaderVersions(version, since) >= 0) verdict = v;
  return verdict;
}
