/**
 * Just enough of a PE/COFF file (Microsoft "PE Format": MS-DOS stub, signature, COFF file header,
 * optional header, section table, export directory) to tell, before LoadLibrary, whether a layer
 * or driver DLL can load into this process (its machine type) and which functions it exports —
 * the Windows counterpart of elf-header.ts. Pure and bounded: every offset is checked against the
 * bytes given, and at most MAX_EXPORTS names of at most MAX_NAME bytes are read.
 */

export interface PeHeader {
  /** IMAGE_FILE_HEADER.Machine (0x8664 x64, 0x14c x86, 0xaa64 ARM64 …). */
  machine: number;
  /** PE32 (32-bit) or PE32+ (64-bit) optional header. */
  bits: 32 | 64;
  /** IMAGE_FILE_DLL is set. */
  dll: boolean;
  /** Exported function names in the export directory's (sorted) order; null when the bytes do not reach it. */
  exports: string[] | null;
}

export const PE_MACHINES: Readonly<Record<number, string>> = {
  0x14c: 'x86 (i386)',
  0x8664: 'x86-64',
  0xaa64: 'ARM64',
  0x1c4: 'ARM (Thumb-2)',
};

const NODE_ARCH_PE: Readonly<Record<string, number>> = { ia32: 0x14c, x64: 0x8664, arm64: 0xaa64, arm: 0x1c4 };

/** The machine type a DLL needs to load into a process of `arch` (process.arch); null for an arch we do not know. */
export function expectedPeMachine(arch: string): number | null {
  return NODE_ARCH_PE[arch] ?? null;
}

export function describePe(h: Pick<PeHeader, 'machine' | 'bits'>): string {
  return `${h.bits}-bit ${PE_MACHINES[h.machine] ?? `machine 0x${h.machine.toString(16)}`}`;
}

const MAX_EXPORTS = 65_536;
const MAX_NAME = 4096;

/** Parses a PE file (or its first bytes: then `exports` may be null); null when it is not a PE file. */
export function parsePeHeader(bytes: Uint8Array): PeHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fits = (at: number, size: number) => at >= 0 && at + size <= bytes.length;
  if (!fits(0, 0x40) || bytes[0] !== 0x4d || bytes[1] !== 0x5a) return null; // "MZ"
  const pe = view.getUint32(0x3c, true);
  if (!fits(pe, 24) || view.getUint32(pe, true) !== 0x00004550) return null; // "PE\0\0"
  const machine = view.getUint16(pe + 4, true);
  const sections = view.getUint16(pe + 6, true);
  const optionalSize = view.getUint16(pe + 20, true);
  const characteristics = view.getUint16(pe + 22, true);
  const opt = pe + 24;
  if (!fits(opt, 2)) return null;
  const magic = view.getUint16(opt, true);
  if (magic !== 0x10b && magic !== 0x20b) return null;
  const bits = magic === 0x20b ? 64 : 32;
  const header: PeHeader = { machine, bits, dll: (characteristics & 0x2000) !== 0, exports: null };

  // Data directory 0 (exports): at 96 (PE32) or 112 (PE32+) into the optional header.
  const dirs = opt + (bits === 64 ? 112 : 96);
  const dirCount = fits(opt + (bits === 64 ? 108 : 92), 4) ? view.getUint32(opt + (bits === 64 ? 108 : 92), true) : 0;
  if (dirCount < 1 || !fits(dirs, 8) || dirs + 8 > opt + optionalSize) return header;
  const exportRva = view.getUint32(dirs, true);
  if (exportRva === 0) return { ...header, exports: [] };

  const table = opt + optionalSize;
  const toOffset = (rva: number): number | null => {
    for (let i = 0; i < sections; i++) {
      const s = table + 40 * i;
      if (!fits(s, 40)) return null;
      const virtualSize = view.getUint32(s + 8, true);
      const virtualAddress = view.getUint32(s + 12, true);
      const rawSize = view.getUint32(s + 16, true);
      const rawPointer = view.getUint32(s + 20, true);
      if (rva >= virtualAddress && rva < virtualAddress + Math.max(virtualSize, rawSize)) return rawPointer + (rva - virtualAddress);
    }
    return null;
  };
  const dir = toOffset(exportRva);
  if (dir === null || !fits(dir, 40)) return header;
  const count = Math.min(view.getUint32(dir + 24, true), MAX_EXPORTS);
  const namesAt = toOffset(view.getUint32(dir + 32, true));
  if (namesAt === null || !fits(namesAt, 4 * count)) return header;
  const exports: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = toOffset(view.getUint32(namesAt + 4 * i, true));
    if (at === null || !fits(at, 1)) return header;
    let end = at;
    while (end < bytes.length && end - at < MAX_NAME && bytes[end] !== 0) end++;
    exports.push(String.fromCharCode(...bytes.subarray(at, end)));
  }
  return { ...header, exports };
}
