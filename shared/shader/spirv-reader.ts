import type { Diagnostic } from 'vscode-languageserver-types';
import { spirvDiagnostic } from './spirv-diagnostic-codes';

/**
 * The physical layout of a SPIR-V module (SPIR-V § 2.3): a five-word header, then instructions whose
 * first word holds the word count (high 16 bits) and the opcode (low 16 bits). Either byte order is
 * accepted, told apart by how the magic number reads. Every read is bounds-checked: a corrupt module
 * yields diagnostics (with the word offset) and the instructions read up to the damage, never an
 * exception, and the reader always advances, so it cannot loop.
 */
export const SPIRV_MAGIC = 0x07230203;
export const HEADER_WORDS = 5;

export interface SpirvHeader {
  endianness: 'little' | 'big';
  /** The raw version word: 0 | major | minor | 0. */
  versionWord: number;
  version: { major: number; minor: number };
  /** Generator's magic number: registered tool id in the high 16 bits, its own number in the low. */
  generator: number;
  bound: number;
  schema: number;
}

export interface SpirvInstructionWords {
  /** Word offset of the instruction's first word in the module. */
  offset: number;
  opcode: number;
  wordCount: number;
}

export interface SpirvModuleWords {
  header: SpirvHeader | null;
  /** All the module's words in host order (a partial last word is dropped). */
  words: Uint32Array;
  instructions: SpirvInstructionWords[];
  diagnostics: Diagnostic[];
}

function swap32(w: number): number {
  return (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
}

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The words of `bytes` in host order; endianness is decided from the magic number. */
function toWords(bytes: Uint8Array, littleEndian: boolean): Uint32Array {
  const count = Math.floor(bytes.byteLength / 4);
  // Same byte order as the host: one copy (it also aligns the words), no per-word conversion.
  if (littleEndian === HOST_LITTLE_ENDIAN) return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + count * 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 4);
  const words = new Uint32Array(count);
  for (let i = 0; i < count; i++) words[i] = view.getUint32(i * 4, littleEndian);
  return words;
}

/** The header and the words (host order), with their diagnostics; the instructions are walked by forEachInstruction. */
export function readSpirvWords(bytes: Uint8Array): Omit<SpirvModuleWords, 'instructions'> {
  const diagnostics: Diagnostic[] = [];
  if (bytes.byteLength < HEADER_WORDS * 4) {
    diagnostics.push(
      spirvDiagnostic(
        'spirv/truncated-header',
        0,
        Math.floor(bytes.byteLength / 4),
        `The module is ${bytes.byteLength} bytes long; a SPIR-V header alone is ${HEADER_WORDS * 4} bytes (five words).`,
      ),
    );
    return { header: null, words: new Uint32Array(0), diagnostics };
  }
  const first = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  let littleEndian: boolean;
  if (first === SPIRV_MAGIC) littleEndian = true;
  else if (swap32(first) === SPIRV_MAGIC) littleEndian = false;
  else {
    diagnostics.push(
      spirvDiagnostic(
        'spirv/bad-magic',
        0,
        1,
        `Word 0 is 0x${first.toString(16).padStart(8, '0')}, not the SPIR-V magic number 0x07230203 in either byte order: this is not a SPIR-V module.`,
      ),
    );
    return { header: null, words: new Uint32Array(0), diagnostics };
  }
  if (bytes.byteLength % 4 !== 0) {
    const count = Math.floor(bytes.byteLength / 4);
    diagnostics.push(
      spirvDiagnostic(
        'spirv/not-word-aligned',
        count,
        1,
        `The module is ${bytes.byteLength} bytes long, not a whole number of 32-bit words; the last ${bytes.byteLength % 4} bytes are ignored.`,
      ),
    );
  }
  const words = toWords(bytes, littleEndian);
  const versionWord = words[1]!;
  const header: SpirvHeader = {
    endianness: littleEndian ? 'little' : 'big',
    versionWord,
    version: { major: (versionWord >>> 16) & 0xff, minor: (versionWord >>> 8) & 0xff },
    generator: words[2]!,
    bound: words[3]!,
    schema: words[4]!,
  };
  if (header.bound === 0) {
    diagnostics.push(
      spirvDiagnostic('spirv/zero-bound', 3, 1, 'The id bound (word 3) is 0, but every <id> must satisfy 0 < id < bound: no instruction could have a result.'),
    );
  }

  return { header, words, diagnostics };
}

export function readSpirv(bytes: Uint8Array): SpirvModuleWords {
  const module = readSpirvWords(bytes);
  const instructions: SpirvInstructionWords[] = [];
  if (module.header) forEachInstruction(module.words, module.diagnostics, (offset, opcode, wordCount) => instructions.push({ offset, opcode, wordCount }));
  return { ...module, instructions };
}

/**
 * Walks the instruction stream after the header: each instruction's word offset, opcode and word
 * count, bounds-checked (a zero word count or one that runs past the end ends the walk with a
 * diagnostic). The decoder walks with it directly, without a list of instructions in between.
 */
export function forEachInstruction(words: Uint32Array, diagnostics: Diagnostic[], visit: (offset: number, opcode: number, wordCount: number) => void): void {
  let offset = HEADER_WORDS;
  while (offset < words.length) {
    const first = words[offset]!;
    const wordCount = first >>> 16;
    const opcode = first & 0xffff;
    if (wordCount === 0) {
      diagnostics.push(
        spirvDiagnostic(
          'spirv/zero-word-count',
          offset,
          1,
          `The instruction at word ${offset} (opcode ${opcode}) has word count 0; an instruction is at least one word. Reading stops here.`,
        ),
      );
      break;
    }
    if (offset + wordCount > words.length) {
      diagnostics.push(
        spirvDiagnostic(
          'spirv/truncated-instruction',
          offset,
          words.length - offset,
          `The instruction at word ${offset} (opcode ${opcode}) says it has ${wordCount} words, but only ${words.length - offset} remain in the module.`,
        ),
      );
      break;
    }
    visit(offset, opcode, wordCount);
    offset += wordCount;
  }
}
