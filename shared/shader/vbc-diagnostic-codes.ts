import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from '../lint/diagnostic-severity';
import { binaryRange, strataDiagnostic } from '../lint/strata-diagnostic';

/**
 * Every diagnostic code of the VBC decoder, validator, cross-check and packer, with the part of the
 * format page ("Compiled Shader Format", LibVega/VSL wiki) it comes from. A VBC file has no lines: a
 * diagnostic's range is on line 0 and counts *bytes* from the start of the file (`data.byteOffset`
 * says the same for machines). docs/vbc.md lists them for people.
 */
const HEADER = 'VBC format: Header';
const REFLECTION = 'VBC format: Reflection';
const BINDINGS = 'VBC format: Reflection / Bindings';
const BYTECODE = 'VBC format: Bytecode';
const CROSS = 'VBC reflection against the SPIR-V of its stages (docs/vbc.md, Cross-check)';

export const vbcDiagnosticCodes = {
  'vbc/truncated-header': { severity: DiagnosticSeverity.Error, spec: HEADER },
  'vbc/bad-magic': { severity: DiagnosticSeverity.Error, spec: HEADER },
  'vbc/unsupported-version': { severity: DiagnosticSeverity.Error, spec: HEADER },
  'vbc/unsupported-shader-type': { severity: DiagnosticSeverity.Error, spec: HEADER },
  'vbc/no-stages': { severity: DiagnosticSeverity.Error, spec: HEADER },
  'vbc/section-past-end': { severity: DiagnosticSeverity.Error, spec: REFLECTION },
  'vbc/bad-base-type': { severity: DiagnosticSeverity.Error, spec: REFLECTION },
  'vbc/bad-dimensions': { severity: DiagnosticSeverity.Error, spec: REFLECTION },
  'vbc/duplicate-location': { severity: DiagnosticSeverity.Error, spec: REFLECTION },
  'vbc/bad-stage-mask': { severity: DiagnosticSeverity.Error, spec: REFLECTION },
  'vbc/reserved-not-zero': { severity: DiagnosticSeverity.Warning, spec: REFLECTION },
  'vbc/slot-out-of-range': { severity: DiagnosticSeverity.Error, spec: BINDINGS },
  'vbc/duplicate-slot': { severity: DiagnosticSeverity.Error, spec: BINDINGS },
  'vbc/bad-texel-rank': { severity: DiagnosticSeverity.Error, spec: BINDINGS },
  'vbc/bad-texel-type': { severity: DiagnosticSeverity.Error, spec: BINDINGS },
  'vbc/bad-texel-components': { severity: DiagnosticSeverity.Error, spec: BINDINGS },
  'vbc/binding-table-mismatch': { severity: DiagnosticSeverity.Error, spec: HEADER },
  'vbc/uniform-member-out-of-range': { severity: DiagnosticSeverity.Error, spec: 'VBC format: Reflection / Uniform Data' },
  'vbc/too-many-subpass-inputs': { severity: DiagnosticSeverity.Error, spec: 'VBC format: Reflection / Subpass Inputs (not to exceed 4)' },
  'vbc/bytecode-size-mismatch': { severity: DiagnosticSeverity.Error, spec: BYTECODE },
  // Cross-check: the reflection against what each stage's SPIR-V declares.
  'vbc/stage-model-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  'vbc/stage-link-mismatch': { severity: DiagnosticSeverity.Error, spec: 'Vulkan § 15.1.3 Interface Matching (by location and type)' },
  'vbc/unpaired-tessellation': { severity: DiagnosticSeverity.Error, spec: 'Vulkan: a pipeline has both tessellation stages or neither' },
  'vbc/vertex-input-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  'vbc/fragment-output-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  'vbc/binding-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  'vbc/stage-mask-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  'vbc/uniform-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  'vbc/subpass-input-mismatch': { severity: DiagnosticSeverity.Error, spec: CROSS },
  /** The SPIR-V declares something a VBC file cannot describe (docs/vbc.md, Mapping). */
  'vbc/unrepresentable': { severity: DiagnosticSeverity.Error, spec: 'docs/vbc.md, Mapping from SPIR-V' },
} as const;

export type VbcDiagnosticCode = keyof typeof vbcDiagnosticCodes;

export function vbcDiagnostic(code: VbcDiagnosticCode, byteOffset: number, byteLength: number, message: string): Diagnostic {
  return strataDiagnostic(vbcDiagnosticCodes, code, binaryRange(byteOffset, byteLength), message, { byteOffset });
}
