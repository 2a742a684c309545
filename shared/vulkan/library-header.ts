import { describeElf, expectedElf, parseElfIdentity } from './elf-header';
import { describePe, expectedPeMachine, parsePeHeader } from './pe-header';

/**
 * What the first bytes of a manifest's library say about whether the loader of this process can
 * load it — before dlopen / LoadLibrary, which answer with messages that name no fix (glibc's
 * "invalid ELF header", "wrong ELF class: ELFCLASS32", and for an ELF file of another machine
 * "cannot open shared object file: No such file or directory" although the file is there; Windows'
 * "error 193"). Pure: the bytes come from main/ (at most LIBRARY_HEAD_BYTES of them, read through
 * the guarded reader), the target is the process's platform and arch (process.arch's names).
 *
 * The verdicts follow what the loader does with the failure (loader.c,
 * loader_handle_load_library_error, identical in 1.3.239 … 1.4.359): "wrong ELF class" (Linux)
 * and " with error 193" (Windows: ERROR_BAD_EXE_FORMAT, any machine mismatch) are logged at INFO
 * level as "wrong bit-type" — a 32-bit library next to a 64-bit one is how multilib layers are
 * installed — and everything else as an error ("failed to load").
 */

/** The headers of ELF (64 bytes) and PE (MS-DOS stub, e_lfanew, signature, COFF and optional header) lie in the first 4 KiB of any library a linker writes. */
export const LIBRARY_HEAD_BYTES = 4096;

export interface LibraryTarget {
  /** The loader's platform: ELF shared objects on Linux (and the other ELF systems), PE DLLs on Windows. */
  os: 'linux' | 'windows';
  /** process.arch of the process that would load it ('x64', 'ia32', 'arm64' …). */
  arch: string;
}

export type LibraryHeaderVerdict =
  /** A library this process can map (as far as its header tells). */
  | { verdict: 'ok'; format: 'elf' | 'pe'; bits: 32 | 64; machine: number; description: string }
  /** Built for the other word size of this machine family (ELFCLASS32 in a 64-bit process, a PE32 x86 DLL in an x64 one): the loader skips it as "wrong bit-type". */
  | { verdict: 'wrong-class'; format: 'elf' | 'pe'; bits: 32 | 64; machine: number; description: string; want: string }
  /** Built for another machine (an AArch64 .so on x86-64, another byte order): no process here loads it. */
  | { verdict: 'wrong-machine'; format: 'elf' | 'pe'; bits: 32 | 64; machine: number; description: string; want: string }
  /** Not a shared library at all: `what` says what it is instead ("a text file", "empty", "a Windows DLL" …). */
  | { verdict: 'not-a-library'; what: string }
  /** The bytes do not settle it (a PE header beyond the bytes read, an arch Strata does not know): no verdict. */
  | { verdict: 'unknown'; why: string };

const ELF_TYPES: Readonly<Record<number, string>> = {
  0: 'an ELF file of no type (ET_NONE)',
  1: 'an ELF relocatable object (a .o file, ET_REL), not a shared library',
  2: 'an ELF executable (ET_EXEC), not a shared library',
  4: 'an ELF core dump (ET_CORE)',
};

const isElfMagic = (b: Uint8Array) => b.length >= 4 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
const isMz = (b: Uint8Array) => b.length >= 2 && b[0] === 0x4d && b[1] === 0x5a;

/** Printable ASCII / UTF-8 text (tabs and line ends allowed, no NUL): what a text file put where a library belongs looks like. */
function looksLikeText(b: Uint8Array): boolean {
  if (b.length === 0) return false;
  for (const c of b) if (c === 0 || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c)) return false;
  return true;
}

function latin(b: Uint8Array, max: number): string {
  return String.fromCharCode(...b.subarray(0, max));
}

/** What non-library bytes are, for the message. */
function notLibrary(head: Uint8Array, size: number): string {
  if (size === 0) return 'an empty file';
  if (latin(head, 8) === '!<arch>\n') return 'a static library (an ar archive, .a), not a shared library';
  if (looksLikeText(head)) {
    const start = latin(head, 64).trimStart();
    // libc.so and friends are GNU ld scripts: the static linker follows them, dlopen cannot.
    if (/^(\/\*|GROUP\s*\(|INPUT\s*\(|OUTPUT_FORMAT\s*\()/.test(start)) return 'a GNU ld script (text the static linker reads), not a shared library';
    if (start.startsWith('#!')) return 'a script (it starts with "#!"), not a shared library';
    if (start.startsWith('{') || start.startsWith('[')) return 'a text file (JSON?), not a shared library';
    if (/^<(!doctype|html)/i.test(start)) return 'an HTML page (a failed download?), not a shared library';
    return 'a text file, not a shared library';
  }
  if (head.length >= 4 && head[0] === 0xca && head[1] === 0xfe && head[2] === 0xba && head[3] === 0xbe)
    return 'a Mach-O universal binary (macOS), not an ELF shared object';
  if (head.length >= 4 && (head[0] === 0xcf || head[0] === 0xce) && head[1] === 0xfa && head[2] === 0xed && head[3] === 0xfe)
    return 'a Mach-O file (macOS), not an ELF shared object';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'a gzip-compressed file, not a shared library';
  return 'neither an ELF nor a PE file (its first bytes match no executable format)';
}

/** ELF against a Linux target (glibc's open_verify: magic, class, data, then e_machine; dlopen maps ET_DYN). */
function classifyElf(head: Uint8Array, size: number, arch: string): LibraryHeaderVerdict {
  // glibc reads a whole Elf32/Elf64_Ehdr (52 / 64 bytes) and says "file too short" for less.
  const id = parseElfIdentity(head);
  if (!id)
    return {
      verdict: 'not-a-library',
      what: head.length < 20 ? `an ELF file cut short (${size} bytes)` : 'a damaged ELF file (invalid class or byte order in its header)',
    };
  const ehdrSize = id.bits === 64 ? 64 : 52;
  if (size < ehdrSize) return { verdict: 'not-a-library', what: `an ELF file cut short (${size} bytes, less than its ${ehdrSize}-byte header)` };
  const description = describeElf(id);
  const want = expectedElf(arch);
  if (!want) return { verdict: 'unknown', why: `Strata does not know the ELF machine of a ${arch} process` };
  const wantText = describeElf(want);
  // s390x is big-endian; Node's ppc64 is ppc64le, its only ppc64 port on Linux.
  const nativeLittle = arch !== 's390x';
  const shape = { format: 'elf' as const, bits: id.bits, machine: id.machine, description };
  if (id.bits !== want.bits) {
    // Same family, other word size (i386 in x86-64, ARM in AArch64): multilib. Another family is a wrong machine whatever the class.
    const family = (m: number) => (m === 3 || m === 62 ? 'x86' : m === 40 || m === 183 ? 'arm' : m === 20 || m === 21 ? 'ppc' : String(m));
    return family(id.machine) === family(want.machine)
      ? { verdict: 'wrong-class', ...shape, want: wantText }
      : { verdict: 'wrong-machine', ...shape, want: wantText };
  }
  if (id.machine !== want.machine || id.littleEndian !== nativeLittle)
    return {
      verdict: 'wrong-machine',
      ...shape,
      description: id.littleEndian === nativeLittle ? description : `${description}, ${id.littleEndian ? 'little' : 'big'}-endian`,
      want: wantText,
    };
  const type = id.littleEndian ? head[16]! | (head[17]! << 8) : (head[16]! << 8) | head[17]!;
  if (type !== 3) return { verdict: 'not-a-library', what: ELF_TYPES[type] ?? `an ELF file of type ${type}, not a shared library` };
  return { verdict: 'ok', ...shape };
}

/** PE against a Windows target (LoadLibrary: error 193 for any machine mismatch; the loader calls that "wrong bit-type"). */
function classifyPe(head: Uint8Array, size: number, arch: string): LibraryHeaderVerdict {
  const pe = parsePeHeader(head);
  if (!pe) {
    if (head.length >= 0x40) {
      const lfanew = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0x3c, true);
      if (lfanew + 24 > head.length && lfanew + 24 <= size)
        return { verdict: 'unknown', why: `its PE header is at offset ${lfanew}, past the ${head.length} bytes Strata reads` };
    }
    return {
      verdict: 'not-a-library',
      what: size < 0x40 ? `an MS-DOS/PE file cut short (${size} bytes)` : 'an MS-DOS executable with no valid PE header, not a DLL',
    };
  }
  const description = describePe(pe);
  // An .exe (IMAGE_FILE_DLL clear) is not refused: LoadLibrary maps it, and its exports resolve.
  const want = expectedPeMachine(arch);
  if (want === null) return { verdict: 'unknown', why: `Strata does not know the PE machine of a ${arch} process` };
  const wantText = describePe({ machine: want, bits: arch === 'ia32' || arch === 'arm' ? 32 : 64 });
  const shape = { format: 'pe' as const, bits: pe.bits, machine: pe.machine, description };
  if (pe.machine === want) return { verdict: 'ok', ...shape };
  const sameFamily = (a: number, b: number) => [a, b].every((m) => m === 0x14c || m === 0x8664) || [a, b].every((m) => m === 0x1c4 || m === 0xaa64);
  return sameFamily(pe.machine, want) ? { verdict: 'wrong-class', ...shape, want: wantText } : { verdict: 'wrong-machine', ...shape, want: wantText };
}

/**
 * Classifies the first bytes of a library (`head`, at most LIBRARY_HEAD_BYTES) of a file of `size`
 * bytes for `target`. Bounded: reads only within `head`, whatever offsets the bytes claim.
 */
export function classifyLibraryHeader(head: Uint8Array, size: number, target: LibraryTarget): LibraryHeaderVerdict {
  if (target.os === 'linux') {
    if (isElfMagic(head)) return classifyElf(head, size, target.arch);
    if (isMz(head) && parsePeHeader(head))
      return { verdict: 'not-a-library', what: `a Windows DLL (${describePe(parsePeHeader(head)!)}), not an ELF shared object` };
    if (size > 0 && size < 4 && !looksLikeText(head)) return { verdict: 'not-a-library', what: `a file of ${size} bytes, too short for an ELF header` };
    return { verdict: 'not-a-library', what: notLibrary(head, size) };
  }
  if (isMz(head)) return classifyPe(head, size, target.arch);
  if (isElfMagic(head)) return { verdict: 'not-a-library', what: 'an ELF file (a Linux shared object), not a Windows DLL' };
  return { verdict: 'not-a-library', what: notLibrary(head, size).replace('neither an ELF nor a PE file', 'not a PE file') };
}
