import { generatorName } from './spirv-grammar';
import { parseSpirv, type ParsedModule } from './spirv-instructions';
import { reflectModule } from './spirv-reflect';
import { validateParsed } from './spirv-validate';
import type { ShaderInspection, SpirvSummary } from './shader-inspection';

/** One decode, three views: summary (header and mode-setting), reflection, validation diagnostics. */
export function summarizeModule(module: ParsedModule): SpirvSummary | null {
  const { header } = module;
  if (!header) return null;
  const tool = header.generator >>> 16;
  const strings = (opname: string, index: number) =>
    module.instructions
      .filter((i) => i.opname === opname)
      .map((i) => i.operands[index])
      .flatMap((o) => (o?.type === 'string' ? [o.value] : []));
  const memoryModel = module.instructions.find((i) => i.opname === 'OpMemoryModel');
  const enumAt = (index: number) => {
    const o = memoryModel?.operands[index];
    return o?.type === 'enum' ? (o.name ?? String(o.value)) : null;
  };
  return {
    version: `${header.version.major}.${header.version.minor}`,
    endianness: header.endianness,
    generator: `${generatorName(tool) ?? `Unknown(${tool})`}; ${header.generator & 0xffff}`,
    bound: header.bound,
    instructionCount: module.instructions.length,
    capabilities: module.instructions
      .filter((i) => i.opname === 'OpCapability')
      .flatMap((i) => (i.operands[0]?.type === 'enum' ? [i.operands[0].name ?? String(i.operands[0].value)] : [])),
    extensions: strings('OpExtension', 0),
    extInstImports: strings('OpExtInstImport', 1),
    addressingModel: enumAt(0),
    memoryModel: enumAt(1),
  };
}

export function inspectSpirv(bytes: Uint8Array): Omit<ShaderInspection, 'path'> {
  return inspectParsed(parseSpirv(bytes));
}

/** The same for a module already parsed (the Shaders panel disassembles it too). */
export function inspectParsed(module: ParsedModule): Omit<ShaderInspection, 'path'> {
  const { ok, diagnostics } = validateParsed(module);
  // LSP 3.18 allows MarkupContent messages; ours are plain strings, and the contract says so.
  return {
    ok,
    summary: summarizeModule(module),
    reflection: reflectModule(module),
    diagnostics: diagnostics.map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value })),
  };
}
