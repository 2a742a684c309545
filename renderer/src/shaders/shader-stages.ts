import type { DisassemblyTexts, ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import type { SpirvReflection } from '../../../shared/shader/spirv-reflect';
import { VBC_STAGES, type VbcStage } from '../../../shared/shader/vbc-enums';

/**
 * What the Interface, Bindings and Disassembly tabs show: for a SPIR-V module, the module; for a VBC
 * file, the stage picked in the stage selector (each stage is a SPIR-V module of its own, with its own
 * reflection and text). React-free, so it is unit-tested.
 */
export interface ModuleView {
  /** null for a SPIR-V module. */
  stage: VbcStage | null;
  reflection: SpirvReflection;
  texts: DisassemblyTexts;
}

export const STAGE_LABELS: Readonly<Record<VbcStage, string>> = {
  vert: 'Vertex',
  tesc: 'Tessellation control',
  tese: 'Tessellation evaluation',
  geom: 'Geometry',
  frag: 'Fragment',
};

export const isVbcModule = (module: ShaderInspectBytes): boolean => module.format === 'vbc';

/** The stages a VBC file holds, in file order (vert, tesc, tese, geom, frag); none for SPIR-V. */
export function stagesOf(module: ShaderInspectBytes): VbcStage[] {
  if (!isVbcModule(module)) return [];
  const present = new Set(module.stages?.map((s) => s.stage));
  return VBC_STAGES.filter((s) => present.has(s));
}

const NO_TEXTS: DisassemblyTexts = { disassembly: '', rawDisassembly: '', idNames: [] };
const NO_REFLECTION: SpirvReflection = { entryPoints: [], descriptorBindings: [], pushConstants: [], specializationConstants: [] };

/** The module itself, or the chosen stage of a VBC file (the first one when `stage` is not in it). */
export function moduleView(module: ShaderInspectBytes, stage: VbcStage | null): ModuleView {
  if (!isVbcModule(module))
    return {
      stage: null,
      reflection: module.reflection,
      texts: { disassembly: module.disassembly, rawDisassembly: module.rawDisassembly, idNames: module.idNames },
    };
  const stages = stagesOf(module);
  const chosen = stage !== null && stages.includes(stage) ? stage : (stages[0] ?? null);
  const inspection = module.stages?.find((s) => s.stage === chosen);
  const texts = module.stageDisassemblies?.find((s) => s.stage === chosen);
  return {
    stage: chosen,
    reflection: inspection?.reflection ?? NO_REFLECTION,
    texts: texts ? { disassembly: texts.disassembly, rawDisassembly: texts.rawDisassembly, idNames: texts.idNames } : NO_TEXTS,
  };
}

/** The file name the Pack dialog suggests: the first stage file's name with .vbc for its extension. */
export function packedFileName(stageFileNames: readonly string[]): string {
  const first = stageFileNames[0];
  if (!first) return 'shader.vbc';
  const base = first.replace(/\.spv$/i, '').replace(/\.(vert|tesc|tese|geom|frag)$/i, '');
  return `${base || 'shader'}.vbc`;
}
