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
  ID_RESULT_TYPE = 11,
  ID_RESULT = 12,
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
const ID_KINDS = new Set(['IdRef', 'IdScope', 'IdMemorySemantics']);

/** UTF-8 bytes to a string (U+FFFD for malformed sequences), without TextDecoder (not in shared/'s lib). */
export function decodeUtf8(bytes: ArrayLike<number>): string {
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
  bases?: readonly PlannedOperand[];
}

/** An operand as the decoder expects it: its grammar spec and how the decoder treats its kind (looked up once, not per operand). */
interface PlannedOperand {
  kind: string;
  quantifier: OperandSpec['quantifier'];
  name: string | undefined;
  info: KindInfo;
}

/** The grammar's operand lists (an instruction's, an enumerant's parameters, …) as planned operands, by identity. */
const plans = new Map<readonly OperandSpec[], readonly PlannedOperand[]>();

function plan(operands: readonly OperandSpec[]): readonly PlannedOperand[] {
  let planned = plans.get(operands);
  if (!planned) {
    planned = operands.map((o) => ({ kind: o.kind, quantifier: o.quantifier, name: o.name, info: kindInfo(o.kind) }));
    plans.set(operands, planned);
  }
  return planned;
}

interface InstructionPlan {
  opname: string;
  operands: readonly PlannedOperand[];
}

/** Per opcode below 1024 (the core instructions a module is made of), its plan; null for an unknown opcode. */
const corePlans: (InstructionPlan | null | undefined)[] = new Array<InstructionPlan | null | undefined>(1024).fill(undefined);

/** An opcode's plan, made on its first sighting; null for an opcode the grammar does not know. */
function instructionPlan(opcode: number): InstructionPlan | null {
  let known = opcode < 1024 ? corePlans[opcode] : undefined;
  if (known === undefined) {
    const spec = instructionSpec(opcode);
    known = spec ? { opname: spec.opname, operands: plan(spec.operands) } : null;
    if (opcode < 1024) corePlans[opcode] = known;
  }
  return known;
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
  if (kind === 'IdResultType') info = { cls: ID_RESULT_TYPE };
  else if (kind === 'IdResult') info = { cls: ID_RESULT };
  else if (ID_KINDS.has(kind)) info = { cls: ID };
  else if (kind === 'LiteralInteger') info = { cls: LITERAL_INTEGER };
  else if (kind === 'LiteralString') info = { cls: LITERAL_STRING };
  else if (kind === 'LiteralContextDependentNumber') info = { cls: CONTEXT_NUMBER };
  else if (kind === 'LiteralExtInstInteger') info = { cls: EXT_INST };
  else if (kind === 'LiteralSpecConstantOpInteger') info = { cls: SPEC_OP };
  else if (kind === 'PairLiteralIntegerIdRef') info = { cls: PAIR };
  else {
    const grammar = operandKind(kind);
    if (grammar?.category === 'Composite') info = { cls: COMPOSITE, bases: plan(grammar.bases.map((k) => ({ kind: k, quantifier: '' }))) };
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
const SMALL_LITERALS: (readonly number[] | undefined)[] = new Array<readonly number[] | undefined>(4096).fill(undefined);
// Made on first use: a command that never builds a ParsedOperand (`strata shader dis`) should not pay for 4096 arrays.
const oneWord = (word: number): number[] => (word < 4096 ? ((SMALL_LITERALS[word] ??= Object.freeze([word])) as number[]) : [word]);

const [ID_REF, ID_REFS, LITERAL_INTEGER_OPERAND] = plan([
  { kind: 'IdRef', quantifier: '' },
  { kind: 'IdRef', quantifier: '*' },
  { kind: 'LiteralInteger', quantifier: '' },
]) as [PlannedOperand, PlannedOperand, PlannedOperand];
const NO_ENUMERANTS: ReadonlyMap<number, EnumerantSpec> = new Map();

/** The names of a valid bit mask's set bits, lowest first (the kind's "None" for 0). */
function maskNames(kind: string, value: number): string[] {
  const enumerants = kindInfo(kind).enumerants ?? NO_ENUMERANTS;
  const names: string[] = [];
  for (let bit = 0; bit < 32; bit++) {
    const mask = (1 << bit) >>> 0;
    if (!(value & mask)) continue;
    const e = enumerants.get(mask);
    if (e) names.push(e.name);
  }
  if (value === 0) {
    const none = enumerants.get(0);
    if (none) names.push(none.name);
  }
  return names;
}

/**
 * The operand types of a DecodedInstruction's table (`type[i]`): a ParsedOperand's `type`, with a
 * number's numberKind folded in.
 */
export const OPERAND_ID = 0,
  OPERAND_STRING = 1,
  OPERAND_UINT = 2,
  OPERAND_INT = 3,
  OPERAND_FLOAT = 4,
  OPERAND_ENUM = 5,
  OPERAND_MASK = 6,
  OPERAND_EXT_INST = 7,
  OPERAND_SPEC_OP = 8,
  OPERAND_RAW = 9;
const NUMBER_KINDS: readonly NumberKind[] = ['uint', 'int', 'float'];

/**
 * One instruction as the decoder reports it: its operands as rows of a table (columns of typed
 * arrays, reused from one instruction to the next), not as objects. The disassembler prints
 * straight from the rows and keeps nothing, so a large module costs it no operand objects (cold,
 * allocating them was most of a whole `strata shader dis` run); parseSpirv turns each row into the
 * ParsedOperand it stands for (`parsedInstruction`). Valid only until the decoder's next instruction.
 */
export class DecodedInstruction {
  /** Word offset in the module. */
  offset = 0;
  opcode = 0;
  opname: string | undefined = undefined;
  wordCount = 0;
  resultTypeId: number | undefined = undefined;
  resultId: number | undefined = undefined;
  ok = true;
  /** How many operand rows. */
  count = 0;
  /** Per row: OPERAND_*. */
  type = new Uint8Array(16);
  /** Per row: the operand's first word, counted from the instruction's start. */
  pos = new Uint32Array(16);
  /** Per row: the id; the enumerant's, mask's, instruction number's or raw word's value; a number's low word. */
  value = new Uint32Array(16);
  /** Per row: a number's bit width; a string's word count. */
  aux = new Uint32Array(16);
  /** Per row: the grammar's operand kind (ids, numbers, enumerants, masks). */
  kind: string[] = new Array<string>(16).fill('');
  /** Per row: the enumerant's, extended instruction's or opcode's name (undefined when unknown). */
  name: (string | undefined)[] = new Array<string | undefined>(16).fill(undefined);

  constructor(
    /** The module's words in host order. */
    readonly words: Uint32Array,
  ) {}

  start(offset: number, opcode: number, opname: string | undefined, wordCount: number) {
    this.offset = offset;
    this.opcode = opcode;
    this.opname = opname;
    this.wordCount = wordCount;
    this.resultTypeId = undefined;
    this.resultId = undefined;
    this.ok = true;
    this.count = 0;
  }

  add(type: number, pos: number, value: number, aux: number, kind: string, name: string | undefined) {
    const i = this.count;
    if (i === this.type.length) this.grow();
    this.type[i] = type;
    this.pos[i] = pos;
    this.value[i] = value;
    this.aux[i] = aux;
    this.kind[i] = kind;
    this.name[i] = name;
    this.count = i + 1;
  }

  private grow() {
    const size = this.type.length * 2;
    const widen = <T extends Uint8Array | Uint32Array>(from: T, to: T): T => (to.set(from), to);
    this.type = widen(this.type, new Uint8Array(size));
    this.pos = widen(this.pos, new Uint32Array(size));
    this.value = widen(this.value, new Uint32Array(size));
    this.aux = widen(this.aux, new Uint32Array(size));
    for (let i = this.kind.length; i < size; i++) {
      this.kind.push('');
      this.name.push(undefined);
    }
  }

  /** How many words number row `i` takes (its type's width, whole words). */
  numberWordCount(i: number): number {
    const width = this.aux[i]!;
    return width <= 32 ? 1 : Math.ceil(width / 32);
  }

  numberKind(i: number): NumberKind {
    return NUMBER_KINDS[this.type[i]! - OPERAND_UINT]!;
  }

  /** Number row `i`'s words, low-order first (shared between operands: never change them). */
  numberWords(i: number): number[] {
    const at = this.offset + this.pos[i]!;
    const n = this.numberWordCount(i);
    return n === 1 ? oneWord(this.words[at]!) : Array.from(this.words.subarray(at, at + n));
  }

  /** String row `i`'s bytes, without its NUL. */
  stringBytes(i: number): number[] {
    const bytes: number[] = [];
    const from = this.offset + this.pos[i]!;
    const end = from + this.aux[i]!;
    for (let at = from; at < end; at++) {
      const w = this.words[at]!;
      for (let b = 0; b < 4; b++) {
        const byte = (w >>> (8 * b)) & 0xff;
        if (byte === 0) return bytes;
        bytes.push(byte);
      }
    }
    return bytes;
  }

  /** Mask row `i`'s names. */
  maskNames(i: number): string[] {
    return maskNames(this.kind[i]!, this.value[i]!);
  }

  /** The first <id> row of kind `kind`, or -1. */
  findId(kind: string): number {
    for (let i = 0; i < this.count; i++) if (this.type[i] === OPERAND_ID && this.kind[i] === kind) return i;
    return -1;
  }
}

/** Row `i` of `inst` as the operand object parseSpirv answers. */
function parsedOperand(inst: DecodedInstruction, i: number): ParsedOperand {
  const offset = inst.pos[i]!;
  const value = inst.value[i]!;
  switch (inst.type[i]) {
    case OPERAND_ID:
      return { type: 'id', kind: inst.kind[i]!, offset, id: value };
    case OPERAND_STRING:
      return { type: 'string', offset, numWords: inst.aux[i]!, value: decodeUtf8(inst.stringBytes(i)) };
    case OPERAND_UINT:
    case OPERAND_INT:
    case OPERAND_FLOAT:
      return { type: 'number', kind: inst.kind[i]!, offset, numberKind: inst.numberKind(i), width: inst.aux[i]!, words: inst.numberWords(i) };
    case OPERAND_ENUM:
      return { type: 'enum', kind: inst.kind[i]!, offset, value, name: inst.name[i] };
    case OPERAND_MASK:
      return { type: 'mask', kind: inst.kind[i]!, offset, value, names: inst.maskNames(i) };
    case OPERAND_EXT_INST:
      return { type: 'ext-inst', offset, value, name: inst.name[i] };
    case OPERAND_SPEC_OP:
      return { type: 'spec-op', offset, value, name: inst.name[i] };
    default:
      return { type: 'raw', offset, value };
  }
}

/** The decoder's current instruction as the object parseSpirv keeps. */
export function parsedInstruction(inst: DecodedInstruction): ParsedInstruction {
  const operands: ParsedOperand[] = [];
  for (let i = 0; i < inst.count; i++) operands.push(parsedOperand(inst, i));
  const parsed: ParsedInstruction = { offset: inst.offset, opcode: inst.opcode, opname: inst.opname, wordCount: inst.wordCount, operands, ok: inst.ok };
  if (inst.resultTypeId !== undefined) parsed.resultTypeId = inst.resultTypeId;
  if (inst.resultId !== undefined) parsed.resultId = inst.resultId;
  return parsed;
}

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
  /**
   * The operands the current instruction still expects, as a stack: the next one is
   * `expected[depth - 1]`. The depth is kept apart (not the array's length) because setting an
   * array's length once per instruction is a runtime call, measurable over 100,000 instructions.
   */
  private readonly expected: PlannedOperand[] = [];
  private depth = 0;
  /** The instruction being decoded (one, reused). */
  private readonly inst: DecodedInstruction;

  constructor(
    private readonly words: Uint32Array,
    private readonly bound: number,
  ) {
    this.typeOf = new IdTable(Math.min(bound, words.length));
    this.inst = new DecodedInstruction(words);
  }

  private report(code: SpirvDiagnosticCode, offset: number, length: number, message: string) {
    this.diagnostics.push(spirvDiagnostic(code, offset, length, message));
  }

  /** Expect `operand` next, before what was expected so far. */
  private expect(operand: PlannedOperand) {
    this.expected[this.depth++] = operand;
  }

  /** Expect `operands` next, in their order, before what was expected so far. */
  private expectFirst(operands: readonly PlannedOperand[], from = 0) {
    const expected = this.expected;
    let depth = this.depth;
    for (let i = operands.length - 1; i >= from; i--) expected[depth++] = operands[i]!;
    this.depth = depth;
  }

  /** Reports a problem at operand word `at` and keeps the rest of the instruction as raw words. */
  private fail(inst: DecodedInstruction, code: SpirvDiagnosticCode, at: number, message: string) {
    const { offset: base, wordCount } = inst;
    this.report(code, base + at, wordCount - at, message);
    inst.ok = false;
    for (let i = at; i < wordCount; i++) inst.add(OPERAND_RAW, i, this.words[base + i]!, 0, '', undefined);
  }

  decode(base: number, opcode: number, wordCount: number): DecodedInstruction {
    const spec = instructionPlan(opcode);
    const inst = this.inst;
    inst.start(base, opcode, spec?.opname, wordCount);
    if (!spec) {
      this.fail(inst, 'spirv/unknown-opcode', 1, `Unknown opcode ${opcode} at word ${base}.`);
      return inst;
    }
    const words = this.words;
    const expected = this.expected;
    this.depth = 0;
    this.expectFirst(spec.operands);
    let pos = 1;
    // Ids and plain literal integers, most of a module's operands, are decoded here; every other
    // kind in operand(). What is rare (a problem to report) is in functions of its own. The loop
    // stays small and calls little: a cold disassembly took about 10% less than with every kind
    // behind operand()'s switch.
    while (pos < wordCount) {
      if (this.depth === 0) return this.extraOperands(inst, pos);
      const operand = expected[--this.depth]!;
      if (operand.quantifier === '*') this.depth++;
      const cls = operand.info.cls;
      if (cls === ID || cls === ID_RESULT_TYPE || cls === ID_RESULT) {
        const word = words[base + pos]!;
        if (word === 0 || word >= this.bound) this.idOutOfBound(inst, pos, word);
        if (cls === ID_RESULT_TYPE) inst.resultTypeId = word;
        else if (cls === ID_RESULT) inst.resultId = word;
        inst.add(OPERAND_ID, pos, word, 0, operand.kind, undefined);
        pos++;
      } else if (cls === LITERAL_INTEGER) {
        inst.add(OPERAND_UINT, pos, words[base + pos]!, 32, operand.kind, undefined);
        pos++;
      } else {
        const next = this.operand(inst, operand.kind, operand.info, pos);
        if (typeof next !== 'number') return this.undecodable(inst, next, pos);
        pos = next;
      }
    }
    if (this.depth > 0) this.missingOperand(inst);
    this.record(inst);
    return inst;
  }

  private idOutOfBound(inst: DecodedInstruction, pos: number, word: number) {
    const base = inst.offset;
    this.report('spirv/id-out-of-bound', base + pos, 1, `${inst.opname} at word ${base} uses <id> ${word}, outside 0 < id < bound (${this.bound}).`);
    inst.ok = false;
  }

  private extraOperands(inst: DecodedInstruction, pos: number): DecodedInstruction {
    const { opname, offset, wordCount } = inst;
    this.fail(inst, 'spirv/extra-operands', pos, `${opname} at word ${offset} has word count ${wordCount}, but its operands end after ${pos} words.`);
    return inst;
  }

  private undecodable(inst: DecodedInstruction, why: Failure, pos: number): DecodedInstruction {
    this.fail(inst, why.code, pos, `${inst.opname} at word ${inst.offset}, operand word ${pos}: ${why.message}`);
    return inst;
  }

  /** The first operand still expected that is not optional, if any, as a problem. */
  private missingOperand(inst: DecodedInstruction) {
    const { opname, offset: base, wordCount } = inst;
    for (let i = this.depth - 1; i >= 0; i--) {
      const missing = this.expected[i]!;
      if (missing.quantifier !== '') continue;
      this.report(
        'spirv/missing-operand',
        base,
        wordCount,
        `${opname} at word ${base} ends after ${wordCount} words, before its ${missing.name ? `"${missing.name}" ` : ''}${missing.kind} operand.`,
      );
      inst.ok = false;
      break;
    }
  }

  /** Decodes one operand at `pos` of a kind other than an id or a plain literal integer (expecting what follows it first); returns the next position or why not. */
  private operand(inst: DecodedInstruction, kind: string, info: KindInfo, pos: number): number | Failure {
    const words = this.words;
    const base = inst.offset;
    const word = words[base + pos]!;
    switch (info.cls) {
      case LITERAL_STRING:
        for (let i = pos; i < inst.wordCount; i++) {
          const w = words[base + i]!;
          // A word holds the NUL when one of its bytes is zero.
          if ((w & 0xff) === 0 || (w & 0xff00) === 0 || (w & 0xff0000) === 0 || w >>> 24 === 0) {
            inst.add(OPERAND_STRING, pos, 0, i - pos + 1, '', undefined);
            return i + 1;
          }
        }
        return failure('spirv/unterminated-string', 'the literal string has no terminating NUL within the instruction.');
      case CONTEXT_NUMBER:
        return this.typedNumber(inst, kind, pos, inst.resultTypeId);
      case EXT_INST:
        return this.extInst(inst, pos, word);
      case SPEC_OP: {
        const inner = instructionSpec(word);
        if (!inner || !inner.hasResultType || !inner.hasResult) {
          return failure('spirv/unknown-opcode', `OpSpecConstantOp names opcode ${word}, which is not an instruction with a result type and result.`);
        }
        inst.add(OPERAND_SPEC_OP, pos, word, 0, '', inner.opname);
        this.expectFirst(plan(inner.operands), 2);
        return pos + 1;
      }
      case PAIR:
        if (inst.opcode === 251 /* OpSwitch */) {
          const selector = inst.count > 0 && inst.type[0] === OPERAND_ID ? inst.value[0]! : undefined;
          const next = this.typedNumber(inst, 'LiteralInteger', pos, selector === undefined ? undefined : this.typeOf.get(selector));
          if (typeof next !== 'number') return next;
          this.expect(ID_REF);
          return next;
        }
        this.expect(ID_REF);
        this.expect(LITERAL_INTEGER_OPERAND);
        return pos;
      case COMPOSITE:
        this.expectFirst(info.bases!);
        return pos;
      case VALUE_ENUM: {
        const e = info.enumerants!.get(word);
        if (!e) return failure('spirv/unknown-enumerant', `${word} is not a ${kind} value.`);
        inst.add(OPERAND_ENUM, pos, word, 0, kind, e.name);
        this.expectFirst(plan(e.parameters));
        return pos + 1;
      }
      case BIT_ENUM: {
        const enumerants = info.enumerants ?? NO_ENUMERANTS;
        let params: PlannedOperand[] | undefined;
        for (let bit = 0; bit < 32; bit++) {
          const mask = (1 << bit) >>> 0;
          if (!(word & mask)) continue;
          const e = enumerants.get(mask);
          if (!e) return failure('spirv/unknown-enumerant', `bit 0x${mask.toString(16)} is not a ${kind} flag.`);
          if (e.parameters.length) (params ??= []).push(...plan(e.parameters));
        }
        // The names are the set bits' (maskNames), looked up again only by whoever prints or keeps them.
        inst.add(OPERAND_MASK, pos, word, 0, kind, undefined);
        if (params) this.expectFirst(params);
        return pos + 1;
      }
      default:
        return failure('spirv/unknown-enumerant', `the grammar has no operand kind ${kind}.`);
    }
  }

  /** OpExtInst's instruction number: GLSL.std.450 by its grammar; any other set as <id> operands. */
  private extInst(inst: DecodedInstruction, pos: number, word: number): number | Failure {
    const setRow = inst.findId('IdRef');
    const setId = setRow < 0 ? undefined : inst.value[setRow]!;
    const setName = setId === undefined ? undefined : this.extInstSets.get(setId);
    this.depth = 0;
    if (setName === 'GLSL.std.450') {
      const ext = glslStd450Instruction(word);
      if (!ext) return failure('spirv/unknown-ext-inst', `GLSL.std.450 has no instruction ${word}.`);
      inst.add(OPERAND_EXT_INST, pos, word, 0, '', ext.opname);
      this.expectFirst(plan(ext.operands));
      return pos + 1;
    }
    if (setId !== undefined && !this.reportedSets.has(setId)) {
      this.reportedSets.add(setId);
      this.report(
        'spirv/unsupported-ext-inst-set',
        inst.offset,
        inst.wordCount,
        setName === undefined
          ? `OpExtInst at word ${inst.offset} uses %${setId}, which is not an OpExtInstImport seen before it.`
          : `Strata has no grammar for the extended instruction set "${setName}" yet; its instructions are shown by number, with <id> operands.`,
      );
    }
    inst.add(OPERAND_EXT_INST, pos, word, 0, '', undefined);
    this.expect(ID_REFS);
    return pos + 1;
  }

  private typedNumber(inst: DecodedInstruction, kind: string, pos: number, typeId: number | undefined): number | Failure {
    const type = typeId === undefined ? undefined : this.numericTypes.get(typeId);
    if (!type) {
      return failure(
        'spirv/untyped-literal',
        `the literal's type ${typeId === undefined ? '' : `%${typeId} `}is not an OpTypeInt or OpTypeFloat declared earlier, so its width is unknown.`,
      );
    }
    const numWords = type.width <= 32 ? 1 : Math.ceil(type.width / 32);
    if (pos + numWords > inst.wordCount) {
      return failure('spirv/missing-operand', `a ${type.width}-bit literal needs ${numWords} words, but the instruction ends first.`);
    }
    const numberType = type.numberKind === 'uint' ? OPERAND_UINT : type.numberKind === 'int' ? OPERAND_INT : OPERAND_FLOAT;
    inst.add(numberType, pos, this.words[inst.offset + pos]!, type.width, kind, undefined);
    return pos + numWords;
  }

  /** What later instructions need from this one: numeric types, value types, extended instruction sets. */
  private record(inst: DecodedInstruction) {
    const id = inst.resultId;
    if (id === undefined) return;
    if (inst.resultTypeId !== undefined) this.typeOf.set(id, inst.resultTypeId);
    const opcode = inst.opcode;
    if (opcode === 21 /* OpTypeInt */ || opcode === 22 /* OpTypeFloat */) {
      // Operand 1 is the width, 2 the signedness (both LiteralInteger: one word each).
      const isNumber = (i: number) => i < inst.count && inst.type[i]! >= OPERAND_UINT && inst.type[i]! <= OPERAND_FLOAT;
      const width = isNumber(1) ? inst.value[1]! : 0;
      if (width <= 0) return;
      const numberKind: NumberKind = opcode === 22 ? 'float' : isNumber(2) && inst.value[2] ? 'int' : 'uint';
      this.numericTypes.set(id, { numberKind, width });
    } else if (opcode === 11 /* OpExtInstImport */) {
      if (inst.count > 1 && inst.type[1] === OPERAND_STRING) this.extInstSets.set(id, decodeUtf8(inst.stringBytes(1)));
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
 * Decodes the instructions of words already read (readSpirvWords), handing each to `visit`;
 * returns how many there are. Reading problems go to `diagnostics`, decoding problems to the
 * decoder's list, returned too.
 */
function decodeWords(
  words: Uint32Array,
  header: SpirvHeader | null,
  diagnostics: Diagnostic[],
  visit: (inst: DecodedInstruction) => void,
  options: ParseOptions,
): { instructionCount: number; decoded: Diagnostic[] } {
  const decoder = new ModuleDecoder(words, header?.bound ?? 0);
  let instructionCount = 0;
  let declarations = true;
  if (header) {
    forEachInstruction(words, diagnostics, (offset, opcode, wordCount) => {
      instructionCount++;
      if (options.declarationsOnly && opcode === 54 /* OpFunction */) declarations = false;
      if (declarations) visit(decoder.decode(offset, opcode, wordCount));
    });
  }
  return { instructionCount, decoded: decoder.diagnostics };
}

/**
 * Reads a module and hands each decoded instruction to `visit` as it goes, keeping none: the
 * disassembler's path, where holding 100,000 instructions would cost more than decoding them.
 * `inst` is valid only during the call (its operand table is reused).
 */
export function decodeSpirv(bytes: Uint8Array, visit: (inst: DecodedInstruction) => void, options: ParseOptions = {}): DecodedModule {
  const module = readSpirvWords(bytes);
  const { words, header } = module;
  const { instructionCount, decoded } = decodeWords(words, header, module.diagnostics, visit, options);
  const diagnostics = [...module.diagnostics, ...decoded].sort((a, b) => a.range.start.character - b.range.start.character);
  return { header, words, instructionCount, diagnostics };
}

/**
 * Decodes a module parseSpirv has read once more, for a consumer that needs no objects (the
 * disassembler, the friendly names): its diagnostics are the parsed module's already.
 */
export function redecodeSpirv(module: Pick<ParsedModule, 'header' | 'words'>, visit: (inst: DecodedInstruction) => void): void {
  decodeWords(module.words, module.header, [], visit, {});
}

/** Reads and decodes a module: the header, every instruction's operands, and all diagnostics. */
export function parseSpirv(bytes: Uint8Array, options: ParseOptions = {}): ParsedModule {
  const instructions: ParsedInstruction[] = [];
  const { header, words, diagnostics } = decodeSpirv(bytes, (inst) => instructions.push(parsedInstruction(inst)), options);
  return { header, words, instructions, diagnostics };
}
