import type { Diagnostic } from 'vscode-languageserver-types';
import { generatorName } from './spirv-grammar';
import { parseSpirv, type ParsedInstruction, type ParsedModule, type ParsedOperand } from './spirv-instructions';
import { formatNumber } from './spirv-number-format';
import type { SpirvHeader } from './spirv-reader';

/**
 * SPIR-V binary → text, identical to `spirv-dis --raw-id` (SPIRV-Tools 2023.1, default options:
 * indented, no colour, no friendly names) for every module spirv-dis accepts. Where spirv-dis
 * refuses a module, Strata still prints what it could decode (undecodable words as numbers, an
 * unknown opcode as `Op<n>`) and says what is wrong in `diagnostics`.
 */
export interface Disassembly {
  text: string;
  diagnostics: Diagnostic[];
  /** False when the module has errors; `text` is then Strata's best effort, not spirv-dis's. */
  ok: boolean;
}

/** spirv-dis's default indent: a result id is right-aligned so that " = " ends at this column. */
const INDENT = 15;

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

/** A literal string as spirv-dis writes it: quoted, with `"` and `\` escaped by a backslash. */
function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

export function formatOperand(operand: ParsedOperand): string {
  switch (operand.type) {
    case 'id':
      return `%${operand.id}`;
    case 'string':
      return quote(operand.value);
    case 'number':
      return formatNumber(operand.numberKind, operand.width, operand.words);
    case 'enum':
      return operand.name ?? String(operand.value);
    case 'mask':
      return operand.names.length ? operand.names.join('|') : String(operand.value);
    case 'ext-inst':
      return operand.name ?? String(operand.value);
    case 'spec-op':
      // spirv-dis names the inner opcode without its "Op" prefix: `OpSpecConstantOp %int IAdd %a %b`.
      return operand.name ? operand.name.replace(/^Op/, '') : String(operand.value);
    case 'raw':
      return String(operand.value >>> 0);
  }
}

export function formatInstruction(inst: ParsedInstruction): string {
  let line: string;
  if (inst.resultId !== undefined) {
    const id = String(inst.resultId);
    line = `${' '.repeat(Math.max(0, INDENT - 4 - id.length))}%${id} = `;
  } else line = ' '.repeat(INDENT);
  line += inst.opname ?? `Op${inst.opcode}`;
  for (const operand of inst.operands) {
    if (operand.type === 'id' && operand.kind === 'IdResult') continue;
    line += ` ${formatOperand(operand)}`;
  }
  return line;
}

export function disassembleModule(module: ParsedModule): Disassembly {
  const parts: string[] = [];
  if (module.header) parts.push(formatHeader(module.header));
  for (const inst of module.instructions) parts.push(`${formatInstruction(inst)}\n`);
  const ok = !module.diagnostics.some((d) => d.severity === 1);
  return { text: parts.join(''), diagnostics: module.diagnostics, ok };
}

export function disassembleSpirv(bytes: Uint8Array): Disassembly {
  return disassembleModule(parseSpirv(bytes));
}
