import { spirvGenerators, spirvGrammarJson, type GeneratedGrammar } from './spirv-grammar.generated';

/**
 * Lookups over the generated grammar tables (spirv-grammar.generated.ts): opcode → instruction,
 * (operand kind, value) → enumerant, GLSL.std.450 number → extended instruction. Built once, lazily.
 */
export type Quantifier = '' | '?' | '*';

export interface OperandSpec {
  kind: string;
  quantifier: Quantifier;
  name?: string;
}

export interface InstructionSpec {
  opcode: number;
  opname: string;
  opclass: string;
  operands: readonly OperandSpec[];
  hasResultType: boolean;
  hasResult: boolean;
}

export interface EnumerantSpec {
  name: string;
  value: number;
  parameters: readonly OperandSpec[];
}

export interface ExtInstructionSpec {
  opcode: number;
  opname: string;
  operands: readonly OperandSpec[];
}

/** Parses the generated "Kind?:name" form. */
export function parseOperandSpec(text: string): OperandSpec {
  const colon = text.indexOf(':');
  const head = colon < 0 ? text : text.slice(0, colon);
  const last = head.at(-1);
  const quantifier: Quantifier = last === '?' || last === '*' ? last : '';
  const spec: OperandSpec = { kind: quantifier ? head.slice(0, -1) : head, quantifier };
  if (colon >= 0) spec.name = text.slice(colon + 1);
  return spec;
}

/** An operand kind's category, and a composite's parts (an enum's enumerants: enumerantsOf). */
export type OperandKindInfo =
  { readonly category: 'BitEnum' | 'ValueEnum' | 'Id' | 'Literal' } | { readonly category: 'Composite'; readonly bases: readonly string[] };

interface Tables {
  instructions: Map<number, InstructionSpec>;
  kinds: Map<string, OperandKindInfo>;
  enumerants: Map<string, Map<number, EnumerantSpec>>;
  glsl: Map<number, ExtInstructionSpec>;
}

let tables: Tables | undefined;

function build(): Tables {
  // The generated tables as parsed here are dropped once the lookups below are built (what a `shader`
  // startup snapshot keeps, and each such command reads back; issue #19).
  const grammar = JSON.parse(spirvGrammarJson) as GeneratedGrammar;
  const instructions = new Map<number, InstructionSpec>();
  for (const [opcode, opname, opclass, operands] of grammar.instructions) {
    // Aliases share an opcode: SPIRV-Tools sorts its table by (opcode, name), so spirv-dis prints
    // the alphabetically first (OpTypeAccelerationStructureKHR, not …NV).
    const known = instructions.get(opcode);
    if (known && known.opname < opname) continue;
    const specs = operands.map(parseOperandSpec);
    instructions.set(opcode, {
      opcode,
      opname,
      opclass,
      operands: specs,
      hasResultType: specs[0]?.kind === 'IdResultType',
      hasResult: specs.some((s) => s.kind === 'IdResult'),
    });
  }
  const kinds = new Map<string, OperandKindInfo>();
  const enumerants = new Map<string, Map<number, EnumerantSpec>>();
  for (const [kind, info] of Object.entries(grammar.operandKinds)) {
    kinds.set(kind, info.category === 'Composite' ? { category: info.category, bases: info.bases } : { category: info.category });
    if (info.category !== 'BitEnum' && info.category !== 'ValueEnum') continue;
    const byValue = new Map<number, EnumerantSpec>();
    for (const [name, value, parameters] of info.enumerants) {
      if (!byValue.has(value)) byValue.set(value, { name, value, parameters: (parameters ?? []).map(parseOperandSpec) });
    }
    enumerants.set(kind, byValue);
  }
  const glsl = new Map<number, ExtInstructionSpec>();
  for (const [opcode, opname, operands] of grammar.glsl) glsl.set(opcode, { opcode, opname, operands: operands.map(parseOperandSpec) });
  return { instructions, kinds, enumerants, glsl };
}

function get(): Tables {
  return (tables ??= build());
}

export function instructionSpec(opcode: number): InstructionSpec | undefined {
  return get().instructions.get(opcode);
}

export function operandKind(kind: string): OperandKindInfo | undefined {
  return get().kinds.get(kind);
}

export function enumerant(kind: string, value: number): EnumerantSpec | undefined {
  return get().enumerants.get(kind)?.get(value);
}

/** Every enumerant of a ValueEnum or BitEnum kind, by value (empty for other kinds). */
export function enumerantsOf(kind: string): ReadonlyMap<number, EnumerantSpec> {
  return get().enumerants.get(kind) ?? new Map();
}

export function glslStd450Instruction(opcode: number): ExtInstructionSpec | undefined {
  return get().glsl.get(opcode);
}

/** "Khronos Glslang Reference Front End", "LunarG", or undefined for an id not registered in spir-v.xml. */
export function generatorName(tool: number): string | undefined {
  return Object.prototype.hasOwnProperty.call(spirvGenerators, tool) ? spirvGenerators[tool] : undefined;
}
