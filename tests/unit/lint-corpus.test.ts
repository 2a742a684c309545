import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest } from '../../shared/lint/manifest-lint';
import { BAD_CORPUS_DIR, expectedVerdict, readBadCorpus } from '../helpers/bad-corpus';
import { PROVEN_VERSIONS } from '../../shared/loader/loader-rules';

/**
 * tests/fixtures/manifests/bad/expected.json maps each malformed manifest to the role it is linted
 * as (where the loader would find it), what loader 1.3.239 does with it (`loads`, `rejects`,
 * `unusable`, `fails`, `crashes`: see tests/helpers/bad-corpus.ts; tests/integration/lint-vs-loader
 * checks each against the real loader), and exactly the codes it must produce (a sorted multiset).
 */
const dir = BAD_CORPUS_DIR;
const expected = readBadCorpus();

test('every fixture has an expectation and every expectation a fixture', () => {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'expected.json')
    .sort();
  assert.deepEqual(files, Object.keys(expected).sort());
  assert.ok(files.length >= 60, `only ${files.length} fixtures`);
});

for (const [file, exp] of Object.entries(expected)) {
  test(`bad/${file}: ${exp.codes.join(', ')}`, () => {
    const diagnostics = lintManifest(parseManifest(readFileSync(join(dir, file), 'utf8')), { role: exp.role });
    const codes = diagnostics.map((d) => String(d.code)).sort();
    assert.deepEqual(codes, exp.codes, JSON.stringify(diagnostics, null, 1));
    const hasError = diagnostics.some((d) => d.severity === DiagnosticSeverity.Error);
    assert.equal(hasError, exp.loader !== 'loads', `error-level diagnostic iff the loader does not simply load it (loader: ${exp.loader})`);
    // The same file linted for each loader of the matrix: the codes stay, the verdict follows the version.
    for (const version of PROVEN_VERSIONS) {
      const forVersion = lintManifest(parseManifest(readFileSync(join(dir, file), 'utf8')), { role: exp.role, loaderVersion: version });
      assert.deepEqual(forVersion.map((d) => String(d.code)).sort(), exp.codes, `loader ${version}`);
      const verdict = expectedVerdict(exp, version);
      assert.equal(
        forVersion.some((d) => d.severity === DiagnosticSeverity.Error),
        verdict !== 'loads',
        `loader ${version}: error-level diagnostic iff it does not simply load it (${verdict})`,
      );
      if (verdict === 'unusable' && exp.loader !== 'unusable')
        assert.match(forVersion.map((d) => d.message).join('\n'), /hangs or crashes/, `loader ${version}: says what enabling it does`);
    }
    for (const d of diagnostics) {
      assert.equal(d.source, 'strata');
      assert.match(String(d.message), /Fix: /, 'every message says how to fix it');
      assert.ok((d.data as { spec?: string }).spec, 'every diagnostic names its spec section');
    }
  });
}
