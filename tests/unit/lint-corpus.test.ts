import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, type ManifestRole } from '../../shared/lint/manifest-lint';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * tests/fixtures/manifests/bad/expected.json maps each malformed manifest to the role it is linted
 * as (where the loader would find it), what loader 1.3.239 does with it ("rejects": skips the file or
 * layer, or fails; "loads"), and exactly the codes it must produce (a sorted multiset).
 */
interface Expectation {
  role: ManifestRole;
  loader: 'rejects' | 'loads';
  codes: string[];
}

const dir = join(APP_ROOT, 'tests', 'fixtures', 'manifests', 'bad');
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, Expectation>;

test('every fixture has an expectation and every expectation a fixture', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'expected.json').sort();
  assert.deepEqual(files, Object.keys(expected).sort());
  assert.ok(files.length >= 30, `only ${files.length} fixtures`);
});

for (const [file, exp] of Object.entries(expected)) {
  test(`bad/${file}: ${exp.codes.join(', ')}`, () => {
    const diagnostics = lintManifest(parseManifest(readFileSync(join(dir, file), 'utf8')), { role: exp.role });
    const codes = diagnostics.map((d) => String(d.code)).sort();
    assert.deepEqual(codes, exp.codes, JSON.stringify(diagnostics, null, 1));
    const hasError = diagnostics.some((d) => d.severity === DiagnosticSeverity.Error);
    assert.equal(hasError, exp.loader === 'rejects', `error-level diagnostic iff the loader rejects it`);
    for (const d of diagnostics) {
      assert.equal(d.source, 'strata');
      assert.match(String(d.message), /Fix: /, 'every message says how to fix it');
      assert.ok((d.data as { spec?: string }).spec, 'every diagnostic names its spec section');
    }
  });
}
