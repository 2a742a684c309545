import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOADER_RULES, PROVEN_LOADERS } from '../../shared/loader/loader-rules';
import { APP_ROOT } from '../helpers/strata-cli';

const dots = (v: string) => v.replaceAll('.', '\\.');

// docs/loaders.md is the rules table for people: every row, with its version, and every loader of the matrix.
// Table cells are padded (Prettier aligns the columns).
test('docs/loaders.md lists every rule of the table with its version, and every proven loader', () => {
  const doc = readFileSync(join(APP_ROOT, 'docs', 'loaders.md'), 'utf8');
  for (const r of LOADER_RULES) {
    const row = new RegExp(`\\| \`${r.id}\` +\\| ${dots(r.since)} +\\| ${r.modeled ? 'yes' : 'no'} +\\|`);
    assert.match(doc, row, `${r.id} (${r.since}) is missing or stale`);
  }
  for (const l of PROVEN_LOADERS) assert.match(doc, new RegExp(`\\| ${dots(l.version)} +\\| ${l.who} +\\|`), l.version);
});
