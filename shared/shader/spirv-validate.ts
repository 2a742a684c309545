import type { Diagnostic } from 'vscode-languageserver-types';
import { spirvDiagnostic, type SpirvDiagnosticCode } from './spirv-diagnostic-codes';
import { instructionSpec } from './spirv-grammar';
import { parseSpirv, type ParsedInstruction, type ParsedModule } from './spirv-instructions';
import { HEADER_WORDS } from './spirv-reader';

/**
 * Module-level rules of SPIR-V § 2.4 Logical Layout of a Module, and the id rules that go with it:
 * sections in order, exactly one OpMemoryModel, each result id defined once, every referenced id
 * defined somewhere, OpEntryPoint naming an OpFunction, OpExecutionMode naming an entry point.
 * The id bound is checked by the decoder (`spirv/id-out-of-bound`, spirv-instructions.ts). This is
 * not spirv-val: type rules, control flow, capabilities and the client API's rules are out of scope.
 */

/** The sections of § 2.4, in order; the debug section's three groups are ranks of their own. */
const SECTIONS = [
  '',
  'capabilities (OpCapability)',
  'extensions (OpExtension)',
  'extended instruction set imports (OpExtInstImport)',
  'the memory model (OpMemoryModel)',
  'entry points (OpEntryPoint)',
  'execution modes (OpExecutionMode)',
  'debug: strings and sources (OpString, OpSource…)',
  'debug: names (OpName, OpMemberName)',
  'debug: OpModuleProcessed',
  'annotations (OpDecorate…)',
  'types, constants and global variables',
  'function declarations (functions without a body)',
  'function definitions',
] as const;
const TYPES_SECTION = 11;
const DECLARATIONS = 12;
const DEFINITIONS = 13;

const Op = {
  SourceContinued: 2,
  Source: 3,
  SourceExtension: 4,
  Name: 5,
  MemberName: 6,
  String: 7,
  Line: 8,
  Extension: 10,
  ExtInstImport: 11,
  ExtInst: 12,
  MemoryModel: 14,
  EntryPoint: 15,
  ExecutionMode: 16,
  Capability: 17,
  Undef: 1,
  Function: 54,
  FunctionParameter: 55,
  FunctionEnd: 56,
  Variable: 59,
  Label: 248,
  NoLine: 317,
  ModuleProcessed: 330,
  ExecutionModeId: 331,
} as const;
const STORAGE_CLASS_FUNCTION = 7;

/** The § 2.4 section of an instruction outside any function, or undefined when it may not appear there. */
function globalSection(inst: ParsedInstruction): number | undefined {
  switch (inst.opcode) {
    case Op.Capability:
      return 1;
    case Op.Extension:
      return 2;
    case Op.ExtInstImport:
      return 3;
    case Op.MemoryModel:
      return 4;
    case Op.EntryPoint:
      return 5;
    case Op.ExecutionMode:
    case Op.ExecutionModeId:
      return 6;
    case Op.String:
    case Op.Source:
    case Op.SourceExtension:
    case Op.SourceContinued:
      return 7;
    case Op.Name:
    case Op.MemberName:
      return 8;
    case Op.ModuleProcessed:
      return 9;
    // OpLine/OpNoLine are first allowed among the types; non-semantic OpExtInst (debug info) lives there too.
    case Op.Line:
    case Op.NoLine:
    case Op.ExtInst:
    case Op.Undef:
    case Op.Variable:
      return TYPES_SECTION;
  }
  const spec = instructionSpec(inst.opcode);
  if (!spec) return undefined;
  if (spec.opclass === 'Annotation') return 10;
  if (spec.opclass === 'Type-Declaration' || spec.opclass === 'Constant-Creation') return TYPES_SECTION;
  // Extension types and constants are classed "Reserved" in the grammar (OpTypeAccelerationStructureKHR, …).
  if (/^Op(Type|Constant|SpecConstant)/.test(spec.opname)) return TYPES_SECTION;
  return undefined;
}

const name = (inst: ParsedInstruction) => inst.opname ?? `Op${inst.opcode}`;
const at = (inst: ParsedInstruction) => `${name(inst)} at word ${inst.offset}`;

/**
 * Calls `use` for each id operand an instruction *uses* (not its result), skipping operands of
 * extended sets Strata cannot type. A callback, not a list: this runs for every instruction.
 */
function forEachUsedId(inst: ParsedInstruction, use: (id: number, offset: number) => void): void {
  const operands = inst.operands;
  for (let i = 0; i < operands.length; i++) {
    const o = operands[i]!;
    if (o.type === 'ext-inst' && o.name === undefined) return;
    if (o.type === 'id' && o.kind !== 'IdResult') use(o.id, inst.offset + o.offset);
  }
}

function storageClassOf(inst: ParsedInstruction): number | undefined {
  const o = inst.operands.find((x) => x.type === 'enum' && x.kind === 'StorageClass');
  return o?.type === 'enum' ? o.value : undefined;
}

/** Layout and id diagnostics of a decoded module (the decoder's own diagnostics are not repeated). */
export function validateModule(module: ParsedModule): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report = (code: SpirvDiagnosticCode, inst: ParsedInstruction, message: string, offset = inst.offset, length = inst.wordCount) =>
    diagnostics.push(spirvDiagnostic(code, offset, length, message));
  if (!module.header) return diagnostics;
  const bound = module.header.bound;
  const { instructions } = module;
  // The reader stopped at damage: rules about what is missing at the end would be guesses.
  const complete = !module.diagnostics.some((d) => d.code === 'spirv/truncated-instruction' || d.code === 'spirv/zero-word-count');

  // Whether each OpFunction has a body (an OpLabel before its OpFunctionEnd): declarations come before definitions.
  const hasBody = new Map<number, boolean>();
  for (let i = 0, open = -1; i < instructions.length; i++) {
    const op = instructions[i]!.opcode;
    if (op === Op.Function) open = i;
    if (op === Op.Label && open >= 0) hasBody.set(open, true);
    if (op === Op.FunctionEnd) open = -1;
  }

  const defined = new Map<number, ParsedInstruction>();
  let section = 0;
  let sectionStart: ParsedInstruction | undefined;
  let inFunction: ParsedInstruction | undefined;
  let memoryModel: ParsedInstruction | undefined;
  const advance = (rank: number, inst: ParsedInstruction) => {
    if (rank < section) {
      report(
        'spirv/layout-order',
        inst,
        `${at(inst)} belongs to ${SECTIONS[rank]}, which comes before ${SECTIONS[section]}, where the module already is (since ${sectionStart ? at(sectionStart) : 'the start'}).`,
      );
    } else if (rank > section) {
      section = rank;
      sectionStart = inst;
    }
  };

  instructions.forEach((inst, index) => {
    if (inst.resultId !== undefined) {
      const first = defined.get(inst.resultId);
      if (first)
        report(
          'spirv/duplicate-result-id',
          inst,
          `${at(inst)} defines %${inst.resultId} again; ${at(first)} already defined it, and a result <id> is defined once.`,
        );
      else defined.set(inst.resultId, inst);
    }
    if (inFunction) {
      if (inst.opcode === Op.FunctionEnd) inFunction = undefined;
      else if (inst.opcode === Op.Function) {
        report('spirv/unterminated-function', inFunction, `${at(inFunction)} has no OpFunctionEnd before the next OpFunction (${at(inst)}).`);
        inFunction = inst;
        advance(hasBody.get(index) ? DEFINITIONS : DECLARATIONS, inst);
      } else if (inst.opcode === Op.Variable) {
        if (storageClassOf(inst) !== STORAGE_CLASS_FUNCTION)
          report(
            'spirv/layout-order',
            inst,
            `${at(inst)} is inside a function but its storage class is not Function; global variables belong to ${SECTIONS[TYPES_SECTION]}.`,
          );
      } else {
        const rank = globalSection(inst);
        if (rank !== undefined && rank !== TYPES_SECTION)
          report('spirv/layout-order', inst, `${at(inst)} is inside a function (${at(inFunction)}), but belongs to ${SECTIONS[rank]}.`);
        else if (rank === TYPES_SECTION && inst.opcode !== Op.Line && inst.opcode !== Op.NoLine && inst.opcode !== Op.ExtInst && inst.opcode !== Op.Undef)
          report(
            'spirv/layout-order',
            inst,
            `${at(inst)} is inside a function (${at(inFunction)}), but types and constants belong to ${SECTIONS[TYPES_SECTION]}.`,
          );
      }
      return;
    }
    if (inst.opcode === Op.Function) {
      inFunction = inst;
      advance(hasBody.get(index) ? DEFINITIONS : DECLARATIONS, inst);
      return;
    }
    const rank = globalSection(inst);
    if (rank === undefined) {
      report('spirv/outside-function', inst, `${at(inst)} may only appear inside a function (between OpFunction and OpFunctionEnd).`);
      return;
    }
    if (inst.opcode === Op.Variable && storageClassOf(inst) === STORAGE_CLASS_FUNCTION) {
      report('spirv/outside-function', inst, `${at(inst)} has storage class Function but is outside any function.`);
      return;
    }
    if (inst.opcode === Op.MemoryModel) {
      if (memoryModel)
        report('spirv/duplicate-memory-model', inst, `${at(inst)} is a second memory model; a module has exactly one (the first is ${at(memoryModel)}).`);
      memoryModel ??= inst;
    }
    advance(rank, inst);
  });
  if (inFunction && complete) report('spirv/unterminated-function', inFunction, `${at(inFunction)} has no OpFunctionEnd before the module ends.`);
  if (!memoryModel && complete) {
    diagnostics.push(
      spirvDiagnostic(
        'spirv/missing-memory-model',
        HEADER_WORDS,
        0,
        'The module has no OpMemoryModel; exactly one is required, after the capabilities, extensions and imports.',
      ),
    );
  }

  const entryPoints = new Set<number>();
  for (const inst of instructions) {
    forEachUsedId(inst, (id, offset) => {
      if (id !== 0 && id < bound && !defined.has(id))
        report('spirv/undefined-id', inst, `${at(inst)} uses %${id}, which no instruction of the module defines.`, offset, 1);
    });
    if (inst.opcode === Op.EntryPoint) {
      const target = inst.operands[1];
      if (target?.type !== 'id') continue;
      entryPoints.add(target.id);
      const def = defined.get(target.id);
      if (def && def.opcode !== Op.Function) {
        report(
          'spirv/entry-point-not-function',
          inst,
          `${at(inst)} names %${target.id} as its entry point, but %${target.id} is ${at(def)}, not an OpFunction.`,
          inst.offset + target.offset,
          1,
        );
      }
    }
  }
  for (const inst of instructions) {
    if (inst.opcode !== Op.ExecutionMode && inst.opcode !== Op.ExecutionModeId) continue;
    const target = inst.operands[0];
    if (target?.type === 'id' && !entryPoints.has(target.id)) {
      report(
        'spirv/execution-mode-not-entry-point',
        inst,
        `${at(inst)} sets a mode on %${target.id}, which no OpEntryPoint declares as an entry point.`,
        inst.offset + target.offset,
        1,
      );
    }
  }
  return diagnostics;
}

export interface SpirvValidation {
  /** False when any diagnostic is an error. */
  ok: boolean;
  /** The reader's and decoder's diagnostics, then the layout rules', sorted by word offset. */
  diagnostics: Diagnostic[];
}

export function validateParsed(module: ParsedModule): SpirvValidation {
  const diagnostics = [...module.diagnostics, ...validateModule(module)].sort((a, b) => a.range.start.character - b.range.start.character);
  return { ok: !diagnostics.some((d) => d.severity === 1), diagnostics };
}

export function validateSpirv(bytes: Uint8Array): SpirvValidation {
  return validateParsed(parseSpirv(bytes));
}
