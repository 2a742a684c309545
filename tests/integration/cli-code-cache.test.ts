/**
 * The CLI's V8 code cache (bin/code-cache.cjs, issue #19): bin/strata runs out/main/cli.cjs with a
 * cache per command in $XDG_CACHE_HOME/strata/code-cache, else the build's out/main/cli.cjs.cache.
 * What must hold: the output never depends on a cache; a cache is written privately and atomically
 * and used on the next run; a damaged, foreign-writable or stale cache is never handed to V8 (a
 * damaged payload behind a good header aborts Node 20's V8) and is replaced; a cache that cannot be
 * written costs nothing but speed. Speed itself is measured in bench/, never here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_ROOT, runStrata } from '../helpers/strata-cli';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

const CODE_CACHE_MODULE = pathToFileURL(join(APP_ROOT, 'bin', 'code-cache.cjs')).href;

function cacheDir(home: TempHome): string {
  return join(home.env['XDG_CACHE_HOME']!, 'strata', 'code-cache');
}

/** The one cache file of `key` ("info"), with its inode (a rewrite renames a new file into place). */
function cacheFile(home: TempHome, key: string): { path: string; ino: number; mode: number; bytes: Buffer } {
  const names = readdirSync(cacheDir(home)).filter((f) => f.startsWith(`${key}.`) && f.endsWith('.bin'));
  assert.equal(names.length, 1, `one cache for ${key}: ${names.join(', ')}`);
  const path = join(cacheDir(home), names[0]!);
  const st = statSync(path);
  return { path, ino: st.ino, mode: st.mode & 0o777, bytes: readFileSync(path) };
}

/** `strata info --json` in `home`: exit 0, nothing on stderr, and the answer. */
function info(home: TempHome, env: NodeJS.ProcessEnv = home.env): string {
  const r = runStrata(['info', '--json'], env);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

test('a command writes its cache (0700 folder, 0600 file) after its first run and uses it unchanged after', () => {
  const home = makeTempHome();
  try {
    const first = info(home);
    const written = cacheFile(home, 'info');
    assert.equal(written.mode, 0o600);
    assert.equal(statSync(cacheDir(home)).mode & 0o777, 0o700);
    assert.match(written.path, new RegExp(`info\\.node-${process.version.slice(1).replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{20}\\.bin$`));
    assert.equal(info(home), first);
    // Used, not rewritten: the same file.
    assert.equal(cacheFile(home, 'info').ino, written.ino);
    // No temporary file is left behind.
    assert.deepEqual(
      readdirSync(cacheDir(home)).filter((f) => !f.endsWith('.bin')),
      [],
    );
  } finally {
    home.cleanup();
  }
});

test('a damaged, truncated or foreign-writable cache is not used: same output, and it is replaced', () => {
  const home = makeTempHome();
  try {
    const expected = info(home);
    const good = cacheFile(home, 'info');
    const damage: [string, (b: Buffer) => Buffer][] = [
      // The payload changed behind an intact V8 header: handed to V8, this aborts the process.
      [
        'payload bytes flipped',
        (b) => {
          const c = Buffer.from(b);
          for (let i = 200; i < c.length; i += 997) c[i]! ^= 0x5a;
          return c;
        },
      ],
      ['truncated', (b) => b.subarray(0, b.length >> 1)],
      ['garbage', () => Buffer.alloc(4096, 0x41)],
      ['empty', () => Buffer.alloc(0)],
    ];
    for (const [what, change] of damage) {
      writeFileSync(good.path, change(good.bytes));
      // The new file is made before the damaged one goes: its inode cannot be the damaged one's.
      const damaged = statSync(good.path).ino;
      assert.equal(info(home), expected, what);
      const now = cacheFile(home, 'info');
      assert.notEqual(now.ino, damaged, `${what}: the cache was not rewritten`);
      // The new one is whole: the next run uses it as it is.
      assert.equal(info(home), expected, what);
      assert.equal(cacheFile(home, 'info').ino, now.ino, `${what}: the rewritten cache was not used`);
    }
    // Writable by others: not trusted, rewritten private.
    chmodSync(cacheFile(home, 'info').path, 0o666);
    const before = cacheFile(home, 'info').ino;
    assert.equal(info(home), expected);
    const after = cacheFile(home, 'info');
    assert.notEqual(after.ino, before);
    assert.equal(after.mode, 0o600);
  } finally {
    home.cleanup();
  }
});

test("another bundle's cache for the same command is removed; other commands' caches stay", () => {
  const home = makeTempHome();
  try {
    mkdirSync(cacheDir(home), { recursive: true, mode: 0o700 });
    const stale = join(cacheDir(home), `info.node-${process.version.slice(1)}-${process.arch}-00000000000000000000.bin`);
    const other = join(cacheDir(home), `info-extra.node-${process.version.slice(1)}-${process.arch}-00000000000000000000.bin`);
    writeFileSync(stale, 'stale', { mode: 0o600 });
    writeFileSync(other, 'another command', { mode: 0o600 });
    info(home);
    assert.ok(!existsSync(stale), 'the stale cache is still there');
    assert.ok(existsSync(other), "another command's cache was removed");
    cacheFile(home, 'info');
  } finally {
    home.cleanup();
  }
});

test('no usable cache folder (XDG_CACHE_HOME a file, or relative): the command runs the same, silently', () => {
  const home = makeTempHome();
  try {
    const expected = info(home);
    const file = join(home.dir, 'not-a-folder');
    writeFileSync(file, '');
    assert.equal(info(home, { ...home.env, XDG_CACHE_HOME: file }), expected);
    // A relative XDG_CACHE_HOME is ignored (XDG): ~/.cache is used instead.
    assert.equal(info(home, { ...home.env, XDG_CACHE_HOME: 'relative/cache' }), expected);
    assert.ok(readdirSync(join(home.dir, '.cache', 'strata', 'code-cache')).some((f) => f.startsWith('info.')));
  } finally {
    home.cleanup();
  }
});

/**
 * loadWithCodeCache on a small CommonJS file of the test's own, in a child process: which cache V8
 * took ('command', 'bundle' or none) and what the module computed.
 */
function loadIn(home: TempHome, file: string, key: string): { cache: string | null; answer: unknown } {
  const script = join(home.dir, 'load.mjs');
  writeFileSync(
    script,
    `const { loadWithCodeCache } = await import(${JSON.stringify(CODE_CACHE_MODULE)});\n` +
      `const loaded = loadWithCodeCache(process.argv[2], process.argv[3]);\n` +
      `const answer = loaded.exports.main();\nloaded.save();\n` +
      `process.stdout.write(JSON.stringify({ cache: loaded.cache, answer }));\n`,
  );
  const r = spawnSync(process.execPath, [script, file, key], { env: home.env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return JSON.parse(r.stdout) as { cache: string | null; answer: unknown };
}

test("the build's bundle cache is taken when a command has none, and a damaged one is passed over", async () => {
  const home = makeTempHome();
  try {
    const { writeBundleCache } = (await import(CODE_CACHE_MODULE)) as { writeBundleCache(file: string): void };
    const bundle = join(home.dir, 'bundle.cjs');
    // Enough functions that V8's cache is more than a header.
    const fns = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i % 7}; }`).join('\n');
    writeFileSync(bundle, `${fns}\nexports.main = () => [f3(2), f199(1), require('node:path').basename(__filename)];\n`);
    const answer = [3 * 2 + 3, 199 + (199 % 7), 'bundle.cjs'];
    assert.deepEqual(loadIn(home, bundle, 'demo'), { cache: null, answer });
    writeBundleCache(bundle);
    assert.equal(statSync(`${bundle}.cache`).mode & 0o777, 0o644);
    // The command's own cache, written by the run above, comes first.
    assert.deepEqual(loadIn(home, bundle, 'demo'), { cache: 'command', answer });
    assert.deepEqual(loadIn(home, bundle, 'other'), { cache: 'bundle', answer });
    // Damaged: not handed to V8; the command compiles and runs as without.
    const built = readFileSync(`${bundle}.cache`);
    const damaged = Buffer.from(built);
    for (let i = 100; i < damaged.length; i += 101) damaged[i]! ^= 0xff;
    writeFileSync(`${bundle}.cache`, damaged);
    assert.deepEqual(loadIn(home, bundle, 'third'), { cache: null, answer });
    // A bundle changed since its cache was written: the caches are not for it.
    writeFileSync(`${bundle}.cache`, built);
    writeFileSync(bundle, `${fns}\nexports.main = () => [f3(3), f199(1), require('node:path').basename(__filename)];\n`);
    assert.deepEqual(loadIn(home, bundle, 'demo'), { cache: null, answer: [3 * 3 + 3, 199 + (199 % 7), 'bundle.cjs'] });
  } finally {
    home.cleanup();
  }
});
