import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, type ManifestRole } from '../../shared/lint/manifest-lint';
import type { LibraryCheck, LibraryLookup } from '../../shared/lint/library-lint';

/**
 * library_path lint: the pure rules (shared/lint/library-lint.ts) on the facts main hands them (the
 * I/O side, main/discovery/library-check.ts, is in library-check.test.ts). What the real loader does
 * with each is proven by
 * tests/integration/lint-vs-loader.test.ts (the library fixtures of the bad corpus).
 */

const layerText = (library: string, extra = '') =>
  `{\n  "file_format_version": "1.2.1",\n  "layer": {\n    "name": "VK_LAYER_STRATA_lib",\n    "type": "GLOBAL",\n    "library_path": ${JSON.stringify(library)},\n    "api_version": "1.3.239",\n    "implementation_version": "1",\n    "description": "x"${extra}\n  }\n}\n`;
const driverText = (library: string) =>
  `{\n  "file_format_version": "1.0.1",\n  "ICD": {\n    "library_path": ${JSON.stringify(library)},\n    "api_version": "1.3.239"\n  }\n}\n`;

function lint(text: string, path: string, lookup: LibraryLookup | null, role: ManifestRole = 'explicit-layer'): Diagnostic[] {
  return lintManifest(parseManifest(text), { role, path, libraries: lookup });
}

const fake =
  (check: Partial<LibraryCheck> & Pick<LibraryCheck, 'resolution' | 'file'>): LibraryLookup =>
  () => ({ os: 'linux', arch: 'x64', cacheRead: true, ldLibraryPath: undefined, defaultFolders: ['/lib', '/usr/lib'], ...check });
const at = (path: string, via: 'absolute' | 'manifest-relative' = 'absolute') => ({ libraryPath: path, path, via, outcome: 'ok' as const, tried: [] });

test('the range is the "library_path" value; without a lookup (or a path) nothing about the library is said', () => {
  const text = layerText('/nowhere/libVkLayer_x.so');
  const lookup = fake({ resolution: at('/nowhere/libVkLayer_x.so'), file: { state: 'missing' } });
  const [d, ...rest] = lint(text, '/m/explicit_layer.d/x.json', lookup);
  assert.equal(rest.length, 0);
  assert.equal(d!.code, 'library/not-found');
  assert.equal(d!.severity, DiagnosticSeverity.Error);
  const line = text.split('\n')[d!.range.start.line]!;
  assert.equal(line.slice(d!.range.start.character, d!.range.end.character), '"/nowhere/libVkLayer_x.so"');
  assert.deepEqual(lint(text, '/m/x.json', null), []);
  assert.deepEqual(lintManifest(parseManifest(text), { role: 'explicit-layer', libraries: lookup }), [], 'no path: no library check');
});

test('what the loader does with the layer or driver is said per role, and every message has a fix', () => {
  const lookup = fake({ resolution: at('/x/lib.so'), file: { state: 'missing' } });
  const explicit = lint(layerText('/x/lib.so'), '/m/a.json', lookup, 'explicit-layer')[0]!;
  assert.match(String(explicit.message), /VK_ERROR_LAYER_NOT_PRESENT/);
  const implicit = lint(layerText('/x/lib.so', ',\n    "disable_environment": { "D": "1" }'), '/m/a.json', lookup, 'implicit-layer')[0]!;
  assert.match(String(implicit.message), /leaves it out of every instance/);
  const driver = lint(driverText('/x/lib.so'), '/m/icd.json', lookup, 'driver')[0]!;
  assert.equal(driver.code, 'library/not-found');
  assert.match(String(driver.message), /skips this driver/);
  for (const d of [explicit, implicit, driver]) assert.match(String(d.message), / Fix: /);
});

test('meta-layers and a library_arch for the other word size: the loader opens nothing, Strata says nothing about the library', () => {
  let asked = 0;
  const lookup: LibraryLookup = (m, l) => (asked++, fake({ resolution: at(l), file: { state: 'missing' } })(m, l));
  const meta = `{"file_format_version": "1.1.1", "layer": {"name": "VK_LAYER_m", "type": "GLOBAL", "library_path": "/x/lib.so", "component_layers": ["VK_LAYER_a"], "api_version": "1.3.239", "implementation_version": "1", "description": "m"}}`;
  assert.deepEqual(
    lint(meta, '/m/meta.json', lookup).map((d) => d.code),
    ['layer/meta-with-library-path'],
  );
  assert.equal(asked, 0, 'a meta-layer is not looked up');
  assert.deepEqual(lint(layerText('/x/lib.so', ',\n    "library_arch": "32"'), '/m/a.json', lookup), []);
  assert.deepEqual(
    lint(layerText('/x/lib.so', ',\n    "library_arch": "64"'), '/m/a.json', lookup).map((d) => d.code),
    ['library/not-found'],
  );
});

test('wrong class: information for a multilib library, an error when library_arch claims this word size; wrong machine: an error', () => {
  const header = {
    verdict: 'wrong-class' as const,
    format: 'elf' as const,
    bits: 32 as const,
    machine: 3,
    description: '32-bit x86 (i386)',
    want: '64-bit x86-64',
  };
  const lookup = fake({ resolution: at('/usr/lib32/libx.so'), file: { state: 'read', size: 9000, header } });
  const multilib = lint(layerText('/usr/lib32/libx.so'), '/m/a.json', lookup);
  assert.deepEqual(
    multilib.map((d) => [d.code, d.severity]),
    [['library/wrong-class', DiagnosticSeverity.Information]],
  );
  assert.match(String(multilib[0]!.message), /"library_arch": "32"/);
  const claims = lint(layerText('/usr/lib32/libx.so', ',\n    "library_arch": "64"'), '/m/a.json', lookup);
  assert.deepEqual(
    claims.map((d) => [d.code, d.severity]),
    [['library/wrong-class', DiagnosticSeverity.Error]],
  );
  const arm = fake({
    resolution: at('/x/l.so'),
    file: { state: 'read', size: 9000, header: { ...header, verdict: 'wrong-machine', bits: 64, machine: 183, description: '64-bit AArch64' } },
  });
  assert.deepEqual(
    lint(layerText('/x/l.so'), '/m/a.json', arm).map((d) => [d.code, d.severity]),
    [['library/wrong-machine', DiagnosticSeverity.Error]],
  );
  const unreadable = fake({ resolution: at('/x/l.so'), file: { state: 'unreadable', reason: 'EACCES: permission denied' } });
  const [denied] = lint(layerText('/x/l.so'), '/m/a.json', unreadable);
  assert.deepEqual([denied?.code, denied?.severity], ['library/unreadable', DiagnosticSeverity.Error]);
  assert.match(String(denied?.message), /cannot be read \(EACCES: permission denied\).* Fix: make the file readable/);
  const unknown = fake({ resolution: at('/x/l.so'), file: { state: 'read', size: 9000, header: { verdict: 'unknown', why: 'x' } } });
  assert.deepEqual(lint(layerText('/x/l.so'), '/m/a.json', unknown), []);
});

test('a bare name found nowhere: a warning naming the folders searched; information when ld.so.cache could not be read', () => {
  const resolution = {
    libraryPath: 'libnowhere.so',
    path: null,
    via: 'not-found' as const,
    outcome: 'missing' as const,
    tried: [
      { path: '/opt/a/libnowhere.so', via: 'LD_LIBRARY_PATH' as const, outcome: 'missing' as const },
      { path: '/opt/b/libnowhere.so', via: 'LD_LIBRARY_PATH' as const, outcome: 'wrong-arch' as const },
      { path: '/lib/libnowhere.so', via: 'default-folder' as const, outcome: 'missing' as const },
    ],
  };
  const [d] = lint(layerText('libnowhere.so'), '/m/a.json', fake({ resolution, file: null, ldLibraryPath: '/opt/a:/opt/b' }));
  assert.equal(d!.code, 'library/not-on-search-path');
  assert.equal(d!.severity, DiagnosticSeverity.Warning);
  assert.match(
    String(d!.message),
    /LD_LIBRARY_PATH \(\/opt\/a, \/opt\/b\), the ld\.so cache, the default folders \/lib, \/usr\/lib; skipped as unloadable here: \/opt\/b\/libnowhere\.so \(another architecture\)/,
  );
  const [unsure] = lint(layerText('libnowhere.so'), '/m/a.json', fake({ resolution, file: null, cacheRead: false }));
  assert.equal(unsure!.severity, DiagnosticSeverity.Information);
  assert.match(String(unsure!.message), /could not read/);
});

test('one diagnostic per library of a file: 1,000 layers naming one missing library give one, looked up once', () => {
  const layers = Array.from({ length: 1000 }, (_, i) => ({
    name: `VK_LAYER_STRATA_many_${i}`,
    type: 'GLOBAL',
    library_path: i === 999 ? '/nowhere/other.so' : '/nowhere/same.so',
    api_version: '1.3.239',
    implementation_version: '1',
    description: 'x',
  }));
  const text = JSON.stringify({ file_format_version: '1.0.1', layers }, null, 2);
  let lookups = 0;
  const lookup: LibraryLookup = (_manifest, library) => {
    lookups++;
    return fake({ resolution: at(library), file: { state: 'missing' } })('', library);
  };
  const found = lint(text, '/m/explicit_layer.d/many.json', lookup).filter((d) => d.code === 'library/not-found');
  assert.equal(found.length, 2, 'same.so once, other.so once');
  assert.equal(lookups, 2);
});
