import type { Diagnostic } from 'vscode-languageserver-types';
import { spirvDiagnostic, type SpirvDiagnosticCode } from './spirv-diagnostic-codes';
import { enumerant, glslStd450Instruction, instructionSpec, operandKind, type OperandSpec } from './spirv-grammar';
import { readSpirv, type SpirvHeader, type SpirvInstructionWords } from './spirv-reader';

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
  /** `words` low-order first; `width` is the type's bit width (32 for plain LiteralInteger). */
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
  instructions: ParsedInstruction[];
  diagnostics: Diagnostic[];
}

const ID_KINDS = new Set(['IdResultType', 'IdResult', 'IdRef', 'IdScope', 'IdMemorySemantics']);

/** UTF-8 bytes to a string (U+FFFD for malformed sequences), without TextDecoder (not in shared/'s lib). */
export function decodeUtf8(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    let need = 0;
    let cp = 0;
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

class ModuleDecoder {
  readonly diagnostics: Diagnostic[] = [];
  /** OpTypeInt / OpTypeFloat results. */
  private readonly numericTypes = new Map<number, NumericType>();
  /** Result id → its result type id (to type OpSwitch's selector). */
  private readonly typeOf = new Map<number, number>();
  private readonly extInstSets = new Map<number, string>();
  private readonly reportedSets = new Set<number>();

  constructor(private readonly bound: number) {}

  private report(code: SpirvDiagnosticCode, offset: number, length: number, message: string) {
    this.diagnostics.push(spirvDiagnostic(code, offset, length, message));
  }

  decode(inst: SpirvInstructionWords): ParsedInstruction {
    const { words, offset: base, opcode, wordCount } = inst;
    const spec = instructionSpec(opcode);
    const parsed: ParsedInstruction = { offset: base, opcode, opname: spec?.opname, wordCount, operands: [], ok: true };
    const fail = (code: SpirvDiagnosticCode, at: number, message: string) => {
      this.report(code, base + at, wordCount - at, message);
      parsed.ok = false;
      for (let i = at; i < wordCount; i++) parsed.operands.push({ type: 'raw', offset: i, value: words[i]! });
    };
    if (!spec) {
      fail('spirv/unknown-opcode', 1, `Unknown opcode ${opcode} at word ${base}.`);
      return parsed;
    }
    const name = spec.opname;
    const expected: OperandSpec[] = [...spec.operands];
    let pos = 1;
    while (pos < wordCount) {
      const operand = expected.shift();
      if (!operand) {
        fail('spirv/extra-operands', pos, `${name} at word ${base} has word count ${wordCount}, but its operands end after ${pos} words.`);
        return parsed;
      }
      if (operand.quantifier === '*') expected.unshift(operand);
      const next = this.operand(parsed, operand.kind, words, pos, expected);
      if (typeof next !== 'number') {
        fail(next.code, pos, `${name} at word ${base}, operand word ${pos}: ${next.message}`);
        return parsed;
      }
      pos = next;
    }
    const missing = expected.find((o) => o.quantifier === '');
    if (missing) {
      this.report('spirv/missing-operand', base, wordCount, `${name} at word ${base} ends after ${wordCount} words, before its ${missing.name ? `"${missing.name}" ` : ''}${missing.kind} operand.`);
      parsed.ok = false;
    }
    this.record(parsed);
    return parsed;
  }

  /** Decodes one operand at `pos` (pushing what follows it onto `expected`); returns the next position or why not. */
  private operand(parsed: ParsedInstruction, kind: string, words: Uint32Array, pos: number, expected: OperandSpec[]): number | Failure {
    const word = words[pos]!;
    const end = words.length;
    if (ID_KINDS.has(kind)) {
      if (word === 0 || word >= this.bound) {
        this.report('spirv/id-out-of-bound', parsed.offset + pos, 1, `${parsed.opname} at word ${parsed.offset} uses <id> ${word}, outside 0 < id < bound (${this.bound}).`);
        parsed.ok = false;
      }
      if (kind === 'IdResultType') parsed.resultTypeId = word;
      if (kind === 'IdResult') parsed.resultId = word;
      parsed.operands.push({ type: 'id', kind, offset: pos, id: word });
      return pos + 1;
    }
    switch (kind) {
      case 'LiteralInteger':
        parsed.operands.push({ type: 'number', kind, offset: pos, numberKind: 'uint', width: 32, words: [word] });
        return pos + 1;
      case 'LiteralString': {
        const bytes: number[] = [];
        for (let i = pos; i < end; i++) {
          const w = words[i]!;
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
      case 'LiteralContextDependentNumber':
        return this.typedNumber(parsed, kind, words, pos, parsed.resultTypeId);
      case 'LiteralExtInstInteger': {
        const setId = parsed.operands.find((o) => o.type === 'id' && o.kind === 'IdRef');
        const setName = setId?.type === 'id' ? this.extInstSets.get(setId.id) : undefined;
        if (setName === 'GLSL.std.450') {
          const ext = glslStd450Instruction(word);
          if (!ext) {
            return failure('spirv/unknown-ext-inst', `GLSL.std.450 has no instruction ${word}.`);
          }
          parsed.operands.push({ type: 'ext-inst', offset: pos, value: word, name: ext.opname });
          expected.splice(0, expected.length, ...ext.operands);
        } else {
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
          expected.splice(0, expected.length, { kind: 'IdRef', quantifier: '*' });
        }
        return pos + 1;
      }
      case 'LiteralSpecConstantOpInteger': {
        const inner = instructionSpec(word);
        if (!inner || !inner.hasResultType || !inner.hasResult) {
          return failure('spirv/unknown-opcode', `OpSpecConstantOp names opcode ${word}, which is not an instruction with a result type and result.`);
        }
        parsed.operands.push({ type: 'spec-op', offset: pos, value: word, name: inner.opname });
        expected.unshift(...inner.operands.slice(2));
        return pos + 1;
      }
      case 'PairLiteralIntegerIdRef':
        if (parsed.opcode === 251 /* OpSwitch */) {
          const selector = parsed.operands[0];
          const next = this.typedNumber(parsed, 'LiteralInteger', words, pos, selector?.type === 'id' ? this.typeOf.get(selector.id) : undefined);
          if (typeof next !== 'number') return next;
          expected.unshift({ kind: 'IdRef', quantifier: '' });
          return next;
        }
        expected.unshift({ kind: 'LiteralInteger', quantifier: '' }, { kind: 'IdRef', quantifier: '' });
        return pos;
      default:
        break;
    }
    const info = operandKind(kind);
    if (info?.category === 'Composite') {
      expected.unshift(...info.bases.map((k) => ({ kind: k, quantifier: '' as const })));
      return pos;
    }
    if (info?.category === 'ValueEnum') {
      const e = enumerant(kind, word);
      if (!e) {
        return failure('spirv/unknown-enumerant', `${word} is not a ${kind} value.`);
      }
      parsed.operands.push({ type: 'enum', kind, offset: pos, value: word, name: e.name });
      expected.unshift(...e.parameters);
      return pos + 1;
    }
    if (info?.category === 'BitEnum') {
      const names: string[] = [];
      const params: OperandSpec[] = [];
      for (let bit = 0; bit < 32; bit++) {
        const mask = (1 << bit) >>> 0;
        if (!(word & mask)) continue;
        const e = enumerant(kind, mask);
        if (!e) {
          return failure('spirv/unknown-enumerant', `bit 0x${mask.toString(16)} is not a ${kind} flag.`);
        }
        names.push(e.name);
        params.push(...e.parameters);
      }
      if (word === 0) {
        const none = enumerant(kind, 0);
        if (none) names.push(none.name);
      }
      parsed.operands.push({ type: 'mask', kind, offset: pos, value: word, names });
      expected.unshift(...params);
      return pos + 1;
    }
    return failure('spirv/unknown-enumerant', `the grammar has no operand kind ${kind}.`);
  }

  private typedNumber(parsed: ParsedInstruction, kind: string, words: Uint32Array, pos: number, typeId: number | undefined): number | Failure {
    const type = typeId === undefined ? undefined : this.numericTypes.get(typeId);
    if (!type) {
      return failure('spirv/untyped-literal', `the literal's type ${typeId === undefined ? '' : `%${typeId} `}is not an OpTypeInt or OpTypeFloat declared earlier, so its width is unknown.`);
    }
    const numWords = Math.max(1, Math.ceil(type.width / 32));
    if (pos + numWords > words.length) {
      return failure('spirv/missing-operand', `a ${type.width}-bit literal needs ${numWords} words, but the instruction ends first.`);
    }
    parsed.operands.push({ type: 'number', kind, offset: pos, numberKind: type.numberKind, width: type.width, words: Array.from(words.subarray(pos, pos + numWords)) });
    return pos + numWords;
  }

  /** What later instructions need from this one: numeric types, value types, extended instruction sets. */
  private record(parsed: ParsedInstruction) {
    const id = parsed.resultId;
    if (id === undefined) return;
    if (parsed.resultTypeId !== undefined) this.typeOf.set(id, parsed.resultTypeId);
    const lit = (i: number) => {
      const o = parsed.operands[i];
      return o?.type === 'number' ? o.words[0]! : undefined;
    };
    if (parsed.opcode === 21 /* OpTypeInt */) {
      const width = lit(1);
      if (width !== undefined && width > 0) this.numericTypes.set(id, { numberKind: lit(2) ? 'int' : 'uint', width });
    } else if (parsed.opcode === 22 /* OpTypeFloat */) {
      const width = lit(1);
      if (width !== undefined && width > 0) this.numericTypes.set(id, { numberKind: 'float', width });
    } else if (parsed.opcode === 11 /* OpExtInstImport */) {
      const name = parsed.operands[1];
      if (name?.type === 'string') this.extInstSets.set(id, name.value);
    }
  }
}

/** Reads and decodes a module: the header, every instruction's operands, and all diagnostics. */
export function parseSpirv(bytes: Uint8Array): ParsedModule {
  const module = readSpirv(bytes);
  const decoder = new ModuleDecoder(module.header?.bound ?? 0);
  const instructions = module.instructions.map((inst) => decoder.decode(inst));
  const diagnostics = [...module.diagnostics, ...decoder.diagnostics].sort((a, b) => a.range.start.character - b.range.start.character);
  return { header: module.header, instructions, diagnostics };
}
