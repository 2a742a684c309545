import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyLibraryHeader, LIBRARY_HEAD_BYTES, type LibraryHeaderVerdict, type LibraryTarget } from '../../shared/vulkan/library-header';
import { seededRandom } from '../helpers/seeded-random';

/**
 * The pure classifier of a library's first bytes (shared/vulkan/library-header.ts) on real files:
 * gcc-built ELF64 and ELF32 shared objects, an object file, an executable, a real .so with its
 * e_machine patched, and DLLs built with Debian's mingw-w64 for x86-64 (PE32+) and i686 (PE32);
 * then text, short and hostile bytes.
 */
const LINUX_X64: LibraryTarget = { os: 'linux', arch: 'x64' };
const WINDOWS_X64: LibraryTarget = { os: 'windows', arch: 'x64' };

const work = mkdtempSync(join(tmpdir(), 'strata-library-header-'));
after(() => rmSync(work, { recursive: true, force: true }));

const C = 'int vkNegotiateLoaderLayerInterfaceVersion(void *v) { return v ? 0 : -3; }\n';
const DLL_C = '__declspec(dllexport) int vkNegotiateLoaderLayerInterfaceVersion(void *v) { return v ? 0 : -3; }\n';
writeFileSync(join(work, 'layer.c'), C);
writeFileSync(join(work, 'dll.c'), DLL_C);
writeFileSync(join(work, 'main.c'), 'int main(void) { return 0; }\n');

function built(compiler: string, args: string[], out: string): Buffer {
  execFileSync(compiler, [...args, '-o', join(work, out)], { stdio: 'pipe', cwd: work });
  return readFileSync(join(work, out));
}

const classify = (b: Uint8Array, target = LINUX_X64, size = b.length): LibraryHeaderVerdict =>
  classifyLibraryHeader(b.subarray(0, LIBRARY_HEAD_BYTES), size, target);

const has = (c: string) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0;
// gcc -m32 links only with the i386 multilib (gcc-multilib); -nostdlib needs none of it.
const m32 =
  has('gcc') &&
  spawnSync('gcc', ['-m32', '-shared', '-fPIC', '-nostdlib', '-o', join(work, 'probe32.so'), join(work, 'layer.c')], { stdio: 'ignore' }).status === 0;
const MINGW = ['x86_64-w64-mingw32-gcc', 'i686-w64-mingw32-gcc'];
const missingMingw = MINGW.filter((c) => !has(c));
const skipPe: string | false = missingMingw.length ? `mingw-w64 is not installed (${missingMingw.join(', ')}); fix: apt-get install -y mingw-w64` : false;
const skipElf32: string | false = m32 ? false : 'gcc -m32 -nostdlib cannot build an i386 shared object here (gcc is missing or has no i386 back end)';
for (const why of [skipPe, skipElf32].filter((w): w is string => w !== false)) {
  if (process.env['CI'] === 'true') throw new Error(why);
  process.stderr.write(`library-header: did not run: ${why}\n`);
}

test('ELF64 shared object built by gcc: ok for a 64-bit x86-64 process; 64-bit AArch64 when e_machine is patched', () => {
  const so = built('gcc', ['-shared', '-fPIC', 'layer.c'], 'layer64.so');
  assert.deepEqual(classify(so), { verdict: 'ok', format: 'elf', bits: 64, machine: 62, description: '64-bit x86-64' });
  const arm = Buffer.from(so);
  arm.writeUInt16LE(183, 18);
  assert.deepEqual(classify(arm), { verdict: 'wrong-machine', format: 'elf', bits: 64, machine: 183, description: '64-bit AArch64', want: '64-bit x86-64' });
  // The same bytes in a process of the other arch, and in an i386 process (a 64-bit file there is the other class).
  assert.equal(classify(arm, { os: 'linux', arch: 'arm64' }).verdict, 'ok');
  assert.equal(classify(so, { os: 'linux', arch: 'arm64' }).verdict, 'wrong-machine');
  assert.equal(classify(so, { os: 'linux', arch: 'ia32' }).verdict, 'wrong-class');
  // Big-endian bytes of the right machine number: glibc's "ELF file data encoding not little-endian".
  const big = Buffer.from(so);
  big[5] = 2;
  big.writeUInt16BE(62, 18);
  assert.equal(classify(big).verdict, 'wrong-machine');
});

test(
  'ELF32 shared object (gcc -m32): the other class of this machine for x86-64 (what the loader calls "wrong bit-type"); ok for i386',
  { skip: skipElf32 },
  () => {
    const so = built('gcc', ['-m32', '-shared', '-fPIC', '-nostdlib', 'layer.c'], 'layer32.so');
    assert.deepEqual(classify(so), { verdict: 'wrong-class', format: 'elf', bits: 32, machine: 3, description: '32-bit x86 (i386)', want: '64-bit x86-64' });
    assert.equal(classify(so, { os: 'linux', arch: 'ia32' }).verdict, 'ok');
    // A 32-bit ARM library in an x86-64 process is another machine, not just another class.
    const arm = Buffer.from(so);
    arm.writeUInt16LE(40, 18);
    assert.equal(classify(arm).verdict, 'wrong-machine');
  },
);

test('ELF files that are not shared objects: an object file (ET_REL) and a non-PIE executable (ET_EXEC)', () => {
  const o = built('gcc', ['-c', '-fPIC', 'layer.c'], 'layer.o');
  assert.deepEqual(classify(o), { verdict: 'not-a-library', what: 'an ELF relocatable object (a .o file, ET_REL), not a shared library' });
  const exe = built('gcc', ['-no-pie', 'main.c'], 'main-exe');
  assert.equal(classify(exe).verdict, 'not-a-library');
  assert.match((classify(exe) as { what: string }).what, /ET_EXEC/);
});

test('PE32+ DLL built by x86_64-w64-mingw32-gcc: ok for Windows x64; PE32 from i686-w64-mingw32-gcc is the other bitness', { skip: skipPe }, () => {
  const dll64 = built(MINGW[0]!, ['-shared', 'dll.c'], 'layer64.dll');
  assert.deepEqual(classify(dll64, WINDOWS_X64), { verdict: 'ok', format: 'pe', bits: 64, machine: 0x8664, description: '64-bit x86-64' });
  const dll32 = built(MINGW[1]!, ['-shared', 'dll.c'], 'layer32.dll');
  assert.deepEqual(classify(dll32, WINDOWS_X64), {
    verdict: 'wrong-class',
    format: 'pe',
    bits: 32,
    machine: 0x14c,
    description: '32-bit x86 (i386)',
    want: '64-bit x86-64',
  });
  assert.equal(classify(dll32, { os: 'windows', arch: 'ia32' }).verdict, 'ok');
  assert.equal(classify(dll64, { os: 'windows', arch: 'ia32' }).verdict, 'wrong-class');
  // An ARM64 DLL in an x64 process: another machine (LoadLibrary's error 193 all the same).
  const arm = Buffer.from(dll64);
  arm.writeUInt16LE(0xaa64, arm.readUInt32LE(0x3c) + 4);
  assert.equal(classify(arm, WINDOWS_X64).verdict, 'wrong-machine');
  // Across platforms: a DLL is not a shared object on Linux, an ELF file is not a DLL on Windows.
  assert.deepEqual(classify(dll64), { verdict: 'not-a-library', what: 'a Windows DLL (64-bit x86-64), not an ELF shared object' });
  const so = built('gcc', ['-shared', '-fPIC', 'layer.c'], 'layer64b.so');
  assert.equal(classify(so, WINDOWS_X64).verdict, 'not-a-library');
});

test('text where a library belongs: a text file, a GNU ld script, a script, an HTML page, JSON; an empty file', () => {
  const what = (s: string) => (classify(Buffer.from(s)) as { what?: string }).what;
  assert.equal(what('hello\n'), 'a text file, not a shared library');
  assert.match(what('/* GNU ld script\n   Use the shared library */\nGROUP ( /lib/x86_64-linux-gnu/libc.so.6 )\n')!, /GNU ld script/);
  assert.match(what('#!/bin/sh\necho\n')!, /script/);
  assert.match(what('<!DOCTYPE html><html>404</html>')!, /HTML page/);
  assert.match(what('{"file_format_version": "1.0.0"}')!, /JSON/);
  assert.equal(what(''), 'an empty file');
  assert.deepEqual(classify(Buffer.from('hello\n'), WINDOWS_X64), { verdict: 'not-a-library', what: 'a text file, not a shared library' });
  assert.match((classify(Buffer.from('!<arch>\nx'), LINUX_X64) as { what: string }).what, /static library/);
});

test('short and hostile bytes: a verdict, never a throw, never a read outside the bytes given', () => {
  const so = built('gcc', ['-shared', '-fPIC', 'layer.c'], 'layer64c.so');
  for (const cut of [0, 1, 3, 4, 5, 16, 19, 20, 40, 63]) {
    const v = classify(so.subarray(0, cut));
    assert.equal(v.verdict, 'not-a-library', `cut at ${cut}`);
  }
  assert.equal(classify(so.subarray(0, 64)).verdict, 'ok', 'the 64-byte header is enough');
  // Bad class / byte-order bytes.
  const bad = Buffer.from(so.subarray(0, 64));
  bad[4] = 9;
  assert.equal(classify(bad).verdict, 'not-a-library');
  // MZ with e_lfanew far beyond the bytes (and beyond the file), at the very end, and negative as uint32.
  for (const lfanew of [0xfffffff0, 0x3c, 60, 4090, 0x7fffffff]) {
    const mz = Buffer.alloc(4096);
    mz.write('MZ', 0, 'latin1');
    mz.writeUInt32LE(lfanew >>> 0, 0x3c);
    assert.equal(classify(mz, WINDOWS_X64).verdict, 'not-a-library', `e_lfanew ${lfanew}`);
  }
  // The PE header beyond the 4 KiB read of a larger file: no verdict rather than a wrong one.
  const far = Buffer.alloc(4096);
  far.write('MZ', 0, 'latin1');
  far.writeUInt32LE(8192, 0x3c);
  assert.equal(classify(far, WINDOWS_X64, 65536).verdict, 'unknown');
  // A process arch Strata has no table entry for: no verdict.
  assert.equal(classify(so, { os: 'linux', arch: 'sparc' }).verdict, 'unknown');
  // Random bytes, and random bytes behind real magic numbers.
  const random = seededRandom(14);
  for (let i = 0; i < 2000; i++) {
    const b = Buffer.alloc(Math.floor(random() * 600));
    for (let j = 0; j < b.length; j++) b[j] = Math.floor(random() * 256);
    if (i % 3 === 1 && b.length >= 4) b.set([0x7f, 0x45, 0x4c, 0x46], 0);
    if (i % 3 === 2 && b.length >= 2) b.set([0x4d, 0x5a], 0);
    for (const t of [LINUX_X64, WINDOWS_X64]) assert.ok(['ok', 'wrong-class', 'wrong-machine', 'not-a-library', 'unknown'].includes(classify(b, t).verdict));
  }
});
