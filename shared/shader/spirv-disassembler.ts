import type { Diagnostic } from 'vscode-languageserver-types';
import { FriendlyNameMapper, friendlyNames } from './spirv-friendly-names';
import { generatorName } from './spirv-grammar';
import {
  decodeSpirv,
  decodeUtf8,
  OPERAND_ENUM,
  OPERAND_EXT_INST,
  OPERAND_FLOAT,
  OPERAND_ID,
  OPERAND_INT,
  OPERAND_MASK,
  OPERAND_SPEC_OP,
  OPERAND_STRING,
  OPERAND_UINT,
  redecodeSpirv,
  type DecodedInstruction,
  type ParsedModule,
} from './spirv-instructions';
import { formatNumber } from './spirv-number-format';
import type { SpirvHeader } from './spirv-reader';

/**
 * SPIR-V binary → text, identical to `spirv-dis` (SPIRV-Tools 2023.1, default options: indented, no
 * colour, friendly names from spirv-friendly-names.ts) or, with `rawIds`, to `spirv-dis --raw-id`,
 * for every module spirv-dis accepts. Where spirv-dis refuses a module, Strata still prints what it
 * could decode (undecodable words as numbers, an unknown opcode as `Op<n>`) and says what is wrong in
 * `diagnostics`.
 */
export interface Disassembly {
  text: string;
  diagnostics: Diagnostic[];
  /** False when the module has errors; `text` is then Strata's best effort, not spirv-dis's. */
  ok: boolean;
}

/** A Disassembly whose text is UTF-8 bytes (disassembleSpirvUtf8). */
export interface Utf8Disassembly extends Omit<Disassembly, 'text'> {
  utf8: Uint8Array<ArrayBuffer>;
}

export interface DisassemblyOptions {
  /** `%12` for every id, like `spirv-dis --raw-id`; otherwise friendly names, like plain `spirv-dis`. */
  rawIds?: boolean;
}

/** spirv-dis's default indent: a result id is right-aligned so that " = " ends at this column. */
const INDENT = 15;
const SPACE = 0x20;
const PERCENT = 0x25;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

export function formatHeader(header: SpirvHeader): string {
  const tool = header.generator >>> 16;
  const name = generatorName(tool);
  return (
    '; SPIR-V\n' +
    `; Version: ${header.version.major}.${header.version.minor}\n` +
    `; Generator: ${name ?? `Unknown(${tool})`}; ${header.generator & 0xffff}\n` +
    `; Bound: ${header.bound}\n` +
    `; Schema: ${header.schema}\n`
  );
}

const digitCount = (n: number) => (n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : String(n).length);

interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}
let utf8Decoder: Utf8Decoder | null | undefined;
/**
 * The host's TextDecoder (every host Strata runs in has one: Node, Electron, browsers), looked up
 * at run time because shared/ is compiled without the DOM or Node types that declare it. It turns a
 * 3 MB text into a string in a few milliseconds; the fallback below, in a host without it, in tens.
 */
function hostUtf8Decoder(): Utf8Decoder | null {
  if (utf8Decoder === undefined) {
    const Decoder = (globalThis as { TextDecoder?: new (label: string, options: { ignoreBOM: boolean }) => Utf8Decoder }).TextDecoder;
    // ignoreBOM: a text that began with U+FEFF would keep it (by default TextDecoder drops it).
    utf8Decoder = Decoder ? new Decoder('utf-8', { ignoreBOM: true }) : null;
  }
  return utf8Decoder;
}

/**
 * The text, written as UTF-8 bytes into one growing buffer and turned into a string once, at the
 * end: a large module is 100,000 lines, and building each line from concatenated pieces (or the
 * buffer from UTF-16 chunks joined) made allocation and copying the disassembler's main cost.
 * Everything but a literal string is ASCII.
 */
class TextWriter {
  private buf: Uint8Array;
  private len = 0;
  /** False once a byte above 0x7f is written. */
  private ascii = true;

  constructor(sizeHint: number) {
    this.buf = new Uint8Array(Math.max(4096, sizeHint));
  }

  /** Makes room for `n` more bytes. */
  private room(n: number) {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** An ASCII character. */
  char(c: number) {
    if (this.len === this.buf.length) this.room(1);
    this.buf[this.len++] = c;
  }

  text(s: string) {
    this.room(s.length);
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.len = len;
        return this.utf8(s, i);
      }
      buf[len++] = c;
    }
    this.len = len;
  }

  /** `s` from index `from` on, UTF-8 encoded (a lone surrogate as U+FFFD, like TextEncoder). */
  private utf8(s: string, from: number) {
    this.ascii = false;
    this.room(3 * (s.length - from));
    const buf = this.buf;
    let len = this.len;
    for (let i = from; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) buf[len++] = c;
      else if (c < 0x800) {
        buf[len++] = 0xc0 | (c >> 6);
        buf[len++] = 0x80 | (c & 0x3f);
      } else {
        if (c >= 0xd800 && c <= 0xdfff) {
          const next = s.charCodeAt(i + 1);
          if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            // A surrogate pair: 4 bytes for 2 code units, within the room made above.
            c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
            i++;
            buf[len++] = 0xf0 | (c >> 18);
            buf[len++] = 0x80 | ((c >> 12) & 0x3f);
            buf[len++] = 0x80 | ((c >> 6) & 0x3f);
            buf[len++] = 0x80 | (c & 0x3f);
            continue;
          }
          c = 0xfffd;
        }
        buf[len++] = 0xe0 | (c >> 12);
        buf[len++] = 0x80 | ((c >> 6) & 0x3f);
        buf[len++] = 0x80 | (c & 0x3f);
      }
    }
    this.len = len;
  }

  /** A non-negative integer below 2^32, in decimal. */
  uint(n: number) {
    if (this.len + 10 > this.buf.length) this.room(10);
    this.digits(n);
  }

  /** " %" and an id's number: what --raw-id prints most, in one call. */
  spacedId(n: number) {
    if (this.len + 12 > this.buf.length) this.room(12);
    this.buf[this.len++] = SPACE;
    this.buf[this.len++] = PERCENT;
    this.digits(n);
  }

  /** `n`'s decimal digits, in room already made. */
  private digits(n: number) {
    const buf = this.buf;
    let end = this.len + digitCount(n);
    this.len = end;
    // Below 2^31 `| 0` divides without a call to Math.floor (most numbers printed are ids).
    while (n >= 0x80000000) {
      const q = Math.floor(n / 10);
      buf[--end] = 0x30 + n - q * 10;
      n = q;
    }
    do {
      const q = (n / 10) | 0;
      buf[--end] = 0x30 + n - q * 10;
      n = q;
    } while (n > 0);
  }

  /**
   * The bytes of `words[from]` to `words[end - 1]` (low byte first) up to the NUL in the last, with
   * `"` and `\` escaped by a backslash: an ASCII literal string's body, without a call per byte.
   */
  escapedAscii(words: Uint32Array, from: number, end: number) {
    this.room(8 * (end - from));
    const buf = this.buf;
    let len = this.len;
    for (let at = from; at < end; at++) {
      const w = words[at]!;
      for (let b = 0; b < 32; b += 8) {
        const c = (w >>> b) & 0xff;
        if (c === 0) break;
        if (c === QUOTE || c === BACKSLASH) buf[len++] = BACKSLASH;
        buf[len++] = c;
      }
    }
    this.len = len;
  }

  /** Up to INDENT spaces (indentation is all the disassembler writes). */
  spaces(n: number) {
    this.room(n);
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = SPACE;
    this.len = len;
  }

  /**
   * `prefix` and then the bytes written, as one UTF-8 array (call once, last): the text for a host
   * that writes it out as it is, without making a string of it and encoding that back.
   */
  bytesAfter(prefix: string): Uint8Array<ArrayBuffer> {
    const head = new TextWriter(3 * prefix.length);
    head.text(prefix);
    const bytes = new Uint8Array(head.len + this.len);
    bytes.set(head.buf.subarray(0, head.len));
    bytes.set(this.buf.subarray(0, this.len), head.len);
    return bytes;
  }

  /** The text (call once, last). */
  toString(): string {
    const bytes = this.buf.subarray(0, this.len);
    const decoder = hostUtf8Decoder();
    if (decoder) return decoder.decode(bytes);
    if (!this.ascii) return decodeUtf8(bytes);
    // Without a TextDecoder: ASCII a chunk at a time (apply's arguments are bounded).
    const chunks: string[] = [];
    for (let i = 0; i < bytes.length; i += 8192) chunks.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]));
    return chunks.join('');
  }
}

/**
 * Writes instructions as spirv-dis does, from the decoder's operand table. `names` holds the ids
 * whose friendly name is not their number (none for --raw-id).
 */
class InstructionPrinter {
  constructor(
    readonly out: TextWriter,
    private readonly names: ReadonlyMap<number, string> | null,
  ) {}

  /**
   * Literal string row `i` as spirv-dis writes it: quoted, with `"` and `\` escaped by a backslash.
   * An ASCII string is copied from the words as it is; any other goes through decodeUtf8 first (as
   * parseSpirv's `value`), so that malformed UTF-8 prints as U+FFFD.
   */
  private quoted(inst: DecodedInstruction, i: number) {
    const out = this.out;
    const words = inst.words;
    const from = inst.offset + inst.pos[i]!;
    const end = from + inst.aux[i]!;
    let ascii = true;
    for (let at = from; at < end && ascii; at++) if (words[at]! & 0x80808080) ascii = false;
    out.char(QUOTE);
    if (ascii) out.escapedAscii(words, from, end);
    else {
      const value = decodeUtf8(inst.stringBytes(i));
      let start = 0;
      for (let k = 0; k < value.length; k++) {
        const c = value.charCodeAt(k);
        if (c !== QUOTE && c !== BACKSLASH) continue;
        out.text(value.slice(start, k));
        out.char(BACKSLASH);
        start = k;
      }
      out.text(value.slice(start));
    }
    out.char(QUOTE);
  }

  /** Operand row `i` of `inst`, other than an id (instruction() prints those). */
  private operand(inst: DecodedInstruction, i: number, type: number) {
    const out = this.out;
    switch (type) {
      case OPERAND_STRING:
        return this.quoted(inst, i);
      case OPERAND_UINT:
        if (inst.aux[i]! <= 32) return out.uint(inst.value[i]!);
        return out.text(formatNumber('uint', inst.aux[i]!, inst.numberWords(i)));
      case OPERAND_INT:
      case OPERAND_FLOAT:
        return out.text(formatNumber(inst.numberKind(i), inst.aux[i]!, inst.numberWords(i)));
      case OPERAND_ENUM:
      case OPERAND_EXT_INST: {
        const name = inst.name[i];
        return name === undefined ? out.uint(inst.value[i]!) : out.text(name);
      }
      case OPERAND_MASK: {
        const names = inst.maskNames(i);
        return names.length ? out.text(names.join('|')) : out.uint(inst.value[i]!);
      }
      case OPERAND_SPEC_OP: {
        // spirv-dis names the inner opcode without its "Op" prefix: `OpSpecConstantOp %int IAdd %a %b`.
        const name = inst.name[i];
        return name === undefined ? out.uint(inst.value[i]!) : out.text(name.replace(/^Op/, ''));
      }
      default:
        return out.uint(inst.value[i]!);
    }
  }

  instruction(inst: DecodedInstruction) {
    const out = this.out;
    const resultId = inst.resultId;
    if (resultId !== undefined) {
      const name = this.names?.get(resultId);
      // spirv-dis right-aligns "%name" in INDENT - 3 columns (std::setw on the "%"), then " = ".
      out.spaces(INDENT - 4 - (name === undefined ? digitCount(resultId) : name.length));
      out.char(PERCENT);
      if (name === undefined) out.uint(resultId);
      else out.text(name);
      out.text(' = ');
    } else out.spaces(INDENT);
    if (inst.opname === undefined) {
      out.text('Op');
      out.uint(inst.opcode);
    } else out.text(inst.opname);
    const count = inst.count;
    const types = inst.type;
    for (let i = 0; i < count; i++) {
      const type = types[i]!;
      if (type === OPERAND_ID) {
        // The result id is printed before the opcode (above), not among the operands.
        if (inst.kind[i] === 'IdResult') continue;
        const id = inst.value[i]!;
        const name = this.names === null ? undefined : this.names.get(id);
        if (name === undefined) out.spacedId(id);
        else {
          out.char(SPACE);
          out.char(PERCENT);
          out.text(name);
        }
        continue;
      }
      out.char(SPACE);
      this.operand(inst, i, type);
    }
    out.char(NEWLINE);
  }
}

/** Disassembles a module already parsed (the inspect path, which keeps the instructions for reflection): all of its words. */
export function disassembleModule(module: ParsedModule, options: DisassemblyOptions = {}): Disassembly {
  const ok = !module.diagnostics.some((d) => d.severity === 1);
  return { text: moduleText(module, options.rawIds ? null : friendlyNames(module)), diagnostics: module.diagnostics, ok };
}

/** A text's likely size: spirv-dis's is about 2.5 bytes a module byte (3 leaves room for longer names). */
const sizeHint = (wordCount: number) => wordCount * 12;

/**
 * A parsed module's text, printed from its words decoded again rather than from its instruction
 * objects: the printer reads only the decoder's operand table, so there is one printer.
 */
function moduleText(module: ParsedModule, names: ReadonlyMap<number, string> | null): string {
  const out = new TextWriter(sizeHint(module.words.length));
  if (module.header) out.text(formatHeader(module.header));
  const printer = new InstructionPrinter(out, names);
  redecodeSpirv(module, (inst) => printer.instruction(inst));
  return out.toString();
}

/**
 * Bytes → printed instructions without keeping the decoded instructions: one decoding pass for
 * --raw-id; for friendly names, like spirv-dis, a first pass that only collects the names (ids can
 * be named before they are defined: OpName, OpEntryPoint and OpDecorate come first). `header` is
 * the text before the instructions ('' when the module has none), known once they are decoded.
 */
function printSpirv(bytes: Uint8Array, options: DisassemblyOptions): { header: string; out: TextWriter; diagnostics: Diagnostic[]; ok: boolean } {
  let names: ReadonlyMap<number, string> | null = null;
  if (!options.rawIds) {
    let mapper: FriendlyNameMapper | undefined;
    decodeSpirv(bytes, (inst) => (mapper ??= new FriendlyNameMapper(inst.words)).visit(inst));
    names = mapper?.names ?? null;
  }
  const out = new TextWriter(sizeHint(bytes.length >> 2));
  const printer = new InstructionPrinter(out, names);
  const module = decodeSpirv(bytes, (inst) => printer.instruction(inst));
  const ok = !module.diagnostics.some((d) => d.severity === 1);
  return { header: module.header ? formatHeader(module.header) : '', out, diagnostics: module.diagnostics, ok };
}

/** Bytes → text (see printSpirv). */
export function disassembleSpirv(bytes: Uint8Array, options: DisassemblyOptions = {}): Disassembly {
  const { header, out, diagnostics, ok } = printSpirv(bytes, options);
  return { text: header + out.toString(), diagnostics, ok };
}

/**
 * Bytes → the same text as UTF-8 bytes, for a host that writes it out as it is (`strata shader dis`):
 * a large module's text is megabytes, which made into a string and encoded back for the write cost
 * more than printing it (issue #19).
 */
export function disassembleSpirvUtf8(bytes: Uint8Array, options: DisassemblyOptions = {}): Utf8Disassembly {
  const { header, out, diagnostics, ok } = printSpirv(bytes, options);
  return { utf8: out.bytesAfter(header), diagnostics, ok };
}

/** The friendly and the raw text of a parsed module, and the names that link one to the other (the Shaders panel's toggle). */
export function disassemblyTexts(module: ParsedModule): { disassembly: string; rawDisassembly: string; idNames: [number, string][] } {
  const names = friendlyNames(module);
  return { disassembly: moduleText(module, names), rawDisassembly: moduleText(module, null), idNames: [...names] };
}
