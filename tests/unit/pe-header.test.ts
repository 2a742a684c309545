import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePe, expectedPeMachine, parsePeHeader } from '../../shared/vulkan/pe-header';

/**
 * PE headers of real DLLs, built with Debian's mingw-w64 for x86-64 and for i686 (the
 * wrong-architecture layer a 64-bit application cannot load), and hostile bytes.
 */
const COMPILERS = ['x86_64-w64-mingw32-gcc-posix', 'i686-w64-mingw32-gcc-posix'];
const missing = COMPILERS.filter((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status !== 0);
const skip = missing.length ? `mingw-w64 is not installed (${missing.join(', ')}); fix: apt-get install -y mingw-w64` : false;
if (skip && process.env['CI'] === 'true') throw new Error(skip);
if (skip) process.stderr.write(`pe-header: ${skip}\n`);

const SOURCE = `
__declspec(dllexport) int vkNegotiateLoaderLayerInterfaceVersion(void *v) { return v ? 0 : -3; }
__declspec(dllexport) void *vkGetInstanceProcAddr(void *i, const char *n) { (void)i; (void)n; return 0; }
static int hidden(void) { return 1; }
int not_exported(void) { return hidden(); }
`;

function build(compiler: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'strata-pe-'));
  try {
    writeFileSync(join(dir, 'layer.c'), SOURCE);
    execFileSync(compiler, ['-shared', '-O1', join(dir, 'layer.c'), '-o', join(dir, 'layer.dll')], { stdio: 'pipe' });
    return readFileSync(join(dir, 'layer.dll'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a 64-bit DLL: x86-64, PE32+, a DLL, exactly its exported functions', { skip }, () => {
  const h = parsePeHeader(build(COMPILERS[0]!));
  assert.ok(h);
  assert.deepEqual([h.machine, h.bits, h.dll, describePe(h)], [0x8664, 64, true, '64-bit x86-64']);
  assert.deepEqual(h.exports, ['vkGetInstanceProcAddr', 'vkNegotiateLoaderLayerInterfaceVersion']);
  assert.equal(expectedPeMachine('x64'), h.machine);
});

test('a 32-bit DLL is x86: not what a 64-bit process (or Strata on x64) can load', { skip }, () => {
  const h = parsePeHeader(build(COMPILERS[1]!));
  assert.ok(h);
  assert.deepEqual([h.machine, h.bits, describePe(h)], [0x14c, 32, '32-bit x86 (i386)']);
  assert.notEqual(h.machine, expectedPeMachine('x64'));
  assert.ok(h.exports?.some((e) => e.includes('vkNegotiateLoaderLayerInterfaceVersion')));
});

test('not PE, truncated and hostile input: null or a header without exports, never a throw or a hang', { skip }, () => {
  const good = build(COMPILERS[0]!);
  assert.equal(parsePeHeader(Buffer.from('\x7fELF\x02\x01\x01')), null);
  assert.equal(parsePeHeader(Buffer.alloc(0)), null);
  for (const cut of [0x40, 0x80, 0x100, 0x200, 0x400, 1024 * 2]) {
    const h = parsePeHeader(good.subarray(0, cut));
    if (h) assert.equal(h.machine, 0x8664);
  }
  // e_lfanew pointing past the end of the file.
  const far = Buffer.from(good);
  far.writeUInt32LE(0xfffffff0, 0x3c);
  assert.equal(parsePeHeader(far), null);
  const h = parsePeHeader(good);
  assert.ok(h?.exports);
  for (let seed = 1; seed <= 200; seed++) {
    const bad = Buffer.from(good);
    for (let i = 0; i < 16; i++) bad[(seed * 7919 * (i + 1)) % 1024] = (seed * 31 + i) & 0xff;
    const r = parsePeHeader(bad);
    if (r?.exports) assert.ok(r.exports.length <= 65_536);
  }
});
