import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from '../lint/diagnostic-severity';
import { binaryRange, strataDiagnostic } from '../lint/strata-diagnostic';

/**
 * Every diagnostic code the SPIR-V reader and disassembler emit, with the part of the SPIR-V
 * specification it comes from. A binary has no lines: a diagnostic's range is on line 0 and counts
 * *words* from the start of the module (`data.wordOffset` says the same for machines).
 */
const PHYSICAL = 'SPIR-V § 2.3 Physical Layout of a SPIR-V Module and Instruction';
const BINARY_FORM = 'SPIR-V § 3 Binary Form';
const LOGICAL = 'SPIR-V § 2.4 Logical Layout of a Module';
const VALIDATION = 'SPIR-V § 2.16.1 Universal Validation Rules';

export const spirvDiagnosticCodes = {
  'spirv/truncated-header': { severity: DiagnosticSeverity.Error, spec: PHYSICAL },
  'spirv/not-word-aligned': { severity: DiagnosticSeverity.Error, spec: PHYSICAL },
  'spirv/bad-magic': { severity: DiagnosticSeverity.Error, spec: 'SPIR-V § 3.1 Magic Number' },
  'spirv/zero-bound': { severity: DiagnosticSeverity.Error, spec: PHYSICAL },
  'spirv/zero-word-count': { severity: DiagnosticSeverity.Error, spec: PHYSICAL },
  'spirv/truncated-instruction': { severity: DiagnosticSeverity.Error, spec: PHYSICAL },
  'spirv/unknown-opcode': { severity: DiagnosticSeverity.Error, spec: BINARY_FORM },
  'spirv/missing-operand': { severity: DiagnosticSeverity.Error, spec: BINARY_FORM },
  'spirv/extra-operands': { severity: DiagnosticSeverity.Error, spec: BINARY_FORM },
  'spirv/unterminated-string': { severity: DiagnosticSeverity.Error, spec: 'SPIR-V § 2.2.1 Instructions (Literal String)' },
  'spirv/unknown-enumerant': { severity: DiagnosticSeverity.Error, spec: BINARY_FORM },
  'spirv/id-out-of-bound': { severity: DiagnosticSeverity.Error, spec: PHYSICAL },
  'spirv/untyped-literal': { severity: DiagnosticSeverity.Error, spec: 'SPIR-V § 2.5 Instructions (literal numbers take the width of their type)' },
  'spirv/unknown-ext-inst': { severity: DiagnosticSeverity.Error, spec: 'SPIR-V § 2.10 Extended Instruction Sets' },
  /** Not a fault of the module: Strata only carries the GLSL.std.450 grammar so far. */
  'spirv/unsupported-ext-inst-set': { severity: DiagnosticSeverity.Information, spec: 'SPIR-V § 2.10 Extended Instruction Sets' },
  // Logical layout and id rules (spirv-validate.ts); spirv-val rejects each of these too.
  'spirv/layout-order': { severity: DiagnosticSeverity.Error, spec: LOGICAL },
  'spirv/outside-function': { severity: DiagnosticSeverity.Error, spec: LOGICAL },
  'spirv/missing-memory-model': { severity: DiagnosticSeverity.Error, spec: LOGICAL },
  'spirv/duplicate-memory-model': { severity: DiagnosticSeverity.Error, spec: LOGICAL },
  'spirv/unterminated-function': { severity: DiagnosticSeverity.Error, spec: LOGICAL },
  'spirv/duplicate-result-id': { severity: DiagnosticSeverity.Error, spec: 'SPIR-V § 2.2.1 Instructions (Result <id>: defined once)' },
  'spirv/undefined-id': { severity: DiagnosticSeverity.Error, spec: VALIDATION },
  'spirv/entry-point-not-function': {
    severity: DiagnosticSeverity.Error,
    spec: 'SPIR-V § 3.32.5 OpEntryPoint (Entry Point must be the Result <id> of an OpFunction)',
  },
  'spirv/execution-mode-not-entry-point': {
    severity: DiagnosticSeverity.Error,
    spec: 'SPIR-V § 3.32.5 OpExecutionMode (Entry Point must be the Entry Point <id> operand of an OpEntryPoint)',
  },
} as const;

export type SpirvDiagnosticCode = keyof typeof spirvDiagnosticCodes;

export function spirvDiagnostic(code: SpirvDiagnosticCode, wordOffset: number, wordLength: number, message: string): Diagnostic {
  return strataDiagnostic(spirvDiagnosticCodes, code, binaryRange(wordOffset, wordLength), message, { wordOffset });
}
