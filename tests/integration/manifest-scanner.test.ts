import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locationExists, scanManifests } from '../../main/discovery/manifest-scanner';
import type { SearchLocation } from '../../shared/loader/search-paths';

/**
 * main/discovery/manifest-scanner.ts on a real tree: what the loader lists in each location, each file
 * read once with why it could not be, a file reached twice, files named on the search path. What the
 * real loader lists is compared in discovery-vs-loader.test.ts.
 */
const root = mkdtempSync(join(tmpdir(), 'strata-manifest-scanner-'));
after(() => rmSync(root, { recursive: true, force: true }));

const folder = (path: string, origin: string): SearchLocation => ({ path, origin, source: 'environment', entry: 'folder', alsoFrom: [] });

test('a folder: *.json of any file type, each with its problem; a file reached twice by real path; readdir order', async () => {
  const a = join(root, 'a');
  const b = join(root, 'b');
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(join(a, 'good.json'), '{}');
  writeFileSync(join(a, 'upper.JSON'), '{}');
  writeFileSync(join(a, 'notes.txt'), '');
  symlinkSync(join(a, 'nowhere.json'), join(a, 'dangling.json'));
  symlinkSync(join(a, 'loop2.json'), join(a, 'loop1.json'));
  symlinkSync(join(a, 'loop1.json'), join(a, 'loop2.json'));
  mkdirSync(join(a, 'dir.json'));
  execFileSync('mkfifo', [join(a, 'fifo.json')]);
  symlinkSync(join(a, 'good.json'), join(b, 'again.json'));
  const missingFile: SearchLocation = { path: join(root, 'absent.json'), origin: 'VK_LAYER_PATH[2]', source: 'environment', entry: 'file', alsoFrom: [] };
  const scan = await scanManifests({
    implicit_layer: [],
    explicit_layer: [folder(a, 'VK_LAYER_PATH[0]'), folder(b, 'VK_LAYER_PATH[1]'), missingFile, folder(join(root, 'no-folder'), 'VK_LAYER_PATH[3]')],
    driver: [],
  });
  const files = scan.manifests.explicit_layer;
  const byName = new Map(files.map((f) => [f.path.slice(root.length + 1), f]));
  assert.deepEqual(
    [...byName.keys()].filter((n) => n.startsWith('a/')).sort(),
    ['a/dangling.json', 'a/dir.json', 'a/fifo.json', 'a/good.json', 'a/loop1.json', 'a/loop2.json'],
    'only names ending in ".json" (case-sensitive), of any type',
  );
  assert.equal(byName.get('a/good.json')?.text, '{}');
  assert.equal(byName.get('a/good.json')?.readdirOrder, true);
  assert.equal(byName.get('a/dangling.json')?.problem, 'dangling-symlink');
  assert.equal(byName.get('a/loop1.json')?.problem, 'symlink-loop');
  assert.equal(byName.get('a/dir.json')?.problem, 'not-a-file');
  assert.equal(byName.get('a/fifo.json')?.problem, 'not-regular');
  assert.equal(byName.get('b/again.json')?.duplicateOf, byName.get('a/good.json')?.order);
  assert.equal(byName.get('absent.json')?.problem, 'missing');
  assert.equal(byName.get('absent.json')?.readdirOrder, false);
  assert.deepEqual(
    files.map((f) => f.order),
    files.map((_, i) => i),
    'order is the position in the loader’s list',
  );
  assert.deepEqual(
    scan.locations.explicit_layer.map((l) => [l.origin, l.exists]),
    [
      ['VK_LAYER_PATH[0]', true],
      ['VK_LAYER_PATH[1]', true],
      ['VK_LAYER_PATH[2]', false],
      ['VK_LAYER_PATH[3]', false],
    ],
  );
});

test('listings: every name of each folder listed (not only *.json), for folders whose path reads the same to the kernel and to a lexical join', async () => {
  const c = join(root, 'c');
  mkdirSync(join(c, 'sub'), { recursive: true });
  writeFileSync(join(c, 'layer.json'), '{}');
  writeFileSync(join(c, 'libVkLayer_c.so'), '');
  symlinkSync(join(c, 'nowhere.so'), join(c, 'libdangling.so'));
  const scan = await scanManifests({
    implicit_layer: [folder(`${root}/c/sub/..`, 'VK_LAYER_PATH[1]')],
    explicit_layer: [folder(c, 'VK_LAYER_PATH[0]'), folder(join(root, 'no-such-folder'), 'VK_LAYER_PATH[2]')],
    driver: [],
  });
  assert.deepEqual([...(scan.listings.get(c) ?? [])].sort(), ['layer.json', 'libVkLayer_c.so', 'libdangling.so', 'sub']);
  // "c/sub/..": the kernel reads c, a lexical join of "c/sub/../x" too, but through a symlinked "sub" it would not: not kept.
  assert.deepEqual([...scan.listings.keys()], [c]);
  assert.equal(scan.manifests.implicit_layer.length, 1, 'the folder is still scanned');
});

test('locationExists: folders and files relative to the application’s working folder', async () => {
  mkdirSync(join(root, 'cwd', 'layers'), { recursive: true });
  assert.equal(await locationExists(folder('layers', 'VK_LAYER_PATH[0]'), join(root, 'cwd')), true);
  assert.equal(await locationExists(folder('layers', 'VK_LAYER_PATH[0]'), root), false);
});
