import type { Diagnostic } from 'vscode-languageserver-types';
import { spirvDiagnostic, type SpirvDiagnosticCode } from './spirv-diagnostic-codes';
import { enumerantsOf, glslStd450Instruction, instructionSpec, operandKind, type EnumerantSpec, type OperandSpec } from './spirv-grammar';
import { forEachInstruction, readSpirvWords, type SpirvHeader } from './spirv-reader';

/**
 * Decodes each instruction's operands with the grammar, the way SPIRV-Tools' binary parser does:
 * optional (`?`) and repeated (`*`) operands consume what the word count leaves; an enumerant's
 * parameters follow it (for a bit mask: those of each set bit, lowest bit first); a literal number
 * takes the width of its type (OpConstant / OpSpecConstant: the result type; OpSwitch: the
 * selector's type); OpExtInst continues with the operands of the named extended instruction and
 * OpSpecConstantOp with those of the opcode it names. An operand that cannot be decoded gives a
 * diagnostic and the rest of the instruction is kept as raw words.
 */
export type NumberKind = 'uint' | 'int' | 'float';

export type ParsedOperand =
  /** IdResultType, IdResult, IdRef, IdScope, IdMemorySemantics. */
  | { type: 'id'; kind: string; offset: number; id: number }
  | { type: 'string'; offset: number; numWords: number; value: string }
  /** `words` low-order first (shared between operands: never change them); `width` is the type's bit width (32 for plain LiteralInteger). */
  | { type: 'number'; kind: string; offset: number; numberKind: NumberKind; width: number; words: number[] }
  /** A ValueEnum (`name` undefined when unknown) or a BitEnum (`names` of the set bits, or of 0). */
  | { type: 'enum'; kind: string; offset: number; value: number; name: string | undefined }
  | { type: 'mask'; kind: string; offset: number; value: number; names: string[] }
  | { type: 'ext-inst'; offset: number; value: number; name: string | undefined }
  | { type: 'spec-op'; offset: number; value: number; name: string | undefined }
  /** Words left over after a decoding error. */
  | { type: 'raw'; offset: number; value: number };

export interface ParsedInstruction {
  /** Word offset in the module. */
  offset: number;
  opcode: number;
  /** undefined for an opcode the grammar does not know. */
  opname: string | undefined;
  wordCount: number;
  resultTypeId?: number;
  resultId?: number;
  operands: ParsedOperand[];
  /** False when decoding hit a problem (see the module's diagnostics). */
  ok: boolean;
}

export interface ParsedModule {
  header: SpirvHeader | null;
  /** The module's words in host order (what the instructions' offsets count). */
  words: Uint32Array;
  instructions: ParsedInstruction[];
  diagnostics: Diagnostic[];
}

/** How the decoder treats an operand kind, decided once per kind (not per operand). */
const ID = 0,
  LITERAL_INTEGER = 1,
  LITERAL_STRING = 2,
  CONTEXT_NUMBER = 3,
  EXT_INST = 4,
  SPEC_OP = 5,
  PAIR = 6,
  COMPOSITE = 7,
  VALUE_ENUM = 8,
  BIT_ENUM = 9,
  UNKNOWN_KIND = 10;
const ID_KINDS = new Set(['IdResultType', 'IdResult', 'IdRef', 'IdScope', 'IdMemorySemantics']);

/** UTF-8 bytes to a string (U+FFFD for malformed sequences), without TextDecoder (not in shared/'s lib). */
export function decodeUtf8(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    let need: number;
    let cp: number;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, cp] = [1, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, cp] = [2, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, cp] = [3, b & 0x07];
    else {
      out += '\ufffd';
      i++;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      const c = bytes[i + j];
      if (c === undefined || (c & 0xc0) !== 0x80) break;
      cp = (cp << 6) | (c & 0x3f);
    }
    const min = need === 1 ? 0x80 : need === 2 ? 0x800 : 0x10000;
    if (j <= need || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      out += '\ufffd';
      i += Math.max(1, j);
      continue;
    }
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}

interface Failure {
  code: SpirvDiagnosticCode;
  message: string;
}
const failure = (code: SpirvDiagnosticCode, message: string): Failure => ({ code, message });

interface NumericType {
  numberKind: NumberKind;
  width: number;
}

/**
 * id → id, for the ids of one module: a typed array for ids below `size` (a module has at most one
 * result per word, so the word count bounds the ids worth an array), a Map above (a corrupt bound).
 */
class IdTable {
  private readonly small: Uint32Array;
  private large: Map<number, number> | undefined;
  constructor(size: number) {
    this.small = new Uint32Array(Math.max(0, size));
  }
  set(id: number, value: number) {
    if (id < this.small.length) this.small[id] = value;
    else (this.large ??= new Map()).set(id, value);
  }
  /** undefined for an id never set (0 is never an id). */
  get(id: number): number | undefined {
    const v = id < this.small.length ? this.small[id]! : (this.large?.get(id) ?? 0);
    return v === 0 ? undefined : v;
  }
}

interface KindInfo {
  cls: number;
  /** ValueEnum / BitEnum: value → enumerant. */
  enumerants?: ReadonlyMap<number, EnumerantSpec>;
  /** Composite: the kinds it is made of, as operands. */
  bases?: readonly OperandSpec[];
}

const kindInfos = new Map<string, KindInfo>();
// Most operands are ids: the last kind looked up answers without hashing.
let lastKind = '';
let lastInfo: KindInfo = { cls: UNKNOWN_KIND };

function kindInfo(kind: string): KindInfo {
  if (kind === lastKind) return lastInfo;
  let info = kindInfos.get(kind);
  if (info) {
    lastKind = kind;
    lastInfo = info;
    return info;
  }
  if (ID_KINDS.has(kind)) info = { cls: ID };
  else if (kind === 'LiteralInteger') info = { cls: LITERAL_INTEGER };
  else if (kind === 'LiteralString') info = { cls: LITERAL_STRING };
  else if (kind === 'LiteralContextDependentNumber') info = { cls: CONTEXT_NUMBER };
  else if (kind === 'LiteralExtInstInteger') info = { cls: EXT_INST };
  else if (kind === 'LiteralSpecConstantOpInteger') info = { cls: SPEC_OP };
  else if (kind === 'PairLiteralIntegerIdRef') info = { cls: PAIR };
  else {
    const grammar = operandKind(kind);
    if (grammar?.category === 'Composite') info = { cls: COMPOSITE, bases: grammar.bases.map((k) => ({ kind: k, quantifier: '' as const })) };
    else if (grammar?.category === 'ValueEnum') info = { cls: VALUE_ENUM, enumerants: enumerantsOf(kind) };
    else if (grammar?.category === 'BitEnum') info = { cls: BIT_ENUM, enumerants: enumerantsOf(kind) };
    else info = { cls: UNKNOWN_KIND };
  }
  kindInfos.set(kind, info);
  return info;
}

/**
 * The one-word literals below 4096 (member indices, locations, bindings, widths, counts: most of
 * a module's literals) share one frozen array each instead of allocating their own: a large module
 * has hundreds of thousands of them, and allocation is what the parser spends its time on.
 */
const SMALL_LITERALS: readonly (readonly number[])[] = Array.from({ length: 4096 }, (_, n) => Object.freeze([n]));
const oneWord = (word: number): number[] => (word < 4096 ? (SMALL_LITERALS[word] as number[]) : [word]);

const ID_REF: OperandSpec = { kind: 'IdRef', quantifier: '' };
const ID_REFS: OperandSpec = { kind: 'IdRef', quantifier: '*' };
const LITERAL_INTEGER_OPERAND: OperandSpec = { kind: 'LiteralInteger', quantifier: '' };
const NO_ENUMERANTS: ReadonlyMap<number, EnumerantSpec> = new Map();

/**
 * One decoder per module; it reads the module's words in place (an instruction is an offset and a
 * word count, never a copy) because decoding is the disassembler's and reflection's hot path.
 */
class ModuleDecoder {
  readonly diagnostics: Diagnostic[] = [];
  /** OpTypeInt / OpTypeFloat results. */
  private readonly numericTypes = new Map<number, NumericType>();
  /** Result id → its result type id (to type OpSwitch's selector); an array while ids stay small. */
  private readonly typeOf: IdTable;
  private readonly extInstSets = new Map<number, string>();
  private readonly reportedSets = new Set<number>();
  /** The operands the current instruction still expects, as a stack: the next one is last. */
  private readonly expected: OperandSpec[] = [];

  constructor(
    private readonly words: Uint32Array,
    private readonly bound: number,
  ) {
    this.typeOf = new IdTable(Math.min(bound, words.length));
  }

  private report(code: SpirvDiagnosticCode, offset: number, length: number, message: string) {
    this.diagnostics.push(spirvDiagnostic(code, offset, length, message));
  }

  /** Expect `operands` next, in their order, before what was expected so far. */
  private expectFirst(operands: readonly OperandSpec[], from = 0) {
    for (let i = operands.length - 1; i >= from; i--) this.expected.push(operands[i]!);
  }

  /** Reports a problem at operand word `at` and keeps the rest of the instruction as raw words. */
  private fail(parsed: ParsedInstruction, code: SpirvDiagnosticCode, at: number, message: string) {
    const { offset: base, wordCount } = parsed;
    this.report(code, base + at, wordCount - at, message);
    parsed.ok = false;
    for (let i = at; i < wordCount; i++) parsed.operands.push({ type: 'raw', offset: i, value: this.words[base + i]! });
  }

  decode(base: number, opcode: number, wordCount: number): ParsedInstruction {
    const spec = instructionSpec(opcode);
    const parsed: ParsedInstruction = { offset: base, opcode, opname: spec?.opname, wordCount, operands: [], ok: true };
    if (!spec) {
      this.fail(parsed, 'spirv/unknown-opcode', 1, `Unknown opcode ${opcode} at word ${base}.`);
      return parsed;
    }
    const name = spec.opname;
    const expected = this.expected;
    expected.length = 0;
    this.expectFirst(spec.operands);
    let pos = 1;
    while (pos < wordCount) {
      const operand = expected.pop();
      if (operand === undefined) {
        this.fail(parsed, 'spirv/extra-operands', pos, `${name} at word ${base} has word count ${wordCount}, but its operands end after ${pos} words.`);
        return parsed;
      }
      if (operand.quantifier === '*') expected.push(operand);
      const next = this.operand(parsed, operand.kind, pos);
      if (typeof next !== 'number') {
        this.fail(parsed, next.code, pos, `${name} at word ${base}, operand word ${pos}: ${next.message}`);
        return parsed;
      }
      pos = next;
    }
    for (let i = expected.length - 1; i >= 0; i--) {
      const missing = expected[i]!;
      if (missing.quantifier !== '') continue;
      this.report(
        'spirv/missing-operand',
        base,
        wordCount,
        `${name} at word ${base} ends after ${wordCount} words, before its ${missing.name ? `"${missing.name}" ` : ''}${missing.kind} operand.`,
      );
      parsed.ok = false;
      break;
    }
    this.record(parsed);
    return parsed;
  }

  /** Decodes one operand at `pos` (expecting what follows it first); returns the next position or why not. */
  private operand(parsed: ParsedInstruction, kind: string, pos: number): number | Failure {
    const words = this.words;
    const base = parsed.offset;
    const word = words[base + pos]!;
    const info = kindInfo(kind);
    switch (info.cls) {
      case ID:
        if (word === 0 || word >= this.bound) {
          this.report('spirv/id-out-of-bound', base + pos, 1, `${parsed.opname} at word ${base} uses <id> ${word}, outside 0 < id < bound (${this.bound}).`);
          parsed.ok = false;
        }
        if (kind === 'IdResultType') parsed.resultTypeId = word;
        else if (kind === 'IdResult') parsed.resultId = word;
        parsed.operands.push({ type: 'id', kind, offset: pos, id: word });
        return pos + 1;
      case LITERAL_INTEGER:
        parsed.operands.push({ type: 'number', kind, offset: pos, numberKind: 'uint', width: 32, words: oneWord(word) });
        return pos + 1;
      case LITERAL_STRING: {
        const bytes: number[] = [];
        for (let i = pos; i < parsed.wordCount; i++) {
          const w = words[base + i]!;
          for (let b = 0; b < 4; b++) {
            const byte = (w >>> (8 * b)) & 0xff;
            if (byte === 0) {
              parsed.operands.push({ type: 'string', offset: pos, numWords: i - pos + 1, value: decodeUtf8(bytes) });
              return i + 1;
            }
            bytes.push(byte);
          }
        }
        return failure('spirv/unterminated-string', 'the literal string has no terminating NUL within the instruction.');
      }
      case CONTEXT_NUMBER:
        return this.typedNumber(parsed, kind, pos, parsed.resultTypeId);
      case EXT_INST:
        return this.extInst(parsed, pos, word);
      case SPEC_OP: {
        const inner = instructionSpec(word);
        if (!inner || !inner.hasResultType || !inner.hasResult) {
          return failure('spirv/unknown-opcode', `OpSpecConstantOp names opcode ${word}, which is not an instruction with a result type and result.`);
        }
        parsed.operands.push({ type: 'spec-op', offset: pos, value: word, name: inner.opname });
        this.expectFirst(inner.operands, 2);
        return pos + 1;
      }
      case PAIR:
        if (parsed.opcode === 251 /* OpSwitch */) {
          const selector = parsed.operands[0];
          const next = this.typedNumber(parsed, 'LiteralInteger', pos, selector?.type === 'id' ? this.typeOf.get(selector.id) : undefined);
          if (typeof next !== 'number') return next;
          this.expected.push(ID_REF);
          return next;
        }
        this.expected.push(ID_REF, LITERAL_INTEGER_OPERAND);
        return pos;
      case COMPOSITE:
        this.expectFirst(info.bases!);
        return pos;
      case VALUE_ENUM: {
        const e = info.enumerants!.get(word);
        if (!e) return failure('spirv/unknown-enumerant', `${word} is not a ${kind} value.`);
        parsed.operands.push({ type: 'enum', kind, offset: pos, value: word, name: e.name });
        this.expectFirst(e.parameters);
        return pos + 1;
      }
      case BIT_ENUM: {
        const enumerants = info.enumerants ?? NO_ENUMERANTS;
        const names: string[] = [];
        let params: OperandSpec[] | undefined;
        for (let bit = 0; bit < 32; bit++) {
          const mask = (1 << bit) >>> 0;
          if (!(word & mask)) continue;
          const e = enumerants.get(mask);
          if (!e) return failure('spirv/unknown-enumerant', `bit 0x${mask.toString(16)} is not a ${kind} flag.`);
          names.push(e.name);
          if (e.parameters.length) (params ??= []).push(...e.parameters);
        }
        if (word === 0) {
          const none = enumerants.get(0);
          if (none) names.push(none.name);
        }
        parsed.operands.push({ type: 'mask', kind, offset: pos, value: word, names });
        if (params) this.expectFirst(params);
        return pos + 1;
      }
      default:
        return failure('spirv/unknown-enumerant', `the grammar has no operand kind ${kind}.`);
    }
  }

  /** OpExtInst's instruction number: GLSL.std.450 by its grammar; any other set as <id> operands. */
  private extInst(parsed: ParsedInstruction, pos: number, word: number): number | Failure {
    const setId = parsed.operands.find((o) => o.type === 'id' && o.kind === 'IdRef');
    const setName = setId?.type === 'id' ? this.extInstSets.get(setId.id) : undefined;
    this.expected.length = 0;
    if (setName === 'GLSL.std.450') {
      const ext = glslStd450Instruction(word);
      if (!ext) return failure('spirv/unknown-ext-inst', `GLSL.std.450 has no instruction ${word}.`);
      parsed.operands.push({ type: 'ext-inst', offset: pos, value: word, name: ext.opname });
      this.expectFirst(ext.operands);
      return pos + 1;
    }
    if (setId?.type === 'id' && !this.reportedSets.has(setId.id)) {
      this.reportedSets.add(setId.id);
      this.report(
        'spirv/unsupported-ext-inst-set',
        parsed.offset,
        parsed.wordCount,
        setName === undefined
          ? `OpExtInst at word ${parsed.offset} uses %${setId.id}, which is not an OpExtInstImport seen before it.`
          : `Strata has no grammar for the extended instruction set "${setName}" yet; its instructions are shown by number, with <id> operands.`,
      );
    }
    parsed.operands.push({ type: 'ext-inst', offset: pos, value: word, name: undefined });
    this.expected.push(ID_REFS);
    return pos + 1;
  }

  private typedNumber(parsed: ParsedInstruction, kind: string, pos: number, typeId: number | undefined): number | Failure {
    const type = typeId === undefined ? undefined : this.numericTypes.get(typeId);
    if (!type) {
      return failure(
        'spirv/untyped-literal',
        `the literal's type ${typeId === undefined ? '' : `%${typeId} `}is not an OpTypeInt or OpTypeFloat declared earlier, so its width is unknown.`,
      );
    }
    const numWords = type.width <= 32 ? 1 : Math.ceil(type.width / 32);
    if (pos + numWords > parsed.wordCount) {
      return failure('spirv/missing-operand', `a ${type.width}-bit literal needs ${numWords} words, but the instruction ends first.`);
    }
    const at = parsed.offset + pos;
    const value = numWords === 1 ? oneWord(this.words[at]!) : Array.from(this.words.subarray(at, at + numWords));
    parsed.operands.push({ type: 'number', kind, offset: pos, numberKind: type.numberKind, width: type.width, words: value });
    return pos + numWords;
  }

  /** What later instructions need from this one: numeric types, value types, extended instruction sets. */
  private record(parsed: ParsedInstruction) {
    const id = parsed.resultId;
    if (id === undefined) return;
    if (parsed.resultTypeId !== undefined) this.typeOf.set(id, parsed.resultTypeId);
    const opcode = parsed.opcode;
    if (opcode === 21 /* OpTypeInt */ || opcode === 22 /* OpTypeFloat */) {
      const w = parsed.operands[1];
      const width = w?.type === 'number' ? w.words[0]! : 0;
      if (width <= 0) return;
      const signedness = parsed.operands[2];
      const numberKind: NumberKind = opcode === 22 ? 'float' : signedness?.type === 'number' && signedness.words[0] ? 'int' : 'uint';
      this.numericTypes.set(id, { numberKind, width });
    } else if (opcode === 11 /* OpExtInstImport */) {
      const name = parsed.operands[1];
      if (name?.type === 'string') this.extInstSets.set(id, name.value);
    }
  }
}

export type DecodedModule = Omit<ParsedModule, 'instructions'> & { instructionCount: number };

export interface ParseOptions {
  /**
   * Decode only what comes before the first OpFunction: every declaration reflection reads (names,
   * decorations, types, constants, global variables, entry points) precedes the functions in the
   * logical layout (SPIR-V § 2.4). The rest is still walked (word counts), not decoded.
   */
  declarationsOnly?: boolean;
}

/**
 * Reads a module and hands each decoded instruction to `visit` as it goes, keeping none: the
 * disassembler's path, where holding 100,000 instructions would cost more than decoding them.
 */
export function decodeSpirv(bytes: Uint8Array, visit: (inst: ParsedInstruction, words: Uint32Array) => void, options: ParseOptions = {}): DecodedModule {
  const module = readSpirvWords(bytes);
  const { words } = module;
  const decoder = new ModuleDecoder(words, module.header?.bound ?? 0);
  let instructionCount = 0;
  let declarations = true;
  if (module.header) {
    forEachInstruction(words, module.diagnostics, (offset, opcode, wordCount) => {
      instructionCount++;
      if (options.declarationsOnly && opcode === 54 /* OpFunction */) declarations = false;
      if (declarations) visit(decoder.decode(offset, opcode, wordCount), words);
    });
  }
  const diagnostics = [...module.diagnostics, ...decoder.diagnostics].sort((a, b) => a.range.start.character - b.range.start.character);
  return { header: module.header, words, instructionCount, diagnostics };
}

/** Reads and decodes a module: the header, every instruction's operands, and all diagnostics. */
export function parseSpirv(bytes: Uint8Array, options: ParseOptions = {}): ParsedModule {
  const instructions: ParsedInstruction[] = [];
  const { header, words, diagnostics } = decodeSpirv(bytes, (inst) => instructions.push(inst), options);
  return { header, words, instructions, diagnostics };
}
