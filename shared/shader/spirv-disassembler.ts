import type { Diagnostic } from 'vscode-languageserver-types';
import { FriendlyNameMapper, friendlyNames } from './spirv-friendly-names';
import { generatorName } from './spirv-grammar';
import { decodeSpirv, type ParsedInstruction, type ParsedModule, type ParsedOperand } from './spirv-instructions';
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

/**
 * The text, written as UTF-16 code units into a reused buffer and turned into strings a chunk at a
 * time: a large module is 100,000 lines, and building each line from concatenated pieces made the
 * garbage collector the disassembler's main cost.
 */
class TextWriter {
  private static readonly CHUNK = 8192;
  /** One buffer for every writer in turn (disassembly is synchronous): a small module should not pay for a fresh 16 KiB. */
  private static spare: Uint16Array | null = null;
  private readonly buf: Uint16Array;
  private len = 0;
  private readonly chunks: string[] = [];

  constructor() {
    this.buf = TextWriter.spare ?? new Uint16Array(TextWriter.CHUNK);
    TextWriter.spare = null;
  }

  private flush() {
    if (!this.len) return;
    this.chunks.push(String.fromCharCode.apply(null, this.buf.subarray(0, this.len) as unknown as number[]));
    this.len = 0;
  }

  char(c: number) {
    if (this.len === TextWriter.CHUNK) this.flush();
    this.buf[this.len++] = c;
  }

  text(s: string) {
    if (this.len + s.length > TextWriter.CHUNK) {
      this.flush();
      if (s.length > TextWriter.CHUNK) {
        this.chunks.push(s);
        return;
      }
    }
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < s.length; i++) buf[len++] = s.charCodeAt(i);
    this.len = len;
  }

  /** A non-negative integer below 2^32, in decimal. */
  uint(n: number) {
    if (this.len + 10 > TextWriter.CHUNK) this.flush();
    const buf = this.buf;
    let end = this.len + digitCount(n);
    this.len = end;
    do {
      buf[--end] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
  }

  /** Up to INDENT spaces (indentation is all the disassembler writes). */
  spaces(n: number) {
    if (this.len + n > TextWriter.CHUNK) this.flush();
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = SPACE;
    this.len = len;
  }

  /** The text; the writer's buffer goes back for the next writer, so call this once, last. */
  toString(): string {
    this.flush();
    TextWriter.spare = this.buf;
    return this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
  }
}

/**
 * Writes instructions as spirv-dis does. `names` holds the ids whose friendly name is not their
 * number (none for --raw-id).
 */
class InstructionPrinter {
  constructor(
    readonly out: TextWriter,
    private readonly names: ReadonlyMap<number, string> | null,
  ) {}

  private id(id: number) {
    const name = this.names?.get(id);
    if (name === undefined) this.out.uint(id);
    else this.out.text(name);
  }

  /** A literal string as spirv-dis writes it: quoted, with `"` and `\` escaped by a backslash. */
  private quoted(value: string) {
    const out = this.out;
    out.char(QUOTE);
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c === QUOTE || c === BACKSLASH) out.char(BACKSLASH);
      out.char(c);
    }
    out.char(QUOTE);
  }

  operand(operand: ParsedOperand) {
    const out = this.out;
    switch (operand.type) {
      case 'id':
        out.char(PERCENT);
        return this.id(operand.id);
      case 'string':
        return this.quoted(operand.value);
      case 'number':
        if (operand.numberKind === 'uint' && operand.words.length === 1) return out.uint(operand.words[0]! >>> 0);
        return out.text(formatNumber(operand.numberKind, operand.width, operand.words));
      case 'enum':
        return operand.name === undefined ? out.uint(operand.value >>> 0) : out.text(operand.name);
      case 'mask':
        return operand.names.length ? out.text(operand.names.join('|')) : out.uint(operand.value >>> 0);
      case 'ext-inst':
        return operand.name === undefined ? out.uint(operand.value >>> 0) : out.text(operand.name);
      case 'spec-op':
        // spirv-dis names the inner opcode without its "Op" prefix: `OpSpecConstantOp %int IAdd %a %b`.
        return operand.name === undefined ? out.uint(operand.value >>> 0) : out.text(operand.name.replace(/^Op/, ''));
      case 'raw':
        return out.uint(operand.value >>> 0);
    }
  }

  instruction(inst: ParsedInstruction) {
    const out = this.out;
    if (inst.resultId !== undefined) {
      const name = this.names?.get(inst.resultId);
      // spirv-dis right-aligns "%name" in INDENT - 3 columns (std::setw on the "%"), then " = ".
      out.spaces(INDENT - 4 - (name === undefined ? digitCount(inst.resultId) : name.length));
      out.char(PERCENT);
      if (name === undefined) out.uint(inst.resultId);
      else out.text(name);
      out.text(' = ');
    } else out.spaces(INDENT);
    if (inst.opname === undefined) {
      out.text('Op');
      out.uint(inst.opcode);
    } else out.text(inst.opname);
    const operands = inst.operands;
    for (let i = 0; i < operands.length; i++) {
      const operand = operands[i]!;
      if (operand.type === 'id' && operand.kind === 'IdResult') continue;
      out.char(SPACE);
      this.operand(operand);
    }
    out.char(NEWLINE);
  }
}

/** Disassembles a module already parsed (the inspect path, which keeps the instructions for reflection). */
export function disassembleModule(module: ParsedModule, options: DisassemblyOptions = {}): Disassembly {
  const ok = !module.diagnostics.some((d) => d.severity === 1);
  return { text: moduleText(module, options.rawIds ? null : friendlyNames(module)), diagnostics: module.diagnostics, ok };
}

function moduleText(module: ParsedModule, names: ReadonlyMap<number, string> | null): string {
  const out = new TextWriter();
  if (module.header) out.text(formatHeader(module.header));
  const printer = new InstructionPrinter(out, names);
  for (const inst of module.instructions) printer.instruction(inst);
  return out.toString();
}

/**
 * Bytes → text without keeping the decoded instructions: one decoding pass for --raw-id; for
 * friendly names, like spirv-dis, a first pass that only collects the names (ids can be named
 * before they are defined: OpName, OpEntryPoint and OpDecorate come first).
 */
export function disassembleSpirv(bytes: Uint8Array, options: DisassemblyOptions = {}): Disassembly {
  let names: ReadonlyMap<number, string> | null = null;
  if (!options.rawIds) {
    let mapper: FriendlyNameMapper | undefined;
    decodeSpirv(bytes, (inst, words) => (mapper ??= new FriendlyNameMapper(words)).visit(inst));
    names = mapper?.names ?? null;
  }
  const out = new TextWriter();
  const printer = new InstructionPrinter(out, names);
  const module = decodeSpirv(bytes, (inst) => printer.instruction(inst));
  const text = module.header ? formatHeader(module.header) + out.toString() : out.toString();
  const ok = !module.diagnostics.some((d) => d.severity === 1);
  return { text, diagnostics: module.diagnostics, ok };
}

/** The friendly and the raw text of a parsed module, and the names that link one to the other (the Shaders panel's toggle). */
export function disassemblyTexts(module: ParsedModule): { disassembly: string; rawDisassembly: string; idNames: [number, string][] } {
  const names = friendlyNames(module);
  return { disassembly: moduleText(module, names), rawDisassembly: moduleText(module, null), idNames: [...names] };
}
