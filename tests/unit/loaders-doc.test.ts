import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOADER_RULES, PROVEN_LOADERS } from '../../shared/loader/loader-rules';
import { APP_ROOT } from '../helpers/strata-cli';

// docs/loaders.md is the rules table for people: every row, with its version, and every loader of the matrix.
test('docs/loaders.md lists every rule of the table with its version, and every proven loader', () => {
  const doc = readFileSync(join(APP_ROOT, 'docs', 'loaders.md'), 'utf8');
  for (const r of LOADER_RULES)
    assert.match(
      doc,
      new RegExp(`\\| \`${r.id}\` \\| ${r.since.replaceAll('.', '\\.')} \\| ${r.modeled ? 'yes' : 'no'} \\|`),
      `${r.id} (${r.since}) is missing or stale`,
    );
  for (const l of PROVEN_LOADERS) assert.ok(doc.includes(`| ${l.version} | ${l.who} |`), l.version);
});
