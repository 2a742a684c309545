import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readLdSoCache } from '../../shared/vulkan/ld-so-cache';
import { ldCacheEntryFits, parseLdconfigCache } from '../../shared/vulkan/library-search';

/**
 * shared/vulkan/ld-so-cache.ts: /etc/ld.so.cache read as the linker reads it must give what
 * `ldconfig -p` prints of it (the reader replaces that process, issue #19): every entry, in order,
 * with the same name, path, type and architecture. Then built caches: big-endian, the architectures
 * ldconfig has words for, the older compatibility layout and bytes that are no cache (left to ldconfig).
 */
/** Every entry of a cache's bytes, in the file's order; null where the reader gives up (the caller asks ldconfig then). */
const parseLdSoCache = (bytes: Uint8Array) => readLdSoCache(bytes)?.all() ?? null;

const ldconfig = ['/sbin/ldconfig', '/usr/sbin/ldconfig'].find((p) => existsSync(p));

test("this machine's /etc/ld.so.cache: the same entries as ldconfig -p, in its order", { skip: !ldconfig && 'no ldconfig here' }, () => {
  const fromFile = parseLdSoCache(readFileSync('/etc/ld.so.cache'));
  assert.ok(fromFile, 'the cache was not read');
  const printed = parseLdconfigCache(execFileSync(ldconfig!, ['-p'], { encoding: 'utf8' }));
  assert.ok(printed.length > 10);
  assert.equal(fromFile.length, printed.length);
  fromFile.forEach((e, i) => {
    const p = printed[i]!;
    assert.equal(e.name, p.name);
    assert.equal(e.path, p.path);
    // ldconfig prints hwcap and OS ABI after the type and architecture: those two are what the reader gives.
    assert.equal(e.flags, p.flags.split(',').slice(0, e.flags.split(',').length).join(',').trim(), `${e.name}: ${e.flags} / ${p.flags}`);
    for (const arch of ['x64', 'ia32', 'arm64']) assert.equal(ldCacheEntryFits(e.flags, arch), ldCacheEntryFits(p.flags, arch), `${e.name} on ${arch}`);
  });
});

/** A cache of `entries` in the new layout, little- or big-endian, after `prefix`. */
function cache(entries: { flags: number; name: string; path: string }[], { little = true, prefix = new Uint8Array(0) } = {}): Uint8Array {
  const headerAndEntries = 48 + entries.length * 24;
  const strings: number[] = [];
  const offsets = entries.map((e) => {
    const at = (s: string) => {
      const o = headerAndEntries + strings.length;
      strings.push(...Buffer.from(s, 'utf8'), 0);
      return o;
    };
    return { key: at(e.name), value: at(e.path) };
  });
  const out = new Uint8Array(prefix.length + headerAndEntries + strings.length);
  out.set(prefix);
  const view = new DataView(out.buffer, prefix.length);
  out.set(Buffer.from('glibc-ld.so.cache1.1', 'latin1'), prefix.length);
  view.setUint32(20, entries.length, little);
  view.setUint32(24, strings.length, little);
  view.setUint8(28, little ? 2 : 3);
  entries.forEach((e, i) => {
    view.setInt32(48 + i * 24, e.flags, little);
    view.setUint32(48 + i * 24 + 4, offsets[i]!.key, little);
    view.setUint32(48 + i * 24 + 8, offsets[i]!.value, little);
  });
  out.set(strings, prefix.length + headerAndEntries);
  return out;
}

const ENTRIES = [
  { flags: 0x0303, name: 'libvulkan.so.1', path: '/lib/x86_64-linux-gnu/libvulkan.so.1' },
  { flags: 0x0003, name: 'libvulkan.so.1', path: '/lib/i386-linux-gnu/libvulkan.so.1' },
  { flags: 0x0a03, name: 'libvulkan.so.1', path: '/lib/aarch64-linux-gnu/libvulkan.so.1' },
  { flags: 0x0803, name: 'libx.so', path: '/libx32/libx.so' },
];
const EXPECTED = [
  { name: 'libvulkan.so.1', flags: 'libc6,x86-64', path: '/lib/x86_64-linux-gnu/libvulkan.so.1' },
  { name: 'libvulkan.so.1', flags: 'libc6', path: '/lib/i386-linux-gnu/libvulkan.so.1' },
  { name: 'libvulkan.so.1', flags: 'libc6,AArch64', path: '/lib/aarch64-linux-gnu/libvulkan.so.1' },
  { name: 'libx.so', flags: 'libc6,x32', path: '/libx32/libx.so' },
];

test('the new layout, little- and big-endian: names, paths and ldconfig’s words for the flags', () => {
  assert.deepEqual(parseLdSoCache(cache(ENTRIES)), EXPECTED);
  assert.deepEqual(parseLdSoCache(cache(ENTRIES, { little: false })), EXPECTED);
});

test('entriesNamed: the entries of one name, in the file’s order; a prefix or a longer name is another name', () => {
  const read = readLdSoCache(cache(ENTRIES))!;
  assert.deepEqual(read.entriesNamed('libvulkan.so.1'), EXPECTED.slice(0, 3));
  assert.deepEqual(read.entriesNamed('libx.so'), [EXPECTED[3]]);
  for (const other of ['libvulkan.so', 'libvulkan.so.1.3', 'ibx.so', '']) assert.deepEqual(read.entriesNamed(other), [], other);
});

test("this machine's /etc/ld.so.cache: entriesNamed gives, for every name, what the whole list holds of it", () => {
  const bytes = readFileSync('/etc/ld.so.cache');
  const read = readLdSoCache(bytes);
  assert.ok(read, 'the cache was not read');
  const all = read.all()!;
  // Read as the CLI reads it, the characters made by Node's Buffer: the same entries.
  assert.deepEqual(readLdSoCache(bytes, (start, end) => bytes.toString('latin1', start, end))?.all(), all);
  for (const name of new Set(all.map((e) => e.name)))
    assert.deepEqual(
      read.entriesNamed(name),
      all.filter((e) => e.name === name),
      name,
    );
});

test('the compatibility layout of a glibc before 2.32 (the old entries first) is left to ldconfig: null', () => {
  const old = new Uint8Array(16 + 2 * 12);
  old.set(Buffer.from('ld.so-1.7.0', 'latin1'));
  new DataView(old.buffer).setUint32(12, 2, true);
  assert.equal(parseLdSoCache(cache(ENTRIES, { prefix: old })), null);
});

test('a name or path that is not ASCII gives null: ldconfig prints that cache', () => {
  const bytes = Buffer.from(cache([...ENTRIES, { flags: 0x0303, name: 'libé.so', path: '/lib/libé.so' }]));
  assert.equal(parseLdSoCache(bytes), null);
  assert.equal(
    readLdSoCache(bytes, (start, end) => bytes.toString('latin1', start, end)),
    null,
  );
});

test('bytes that are no cache, or a cache cut short, give null (the caller asks ldconfig)', () => {
  assert.equal(parseLdSoCache(new Uint8Array(0)), null);
  assert.equal(parseLdSoCache(Buffer.from('not a cache at all, not even close to one of them')), null);
  const whole = cache(ENTRIES);
  assert.equal(parseLdSoCache(whole.subarray(0, 48 + 24)), null, 'entries past the end');
  assert.equal(parseLdSoCache(whole.subarray(0, whole.length - 3)), null, 'a string without its NUL');
});
