import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { LINKER_FACTS_FILE, linkerFactsPath, parseKeptLinkerFacts } from '../../main/discovery/linker-facts-file';

/**
 * main/discovery/linker-facts-file.ts: the dynamic linker's facts ($LIB, $PLATFORM, the default
 * folders) kept in Strata's cache folder between CLI commands, under the key of the linker that gave
 * them, so a discovery asks `ld.so --list-diagnostics` once per linker instead of once per command.
 */

const facts = { dstLib: 'lib/x86_64-linux-gnu', platform: 'x86_64', systemDirs: ['/lib/x86_64-linux-gnu', '/usr/lib'] };

test('the kept facts are used only under their key and in their shape', () => {
  const text = JSON.stringify({ key: 'k1', facts });
  assert.deepEqual(parseKeptLinkerFacts(text, 'k1'), facts);
  assert.equal(parseKeptLinkerFacts(text, 'k2'), null, 'another linker (or the same one upgraded): asked again');
  assert.equal(parseKeptLinkerFacts('{"key":"k1","facts":', 'k1'), null, 'a file cut short');
  assert.equal(parseKeptLinkerFacts('[]', 'k1'), null);
  assert.equal(parseKeptLinkerFacts(JSON.stringify({ key: 'k1', facts: { ...facts, systemDirs: '/lib' } }), 'k1'), null);
  assert.equal(parseKeptLinkerFacts(JSON.stringify({ key: 'k1', facts: { ...facts, dstLib: 3 } }), 'k1'), null);
  assert.deepEqual(parseKeptLinkerFacts(JSON.stringify({ key: 'k1', facts: { dstLib: null, platform: null, systemDirs: [] } }), 'k1'), {
    dstLib: null,
    platform: null,
    systemDirs: [],
  });
});

test("the file is in the user's cache folder: XDG_CACHE_HOME (absolute), else ~/.cache; nowhere without either", () => {
  assert.equal(linkerFactsPath({ XDG_CACHE_HOME: '/k', HOME: '/home/u' }), `/k/strata/${LINKER_FACTS_FILE}`);
  assert.equal(linkerFactsPath({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' }), `/home/u/.cache/strata/${LINKER_FACTS_FILE}`);
  assert.equal(linkerFactsPath({ XDG_CACHE_HOME: 'relative' }), null, 'no home of its own: nothing is kept');
  assert.equal(linkerFactsPath({}), null);
});

const manifest = (library: string) =>
  `{\n  "file_format_version": "1.1.0",\n  "layer": {\n    "name": "VK_LAYER_STRATA_facts",\n    "type": "GLOBAL",\n    "library_path": "${library}",\n    "api_version": "1.3.239",\n    "implementation_version": "1",\n    "description": "x"\n  }\n}\n`;

/** The default folders the lint's message about a bare name found nowhere says it searched. */
function searchedDefaultFolders(stdout: string): string {
  const [file] = JSON.parse(stdout) as { diagnostics: { code: string; message: string }[] }[];
  const d = file!.diagnostics.find((x) => x.code === 'library/not-on-search-path');
  assert.ok(d, `no library/not-on-search-path diagnostic in ${stdout}`);
  return /the default folders ([^.]*)\./.exec(d.message)![1]!;
}

test(
  'strata lint: the first command asks the linker and keeps its facts; the next ones read them; another key is asked again',
  { skip: process.platform !== 'linux' },
  () => {
    const home = makeTempHome();
    try {
      const dir = join(home.dir, 'manifests');
      mkdirSync(dir);
      const file = join(dir, 'facts.json');
      writeFileSync(file, manifest('libstrata_no_such_layer_anywhere.so'));
      const path = join(home.env['XDG_CACHE_HOME']!, 'strata', LINKER_FACTS_FILE);

      const first = runStrata(['lint', '--json', file], home.env);
      assert.equal(first.status, 0, first.stderr); // a warning
      const real = searchedDefaultFolders(first.stdout);
      const kept = JSON.parse(readFileSync(path, 'utf8')) as { key: string; facts: typeof facts };
      assert.match(kept.key, /ld-(linux|musl)[^\n]*\.so[.\d]*\n\d+:\d+:\d+:\d+$/, 'the key names the running linker and its file');
      assert.equal(kept.facts.systemDirs.join(', '), real, 'the facts kept are the ones the message used');

      // Facts planted under the linker's key are what the next command uses: it does not ask the linker.
      writeFileSync(path, JSON.stringify({ key: kept.key, facts: { ...kept.facts, systemDirs: ['/strata-planted-folder'] } }));
      assert.equal(searchedDefaultFolders(runStrata(['lint', '--json', file], home.env).stdout), '/strata-planted-folder');

      // Under another key (a linker upgraded since), the linker is asked again, and its answer replaces the file.
      writeFileSync(path, JSON.stringify({ key: `${kept.key}0`, facts: { ...kept.facts, systemDirs: ['/strata-planted-folder'] } }));
      assert.equal(searchedDefaultFolders(runStrata(['lint', '--json', file], home.env).stdout), real);
      assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), kept);

      // A damaged file is asked past and rewritten; the output is the real one.
      writeFileSync(path, '{"key":');
      assert.equal(searchedDefaultFolders(runStrata(['lint', '--json', file], home.env).stdout), real);
      assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), kept);
    } finally {
      home.cleanup();
    }
  },
);
