import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { writeLaunchFile } from '../../main/hosts/serve/launch-file';

/**
 * main/hosts/serve/launch-file.ts: the page `strata serve --open` hands the browser. Only this user can
 * read it (0600 in a fresh 0700 folder), it forwards to the target three ways (meta refresh, script,
 * link) with the target escaped for each, and remove() leaves nothing behind.
 */
test('the launch file is private, forwards to the target, and escapes it', () => {
  const target = 'http://127.0.0.1:1234/#code=abc"<script>&x';
  const file = writeLaunchFile(target);
  try {
    const path = fileURLToPath(file.url);
    assert.equal(path, file.path);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    const html = readFileSync(path, 'utf8');
    assert.ok(!html.includes('"<script>'), 'the target cannot break out of the attribute or the script');
    assert.match(html, /content="0; url=http:\/\/127\.0\.0\.1:1234\/#code=abc&#34;&#60;script&#62;&#38;x"/);
    assert.match(html, /<a href="http:\/\/127\.0\.0\.1:1234\/#code=abc&#34;&#60;script&#62;&#38;x">/);
  } finally {
    file.remove();
  }
  assert.ok(!existsSync(file.path));
  assert.ok(!existsSync(dirname(file.path)), 'the folder goes too');
});

test('the script forwards to exactly the target, even one that holds </script>', () => {
  const target = "http://127.0.0.1:9/#code=x</script><script>alert('no')</script>";
  const dir = mkdtempSync(join(tmpdir(), 'strata-launch-file-test-'));
  try {
    const file = writeLaunchFile(target, dir);
    assert.ok(file.path.startsWith(`${dir}/strata-open-`));
    const html = readFileSync(file.path, 'utf8');
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 1, 'the target closed no script element');
    let replaced: string | null = null;
    runInNewContext(scripts[0]!, { location: { replace: (u: string) => (replaced = u) } });
    assert.equal(replaced, target);
    // A second file in the same folder is another folder: one launch never overwrites another's.
    const other = writeLaunchFile(target, dir);
    assert.notEqual(dirname(other.path), dirname(file.path));
    file.remove();
    assert.deepEqual(readdirSync(dir), [other.path.slice(dir.length + 1).split('/')[0]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
