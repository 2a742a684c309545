import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest } from '../../shared/lint/manifest-lint';
import type { LibraryLookup } from '../../shared/lint/library-lint';
import { fileSignature, libraryFilesUnchanged, libraryLookup, readLibraryFile } from '../../main/discovery/library-check';

/**
 * main/discovery/library-check.ts, the I/O side of the library_path lint, on real files: a FIFO, a
 * folder, a link loop, a gcc-built library, a bare name through LD_LIBRARY_PATH. The pure rules are in
 * library-lint.test.ts; what the real loader does with each: tests/integration/lint-vs-loader.test.ts.
 */
const work = mkdtempSync(join(tmpdir(), 'strata-library-check-'));
after(() => rmSync(work, { recursive: true, force: true }));

const layerText = (library: string) =>
  `{\n  "file_format_version": "1.2.1",\n  "layer": {\n    "name": "VK_LAYER_STRATA_lib",\n    "type": "GLOBAL",\n    "library_path": ${JSON.stringify(library)},\n    "api_version": "1.3.239",\n    "implementation_version": "1",\n    "description": "x"\n  }\n}\n`;
const lint = (text: string, path: string, lookup: LibraryLookup | null): Diagnostic[] =>
  lintManifest(parseManifest(text), { role: 'explicit-layer', path, libraries: lookup });

test('the I/O side on real files: a FIFO is refused without blocking, a folder, a link loop, an absent file, a real .so', () => {
  const fifo = join(work, 'libfifo.so');
  execFileSync('mkfifo', [fifo]);
  const x64 = { os: 'linux' as const, arch: 'x64' };
  assert.deepEqual(readLibraryFile(fifo, x64), { state: 'not-a-file', what: 'a FIFO (named pipe)' });
  mkdirSync(join(work, 'libdir.so'));
  assert.deepEqual(readLibraryFile(join(work, 'libdir.so'), x64), { state: 'not-a-file', what: 'a folder' });
  symlinkSync(join(work, 'loop-b.so'), join(work, 'loop-a.so'));
  symlinkSync(join(work, 'loop-a.so'), join(work, 'loop-b.so'));
  assert.equal(readLibraryFile(join(work, 'loop-a.so'), x64).state, 'missing', 'a link loop: nothing the loader can open');
  assert.deepEqual(readLibraryFile(join(work, 'absent.so'), x64), { state: 'missing' });
  assert.deepEqual(readLibraryFile('/dev/zero', x64), { state: 'not-a-file', what: 'a character device' });
  writeFileSync(join(work, 'lib.c'), 'int f(void) { return 1; }\n');
  execFileSync('gcc', ['-shared', '-fPIC', '-o', join(work, 'libreal.so'), join(work, 'lib.c')]);
  const real = readLibraryFile(join(work, 'libreal.so'), { os: 'linux', arch: process.arch });
  assert.equal(real.state === 'read' && real.header.verdict, 'ok');
});

test(
  'a bare name through LD_LIBRARY_PATH as the lint environment sets it; a relative path against the manifest folder',
  { skip: process.platform !== 'linux' },
  () => {
    const libs = join(work, 'ld-path');
    mkdirSync(libs, { recursive: true });
    execFileSync('gcc', ['-shared', '-fPIC', '-o', join(libs, 'libVkLayer_strata_ldpath.so'), join(work, 'lib.c')].filter(Boolean), { stdio: 'pipe' });
    const manifest = join(work, 'm', 'explicit_layer.d', 'a.json');
    mkdirSync(join(work, 'm', 'explicit_layer.d'), { recursive: true });
    const withPath = libraryLookup({ LD_LIBRARY_PATH: libs }, work)!;
    assert.deepEqual(lint(layerText('libVkLayer_strata_ldpath.so'), manifest, withPath), []);
    // As a setuid/setgid application (strata lint of an --elevated view): ld.so ignores LD_LIBRARY_PATH.
    const elevated = libraryLookup({ LD_LIBRARY_PATH: libs }, work, 'linux', true)!;
    const [ignored] = lint(layerText('libVkLayer_strata_ldpath.so'), manifest, elevated);
    assert.equal(ignored?.code, 'library/not-on-search-path');
    assert.match(String(ignored?.message), /not LD_LIBRARY_PATH \(a setuid\/setgid application's linker ignores it\)/);
    const without = libraryLookup({}, work)!;
    assert.deepEqual(
      lint(layerText('libVkLayer_strata_ldpath.so'), manifest, without).map((d) => d.code),
      ['library/not-on-search-path'],
    );
    copyFileSync(join(libs, 'libVkLayer_strata_ldpath.so'), join(work, 'm', 'explicit_layer.d', 'librel.so'));
    assert.deepEqual(lint(layerText('./librel.so'), manifest, without), [], 'relative to the manifest, not to the working folder');
    assert.deepEqual(
      lint(layerText('../librel.so'), manifest, without).map((d) => d.code),
      ['library/not-found'],
    );
  },
);

test(
  "a lookup given the scan's listings: a name its folder did not list is missing without a look (even once it appears); a listed one or another folder's is looked at",
  { skip: process.platform !== 'linux' },
  () => {
    const folder = join(work, 'listed');
    mkdirSync(folder, { recursive: true });
    symlinkSync(join(folder, 'nowhere.so'), join(folder, 'libdangling.so'));
    copyFileSync(join(work, 'libreal.so'), join(folder, 'libreal.so'));
    const manifest = join(folder, 'a.json');
    const seen = new Map<string, string>();
    const lookup = libraryLookup({}, work, 'linux', false, { seen, listings: new Map([[folder, new Set(['a.json', 'libdangling.so', 'libreal.so'])]]) })!;
    const file = (library: string) => lookup(manifest, library)?.file;
    // Written after the listing: the listing decides (the scan's moment), so no syscall asked.
    writeFileSync(join(folder, 'liblate.so'), '');
    assert.deepEqual(file('./liblate.so'), { state: 'missing' });
    assert.equal(seen.get(join(folder, 'liblate.so')), '-', "recorded as fileSignature's absent");
    assert.equal(file('./libdangling.so')?.state, 'missing', 'listed, looked at: a dangling link');
    const real = file('./libreal.so');
    assert.equal(real?.state === 'read' && real.header.verdict, 'ok', 'listed, read');
    // Another folder (not listed) is looked at: the ELF built earlier in `work`.
    assert.equal(file('../libreal.so')?.state, 'read');
    // Without listings, the late file is found.
    assert.equal(libraryLookup({}, work)!(manifest, './liblate.so')?.file?.state, 'read');
  },
);

test('a lookup given `seen` records each path it read with its stat signature; libraryFilesUnchanged turns false when one appears, changes or goes', () => {
  const dir = join(work, 'seen');
  mkdirSync(dir);
  const manifest = join(dir, 'layer.json');
  const present = join(dir, 'libpresent.so');
  writeFileSync(present, 'not ELF');
  const seen = new Map<string, string>();
  const lookup = libraryLookup({}, dir, 'linux', false, { seen })!;
  lookup(manifest, './libpresent.so');
  lookup(manifest, './libabsent.so');
  lookup(manifest, './libpresent.so');
  assert.deepEqual([...seen.keys()].sort(), [join(dir, 'libabsent.so'), present]);
  assert.equal(seen.get(join(dir, 'libabsent.so')), '-');
  assert.equal(seen.get(present), fileSignature(present));
  assert.equal(libraryFilesUnchanged(seen), true);

  writeFileSync(join(dir, 'libabsent.so'), 'x');
  assert.equal(libraryFilesUnchanged(seen), false, 'an absent library appeared');
  rmSync(join(dir, 'libabsent.so'));
  assert.equal(libraryFilesUnchanged(seen), true);
  writeFileSync(present, 'not ELF, longer');
  assert.equal(libraryFilesUnchanged(seen), false, 'a library written');
  seen.set(present, fileSignature(present));
  rmSync(present);
  assert.equal(libraryFilesUnchanged(seen), false, 'a library removed');
  assert.equal(libraryLookup({}, dir, 'linux') !== null, true, 'without `seen` nothing is recorded (no stat more)');
});
