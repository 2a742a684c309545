import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest } from '../../shared/lint/manifest-lint';
import { lintFiles } from '../../main/discovery/lint-files-service';
import { BAD_CORPUS_DIR, expectedVerdict, materializeLibrary, readBadCorpus, type CorpusExpectation } from '../helpers/bad-corpus';
import { PROVEN_VERSIONS } from '../../shared/loader/loader-rules';

/**
 * tests/fixtures/manifests/bad/expected.json maps each malformed manifest to the role it is linted
 * as (where the loader would find it), what loader 1.3.239 does with it (`loads`, `rejects`,
 * `unusable`, `fails`, `crashes`: see tests/helpers/bad-corpus.ts; tests/integration/lint-vs-loader
 * checks each against the real loader), and exactly the codes it must produce (a sorted multiset).
 */
const dir = BAD_CORPUS_DIR;
const expected = readBadCorpus();
const work = mkdtempSync(join(tmpdir(), 'strata-lint-corpus-'));
after(() => rmSync(work, { recursive: true, force: true }));

const ROLE_FOLDER = { 'explicit-layer': 'explicit_layer.d', 'implicit-layer': 'implicit_layer.d', driver: 'icd.d', unknown: 'other' } as const;

/**
 * A fixture's diagnostics for loader `version`: its text alone (lintManifest), or, for a fixture about
 * its library, through lint.files with the library made next to it in a folder named for its role.
 */
async function lintFixture(file: string, exp: CorpusExpectation, version?: string): Promise<Diagnostic[]> {
  const text = readFileSync(join(dir, file), 'utf8');
  if (!exp.library) return lintManifest(parseManifest(text), { role: exp.role, ...(version ? { loaderVersion: version } : {}) });
  const folder = join(work, file, ROLE_FOLDER[exp.role]);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), text);
  materializeLibrary(exp, text, folder);
  const [result] = await lintFiles({ paths: [join(folder, file)] }, work, version ?? null);
  return result!.diagnostics as Diagnostic[];
}

const SEVERITY: Record<NonNullable<CorpusExpectation['lintSeverity']>, DiagnosticSeverity> = {
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

/** Error iff the loader does not simply load it, except where expected.json says why the lint stays lower (lintSeverity). */
function assertSeverity(diagnostics: Diagnostic[], exp: CorpusExpectation, verdict: string, where: string) {
  const hasError = diagnostics.some((d) => d.severity === DiagnosticSeverity.Error);
  if (exp.lintSeverity) {
    assert.equal(hasError, false, `${where}: no error (${exp.lintSeverity} by design)`);
    assert.equal(Math.min(...diagnostics.map((d) => d.severity ?? DiagnosticSeverity.Error)), SEVERITY[exp.lintSeverity], `${where}: ${exp.lintSeverity}`);
    assert.notEqual(verdict, 'loads', `${where}: lintSeverity is for files this process's loader does not load`);
  } else assert.equal(hasError, verdict !== 'loads', `${where}: error-level diagnostic iff it does not simply load it (${verdict})`);
}

test('every fixture has an expectation and every expectation a fixture', () => {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'expected.json')
    .sort();
  assert.deepEqual(files, Object.keys(expected).sort());
  assert.ok(files.length >= 60, `only ${files.length} fixtures`);
});

for (const [file, exp] of Object.entries(expected)) {
  test(`bad/${file}: ${exp.codes.join(', ')}`, async () => {
    const diagnostics = await lintFixture(file, exp);
    const codes = diagnostics.map((d) => String(d.code)).sort();
    assert.deepEqual(codes, exp.codes, JSON.stringify(diagnostics, null, 1));
    assertSeverity(diagnostics, exp, exp.loader, 'loader 1.3.239');
    // The same file linted for each loader of the matrix: the codes stay, the verdict follows the version.
    for (const version of PROVEN_VERSIONS) {
      const forVersion = await lintFixture(file, exp, version);
      assert.deepEqual(forVersion.map((d) => String(d.code)).sort(), exp.codes, `loader ${version}`);
      const verdict = expectedVerdict(exp, version);
      assertSeverity(forVersion, exp, verdict, `loader ${version}`);
      if (verdict === 'unusable' && exp.loader !== 'unusable')
        assert.match(forVersion.map((d) => d.message).join('\n'), /hangs or crashes/, `loader ${version}: says what enabling it does`);
    }
    for (const d of diagnostics) {
      assert.equal(d.source, 'strata');
      assert.match(String(d.message), /Fix: /, 'every message says how to fix it');
      assert.ok((d.data as { spec?: string }).spec, 'every diagnostic names its spec section');
      if (exp.library) {
        // Exactly the "library_path" value's token: the quoted string (the fixtures are one value per line).
        const line = readFileSync(join(dir, file), 'utf8').split('\n')[d.range.start.line]!;
        assert.equal(d.range.start.line, d.range.end.line);
        assert.match(line.slice(d.range.start.character, d.range.end.character), /^"[^"]*\.so"$/, `range of ${d.code}`);
        assert.match(line.slice(0, d.range.start.character), /"library_path": $/);
      }
    }
  });
}
