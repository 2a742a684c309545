import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentType, isHashedAsset, readStatic, resolveInside, StaticFileCache } from '../../main/hosts/serve/static-files';

/**
 * main/hosts/serve/static-files.ts: the renderer's files for both UI hosts. A URL path resolves inside the
 * root or not at all: `..`, its percent-encoded forms, encoded slashes and NUL cannot leave it, and
 * a malformed escape is refused rather than thrown. Types by extension, case-insensitive.
 */
test('resolveInside keeps every path inside the root', () => {
  const root = '/srv/renderer';
  assert.equal(resolveInside(root, '/index.html'), '/srv/renderer/index.html');
  assert.equal(resolveInside(`${root}/`, '/assets/app.js'), '/srv/renderer/assets/app.js');
  assert.equal(resolveInside(root, '/assets/../index.html'), '/srv/renderer/index.html');
  assert.equal(resolveInside(root, '/'), '/srv/renderer/');
  for (const escape of [
    '/../secret',
    '/%2e%2e/secret',
    '/assets/..%2f..%2fsecret',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/../renderer-other/x',
    '/index.html%00.js',
    '/%E0%A4%A',
  ]) {
    assert.equal(resolveInside(root, escape), null, escape);
  }
});

test('contentType: by extension, case-insensitive; anything else is octet-stream', () => {
  assert.equal(contentType('a/index.HTML'), 'text/html; charset=utf-8');
  assert.equal(contentType('x.mjs'), 'text/javascript; charset=utf-8');
  assert.equal(contentType('f.woff2'), 'font/woff2');
  assert.equal(contentType('noext'), 'application/octet-stream');
  assert.equal(contentType('evil.html.exe'), 'application/octet-stream');
});

test('readStatic: a file inside with its type; outside, missing or a folder is null', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-static-'));
  try {
    mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'renderer', 'assets', 'app.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    const root = join(dir, 'renderer');
    assert.deepEqual(await readStatic(root, '/assets/app.css'), { body: Buffer.from('body{}'), type: 'text/css; charset=utf-8' });
    assert.equal(await readStatic(root, '/../secret.txt'), null);
    assert.equal(await readStatic(root, '/%2e%2e/secret.txt'), null);
    assert.equal(await readStatic(root, '/assets/missing.js'), null);
    assert.equal(await readStatic(root, '/assets'), null);
    // A sibling folder whose name starts with the root's is still outside.
    mkdirSync(join(dir, 'renderer-evil'));
    writeFileSync(join(dir, 'renderer-evil', 'x.js'), 'x');
    assert.equal(await readStatic(root, '/../renderer-evil/x.js'), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('isHashedAsset: only a chunk under assets/ named by its content', () => {
  for (const p of ['/assets/index-1zoEK04V.js', '/assets/index-SRUZUBrd.css', '/assets/rolldown-runtime-WkwZ5CU-.js', '/assets/AboutView-6-ag9Z00.js'])
    assert.ok(isHashedAsset(p), p);
  for (const p of [
    '/index.html',
    '/strata-preload.js',
    '/assets/app.js',
    '/assets/index-1zoEK04V.js.map',
    '/assets/sub/x-12345678.js',
    '/favicon.svg',
    '/x-12345678.js',
  ])
    assert.ok(!isHashedAsset(p), p);
});

test('StaticFileCache: the same guard as readStatic; the page is read each time (a rebuild is served as built), a hashed chunk once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-static-'));
  try {
    mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
    const index = join(dir, 'renderer', 'index.html');
    const chunk = join(dir, 'renderer', 'assets', 'index-1zoEK04V.js');
    writeFileSync(index, '<p>one</p>');
    writeFileSync(chunk, 'one()');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    const files = new StaticFileCache(join(dir, 'renderer'));
    assert.deepEqual(files.read('/index.html'), { body: Buffer.from('<p>one</p>'), type: 'text/html; charset=utf-8' });
    assert.deepEqual(files.read('/assets/index-1zoEK04V.js'), { body: Buffer.from('one()'), type: 'text/javascript; charset=utf-8' });
    writeFileSync(index, '<p>two</p>');
    writeFileSync(chunk, 'two()');
    assert.equal(files.read('/index.html')?.body.toString(), '<p>two</p>', 'the page as it is now');
    assert.equal(files.read('/assets/index-1zoEK04V.js')?.body.toString(), 'one()', 'a chunk is its name: kept');
    rmSync(chunk);
    assert.equal(files.read('/assets/index-1zoEK04V.js'), null, 'a chunk removed since is gone');
    assert.equal(files.read('/../secret.txt'), null);
    assert.equal(files.read('/%2e%2e/secret.txt'), null);
    assert.equal(files.read('/assets/missing.js'), null);
    assert.equal(files.read('/assets'), null);
    // A file the host names itself (the preload) is read by path.
    assert.equal(files.readFile(join(dir, 'secret.txt'))?.body.toString(), 'outside');
    assert.equal(files.readFile(join(dir, 'missing.js')), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
