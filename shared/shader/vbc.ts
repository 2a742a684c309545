import type { Diagnostic } from 'vscode-languageserver-types';
import type { ShaderInspection } from './shader-inspection';
import { summarizeModule } from './spirv-inspect';
import { parseSpirv } from './spirv-instructions';
import { reflectModule, type SpirvReflection } from './spirv-reflect';
import { validateParsed } from './spirv-validate';
import { vbcDiagnostic } from './vbc-diagnostic-codes';
import { VBC_STAGES, type VbcStage } from './vbc-enums';
import { decodeVbc, encodeVbc, isVbc, sectionItemOffset, type DecodedVbc, type VbcReflection } from './vbc-format';
import { SPIRV_MAGIC } from './spirv-reader';
import { compareVbcReflection, deriveVbcReflection, linkProblems, stageProblems, type VbcProblem, type VbcStageReflection } from './vbc-reflection';

/**
 * VBC ("Vega ByteCode") files: inspect (decode, validate, decode each stage's SPIR-V with the SPIR-V
 * reader, validator and reflection, then cross-check the file's reflection against the stages') and
 * pack (SPIR-V stages → a VBC file whose reflection is derived from them). Pure: bytes in, values out.
 */

/**
 * Whether to read a file as VBC: its magic says "VBC", or its name ends in .vbc and it is not a
 * SPIR-V module either (so a VBC file with a damaged magic is diagnosed as VBC: vbc/bad-magic).
 */
export function readAsVbc(bytes: Uint8Array, name: string): boolean {
  if (isVbc(bytes)) return true;
  if (!/\.vbc$/i.test(name)) return false;
  const first = bytes.length >= 4 ? (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0 : 0;
  return first !== SPIRV_MAGIC && first !== 0x03022307;
}

type StageInspection = NonNullable<ShaderInspection['stages']>[number];
const plain = (d: Diagnostic) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value });

function inspectStage(stage: VbcStage, byteOffset: number, bytes: Uint8Array): StageInspection {
  const module = parseSpirv(bytes);
  const { ok, diagnostics } = validateParsed(module);
  return {
    stage,
    byteOffset,
    byteLength: bytes.length,
    ok,
    summary: summarizeModule(module),
    reflection: reflectModule(module),
    diagnostics: diagnostics.map(plain),
  };
}

/** A stage's SPIR-V diagnostic as a diagnostic of the file: same code, range in bytes of the file. */
function liftStageDiagnostic(s: StageInspection, d: StageInspection['diagnostics'][number]) {
  const at = (c: number) => Math.min(s.byteOffset + c * 4, s.byteOffset + s.byteLength);
  return {
    ...d,
    range: { start: { line: 0, character: at(d.range.start.character) }, end: { line: 0, character: at(d.range.end.character) } },
    message: `${s.stage}: ${d.message}`,
    data: { ...(typeof d.data === 'object' && d.data ? d.data : {}), stage: s.stage, byteOffset: at(d.range.start.character) },
  };
}

/** Where a cross-check finding points in the file: the entry it names, else its section, else the bytecode of its stage. */
function placeProblem(decoded: DecodedVbc, p: VbcProblem): Diagnostic {
  let offset = 0;
  let length = 0;
  if (p.section) {
    const section = decoded.sections.find((s) => s.name === p.section);
    offset = section?.byteOffset ?? 0;
    length = section?.byteLength ?? 0;
    if (p.index !== undefined && p.index >= 0) {
      if (p.section === 'uniform') {
        offset = decoded.uniformMemberOffsets[p.index] ?? offset;
        length = 1;
      } else {
        const size = p.section === 'subpass inputs' ? 4 : 8;
        offset = sectionItemOffset(decoded, p.section, p.index, size);
        length = size;
      }
    }
  } else if (p.stage) {
    const section = decoded.sections.find((s) => s.name === `bytecode ${p.stage}`);
    offset = section?.byteOffset ?? 0;
    length = section?.byteLength ?? 0;
  }
  const d = vbcDiagnostic(p.code, offset, length, p.message);
  if (p.stage) d.data = { ...(d.data as object), stage: p.stage };
  return d;
}

/** The union of the stages' reflections: every entry point, each (set, binding) once, every push constant block and specialization constant. */
function unionReflection(stages: StageInspection[]): SpirvReflection {
  const seen = new Set<string>();
  const union: SpirvReflection = { entryPoints: [], descriptorBindings: [], pushConstants: [], specializationConstants: [] };
  for (const s of stages) {
    union.entryPoints.push(...s.reflection.entryPoints);
    for (const d of s.reflection.descriptorBindings) {
      if (seen.has(`${d.set}:${d.binding}`)) continue;
      seen.add(`${d.set}:${d.binding}`);
      union.descriptorBindings.push(d);
    }
    union.pushConstants.push(...s.reflection.pushConstants);
    union.specializationConstants.push(...s.reflection.specializationConstants);
  }
  union.descriptorBindings.sort((a, b) => a.set - b.set || a.binding - b.binding);
  return union;
}

/** Decode + validate + per-stage SPIR-V + cross-check: what `shader.inspect` answers for a VBC file (less `path`). */
export function inspectVbc(bytes: Uint8Array): Omit<ShaderInspection, 'path'> {
  const decoded = decodeVbc(bytes);
  const stages = decoded.stages.map((s) => inspectStage(s.stage, s.byteOffset, s.bytes));
  const diagnostics: Diagnostic[] = [...decoded.diagnostics];
  for (const s of stages) diagnostics.push(...s.diagnostics.map((d) => liftStageDiagnostic(s, d) as Diagnostic));
  // Cross-check only a file whose reflection and bytecode were read whole: otherwise every finding would be an echo of the damage.
  const readWhole =
    decoded.header !== null &&
    decoded.sections.some((s) => s.name === 'subpass inputs') &&
    !decoded.diagnostics.some((d) => d.code === 'vbc/bytecode-size-mismatch');
  if (readWhole && stages.length) {
    const reflections: VbcStageReflection[] = stages.map((s) => ({ stage: s.stage, reflection: s.reflection }));
    const derived = deriveVbcReflection(reflections);
    const problems = [...stageProblems(reflections), ...linkProblems(reflections), ...derived.problems, ...compareVbcReflection(decoded.reflection, derived)];
    diagnostics.push(...problems.map((p) => placeProblem(decoded, p)));
  }
  diagnostics.sort((a, b) => a.range.start.character - b.range.start.character);
  return {
    ok: !diagnostics.some((d) => d.severity === 1),
    summary: null,
    reflection: unionReflection(stages),
    diagnostics: diagnostics.map(plain),
    format: 'vbc',
    vbc: { header: decoded.header, sections: decoded.sections, reflection: decoded.reflection },
    stages,
  };
}

export type VbcStageInput = Partial<Record<VbcStage, Uint8Array>>;

export interface PackedVbc {
  /** False when a stage does not validate, the stages do not link, or the SPIR-V uses what VBC cannot describe. */
  ok: boolean;
  /** The file; null when not ok. */
  bytes: Uint8Array | null;
  reflection: VbcReflection | null;
  /** SPIR-V diagnostics keep their word ranges in their stage's module; the others have an empty range. `data.stage` names the stage. */
  diagnostics: Diagnostic[];
}

/** SPIR-V words in little-endian byte order (VBC files are little-endian; a big-endian module is swapped). */
function littleEndian(bytes: Uint8Array, big: boolean): Uint8Array {
  const out = bytes.slice(0, Math.floor(bytes.length / 4) * 4);
  if (big) for (let i = 0; i < out.length; i += 4) out.set([out[i + 3]!, out[i + 2]!, out[i + 1]!, out[i]!], i);
  return out;
}

/** SPIR-V stages → a VBC file with the reflection derived from them (docs/vbc.md, "Mapping from SPIR-V"). */
export function packVbc(stages: VbcStageInput): PackedVbc {
  const diagnostics: Diagnostic[] = [];
  const reflections: VbcStageReflection[] = [];
  const words: VbcStageInput = {};
  const problem = (p: VbcProblem) => {
    const d = vbcDiagnostic(p.code, 0, 0, p.stage ? `${p.stage}: ${p.message}` : p.message);
    if (p.stage) d.data = { ...(d.data as object), stage: p.stage };
    diagnostics.push(d);
  };
  for (const stage of VBC_STAGES) {
    const bytes = stages[stage];
    if (!bytes) continue;
    const module = parseSpirv(bytes);
    const validation = validateParsed(module);
    for (const d of validation.diagnostics)
      diagnostics.push({ ...plain(d), message: `${stage}: ${plain(d).message}`, data: { ...(typeof d.data === 'object' && d.data ? d.data : {}), stage } });
    if (!module.header) continue;
    reflections.push({ stage, reflection: reflectModule(module) });
    words[stage] = littleEndian(bytes, module.header.endianness === 'big');
    if (bytes.length / 4 > 0xffff)
      problem({
        code: 'vbc/unrepresentable',
        stage,
        message: `The module is ${Math.floor(bytes.length / 4)} words; a VBC bytecode size is a u16 (at most 65535 words).`,
      });
  }
  if (!Object.keys(stages).some((k) => stages[k as VbcStage]))
    problem({ code: 'vbc/no-stages', message: 'No stage was given: name at least one SPIR-V module.' });
  const derived = deriveVbcReflection(reflections);
  [...stageProblems(reflections), ...linkProblems(reflections), ...derived.problems].forEach(problem);
  const ok = !diagnostics.some((d) => d.severity === 1);
  return { ok, bytes: ok ? encodeVbc(derived.reflection, words) : null, reflection: ok ? derived.reflection : null, diagnostics };
}
