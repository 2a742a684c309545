// Loads a CommonJS bundle (out/main/cli.cjs) through V8's code cache (issue #19: start-up).
//
// Compiling the CLI's ~1.8 MB bundle costs ~100 ms before a command does anything (V8 pre-parses
// every function), and the functions a command runs are compiled again at every start. V8 skips
// that work when handed the code it compiled before (vm.Script `cachedData`); Node 20 offers this
// for scripts only, not for ES modules, hence the CommonJS bundle. Two caches, best first:
//
// - per command ("explain", "layers list"): written after that command's first run, so it holds
//   every function the command compiled; in $XDG_CACHE_HOME/strata/code-cache (else ~/.cache/…),
//   a folder of the user's own (0700, files 0600);
// - per bundle (out/main/cli.cjs.cache): the bundle's top level, written by the build
//   (scripts/build.mjs), so a first run, a fresh HOME (every test) or a read-only one skips the
//   pre-parse too.
//
// Trust: a cache file is used only when it is a regular file owned by this user (the bundle's also
// by root) and writable by nobody else (the rule of ~/.ssh): code a stranger could write is never
// run. Staleness: each file carries a SHA-256 of the bundle's text it was made from (and a user
// cache's name Node's version), so a rebuilt bundle or another Node never meets an old cache (V8
// itself compares only the source's length). Corruption: V8 checks a cache's header and rejects a
// mismatch (`script.cachedDataRejected`), but a damaged payload behind a good header aborts the
// process (a V8 fatal error, seen on Node 20.20): so each file starts with a SHA-256 over the
// bundle's hash and the payload, and a file that does not match is never handed to V8. A rejected
// or damaged cache costs one compile, and a user cache is then replaced. Writes are atomic (a
// temporary file renamed into place), so a concurrent run reads the old file or the new, never
// half of one; any failure to read or write a cache only costs the speed-up.
'use strict';
const { isAscii } = require('node:buffer');
const { createHash } = require('node:crypto');
const Module = require('node:module');
const { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, constants } = require('node:fs');
const { dirname, isAbsolute, join } = require('node:path');
const { Script } = require('node:vm');

/** Caches larger than this are not read (the CLI's are ~1 MB). */
const MAX_CACHE_BYTES = 64 << 20;
const DIGEST_BYTES = 32;

/** $XDG_CACHE_HOME/strata/code-cache (XDG: a relative value is ignored), else ~/.cache/strata/code-cache; null without either. */
function codeCacheDir(env = process.env) {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'strata', 'code-cache');
  const home = env.HOME;
  return home && isAbsolute(home) ? join(home, '.cache', 'strata', 'code-cache') : null;
}

/**
 * The command a cache belongs to: its leading words ("layers list"), at most two, lower-case
 * letters and dashes only, so a file or a value typed after it never becomes part of a file name.
 */
function commandKey(args) {
  const words = [];
  for (const a of args) {
    if (words.length === 2 || !/^[a-z][a-z-]{0,31}$/.test(a)) break;
    words.push(a);
  }
  return words.length ? words.join('-') : 'strata';
}

const sha256 = (...parts) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();

/** The bundle's cache written by the build: beside it, `.cache` appended. */
const bundleCachePath = (file) => `${file}.cache`;

/**
 * The cached code in `path` when the file may be trusted (regular, owned by this user or one of
 * `owners`, writable by nobody else) and is whole (its digest matches `sourceHash` and its
 * payload), else undefined.
 */
function readTrusted(path, sourceHash, owners = []) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    const uid = typeof process.geteuid === 'function' ? process.geteuid() : st.uid;
    if (!st.isFile() || (st.uid !== uid && !owners.includes(st.uid)) || (st.mode & 0o022) !== 0 || st.size > MAX_CACHE_BYTES) return undefined;
    const bytes = readFileSync(fd);
    const payload = bytes.subarray(DIGEST_BYTES);
    return bytes.length > DIGEST_BYTES && sha256(sourceHash, payload).equals(bytes.subarray(0, DIGEST_BYTES)) ? payload : undefined;
  } catch {
    return undefined; // None yet, or unreadable: compile without.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `payload` to `path` with its digest, with `mode`, atomically (a temporary file renamed into place). */
function writeCache(path, sourceHash, payload, mode) {
  const tmp = join(dirname(path), `.${process.pid}-${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, Buffer.concat([sha256(sourceHash, payload), payload]), { mode, flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * The bundle's text: as Latin-1 when it is all ASCII (the build escapes the rest, scripts/build.mjs),
 * a one-byte string made without decoding UTF-8 (~5 ms of 1.8 MB); else as UTF-8.
 */
const decode = (bytes) => (isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString('utf8'));

/** `source` compiled as Node compiles a CommonJS file (its wrapper function), with `cachedData` when given. */
const wrapped = (file, source, cachedData) => new Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });

/** The build's step: the bundle's top level compiled, as out/main/cli.cjs.cache (scripts/build.mjs). */
function writeBundleCache(file) {
  const bytes = readFileSync(file);
  writeCache(bundleCachePath(file), sha256(bytes), wrapped(file, decode(bytes)).createCachedData(), 0o644);
}

/**
 * Runs the CommonJS file `file` with the best code cache there is for the command `key`, and
 * returns its exports, which cache V8 took, and `save()`: call it once the command has done its
 * work, so that a command without a cache of its own gets one holding what it compiled.
 */
function loadWithCodeCache(file, key, env = process.env) {
  // Hashed as read: hashing the decoded text would encode all of it to UTF-8 again.
  const bytes = readFileSync(file);
  const sourceHash = sha256(bytes);
  const source = decode(bytes);
  const dir = codeCacheDir(env);
  const prefix = `${key}.`;
  const name = `${prefix}node-${process.version.slice(1)}-${process.arch}-${sourceHash.toString('hex').slice(0, 20)}.bin`;
  const own = dir ? readTrusted(join(dir, name), sourceHash) : undefined;
  let script = own && wrapped(file, source, own);
  const ownUsed = script?.cachedDataRejected === false;
  let cache = ownUsed ? 'command' : null;
  if (!ownUsed) {
    const built = readTrusted(bundleCachePath(file), sourceHash, [0]);
    script = wrapped(file, source, built);
    if (built && !script.cachedDataRejected) cache = 'bundle';
  }
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    /** The cache V8 took: the command's own, the build's, or none (null). */
    cache,
    save() {
      if (!dir || ownUsed) return;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeCache(join(dir, name), sourceHash, script.createCachedData(), 0o600);
        // This command's caches for other bundles or Node versions are stale for good.
        for (const f of readdirSync(dir)) if (f.startsWith(prefix) && f !== name && f.endsWith('.bin')) rmSync(join(dir, f), { force: true });
      } catch {
        // A read-only or full disk: no cache this time.
      }
    },
  };
}

module.exports = { codeCacheDir, commandKey, writeBundleCache, loadWithCodeCache };
