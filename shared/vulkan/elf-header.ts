/**
 * Just enough of the ELF header (System V ABI, "ELF Header") to tell, before dlopen, whether a
 * driver library can load into this process: the magic, EI_CLASS (32/64-bit), EI_DATA and e_machine.
 * dlopen's own message for these ("wrong ELF class: ELFCLASS32", "invalid ELF header") names no fix.
 */

export interface ElfIdentity {
  bits: 32 | 64;
  littleEndian: boolean;
  machine: number;
}

/** e_machine values (elf.h) for the architectures Node reports in process.arch. */
export const ELF_MACHINES: Readonly<Record<number, string>> = {
  3: 'x86 (i386)',
  8: 'MIPS',
  20: 'PowerPC',
  21: 'PowerPC 64',
  22: 'IBM S/390',
  40: 'ARM (32-bit)',
  62: 'x86-64',
  183: 'AArch64',
  243: 'RISC-V',
  258: 'LoongArch',
};

const NODE_ARCH_ELF: Readonly<Record<string, { bits: 32 | 64; machine: number }>> = {
  ia32: { bits: 32, machine: 3 },
  x64: { bits: 64, machine: 62 },
  arm: { bits: 32, machine: 40 },
  arm64: { bits: 64, machine: 183 },
  ppc64: { bits: 64, machine: 21 },
  s390x: { bits: 64, machine: 22 },
  riscv64: { bits: 64, machine: 243 },
  loong64: { bits: 64, machine: 258 },
};

/** The identity a library needs to load into a process of `arch` (process.arch); null for an arch we do not know. */
export function expectedElf(arch: string): { bits: 32 | 64; machine: number } | null {
  return NODE_ARCH_ELF[arch] ?? null;
}

/** Parses the first 20 bytes of a file; null when it is not an ELF file at all. */
export function parseElfIdentity(head: Uint8Array): ElfIdentity | null {
  if (head.length < 20 || head[0] !== 0x7f || head[1] !== 0x45 || head[2] !== 0x4c || head[3] !== 0x46) return null;
  const cls = head[4];
  const data = head[5];
  if ((cls !== 1 && cls !== 2) || (data !== 1 && data !== 2)) return null;
  const littleEndian = data === 1;
  const machine = littleEndian ? head[18]! | (head[19]! << 8) : (head[18]! << 8) | head[19]!;
  return { bits: cls === 1 ? 32 : 64, littleEndian, machine };
}

export function describeElf(id: { bits: 32 | 64; machine: number }): string {
  return `${id.bits}-bit ${ELF_MACHINES[id.machine] ?? `e_machine ${id.machine}`}`;
}
