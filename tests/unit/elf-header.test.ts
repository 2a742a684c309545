import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describeElf, expectedElf, parseElfIdentity } from '../../shared/vulkan/elf-header';

function header(cls: number, data: number, machine: number): Uint8Array {
  const b = Buffer.alloc(64);
  b.set([0x7f, 0x45, 0x4c, 0x46, cls, data, 1], 0);
  if (data === 1) b.writeUInt16LE(machine, 18);
  else b.writeUInt16BE(machine, 18);
  return b;
}

test("class and e_machine are read from the ELF identification, in the file's byte order", () => {
  assert.deepEqual(parseElfIdentity(header(2, 1, 62)), { bits: 64, littleEndian: true, machine: 62 });
  assert.deepEqual(parseElfIdentity(header(1, 1, 3)), { bits: 32, littleEndian: true, machine: 3 });
  assert.deepEqual(parseElfIdentity(header(2, 2, 22)), { bits: 64, littleEndian: false, machine: 22 });
  assert.equal(describeElf({ bits: 32, machine: 3 }), '32-bit x86 (i386)');
  assert.equal(describeElf({ bits: 64, machine: 9999 }), '64-bit e_machine 9999');
});

test('text, short files and bad class bytes are not ELF', () => {
  assert.equal(parseElfIdentity(Buffer.from('INPUT(libfoo.so)\n/* linker script */\n')), null);
  assert.equal(parseElfIdentity(header(2, 1, 62).subarray(0, 19)), null);
  assert.equal(parseElfIdentity(header(3, 1, 62)), null);
});

test("this process's own executable matches what its arch expects", () => {
  const want = expectedElf(process.arch);
  assert.ok(want, `no ELF table entry for ${process.arch}`);
  const own = parseElfIdentity(readFileSync(process.execPath).subarray(0, 64));
  assert.deepEqual(own && { bits: own.bits, machine: own.machine }, want);
});
