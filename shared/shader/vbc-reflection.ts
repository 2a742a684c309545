import type { BlockMember, DescriptorBinding, EntryPoint, InterfaceVariable, SpirvReflection } from './spirv-reflect';
import type { VbcDiagnosticCode } from './vbc-diagnostic-codes';
import {
  BaseType,
  TEXEL_FORMATS,
  TexelRank,
  TexelType,
  VBC_EXECUTION_MODELS,
  VBC_STAGES,
  baseTypeName,
  texelRankName,
  texelTypeName,
  type VbcStage,
} from './vbc-enums';
import { MAX_SLOTS, MAX_SUBPASS_INPUTS, type VbcBinding, type VbcInterfaceVariable, type VbcReflection, type VbcUniformMember } from './vbc-format';

/**
 * The VBC reflection that a set of SPIR-V stages implies (docs/vbc.md, "Mapping from SPIR-V"), the
 * interface matching between consecutive stages, and the comparison of a file's reflection with the
 * implied one. The packer writes exactly what `deriveVbcReflection` answers, so a packed file
 * cross-checks clean; a file from elsewhere is held to the same mapping.
 */
export interface VbcStageReflection {
  stage: VbcStage;
  reflection: SpirvReflection;
}

/** A finding without a position: the caller places it (a byte range of the file, or a stage's input). */
export interface VbcProblem {
  code: VbcDiagnosticCode;
  message: string;
  stage?: VbcStage;
  /** For cross-check findings: the section of the file and the index of the entry in it (-1: the section). */
  section?: 'vertex inputs' | 'fragment outputs' | 'bindings' | 'uniform' | 'subpass inputs';
  index?: number;
}

export interface DerivedVbcReflection {
  reflection: VbcReflection;
  /** Where each binding of `reflection.bindings` comes from (same order). */
  bindingSources: { set: number; binding: number; name: string }[];
  problems: VbcProblem[];
}

const bit = (stage: VbcStage) => 1 << VBC_STAGES.indexOf(stage);

/** A GLSL type as spirv-reflect.ts spells it (`vec3`, `mat3x4`, `uint[4]`, `struct S { vec3 a; … }[2]`). */
export interface GlslType {
  /** A BaseType; undefined for widths VBC cannot describe (double, 16- and 64-bit types). */
  base: number | undefined;
  rows: number;
  cols: number;
  /** Array dimensions, outermost first; 0 is runtime-sized. */
  arrays: number[];
  struct?: { name: string; members: { type: string; name: string }[] | undefined };
  text: string;
}

export function parseGlslType(text: string): GlslType | undefined {
  const s = /^struct (\S+?)(?: \{ (.*) \})?((?:\[\d*\])*)$/.exec(text);
  const arrays = (suffix: string) => [...suffix.matchAll(/\[(\d*)\]/g)].map((m) => (m[1] ? Number(m[1]) : 0));
  if (s) {
    const members = s[2]
      ?.split(';')
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => ({ type: x.slice(0, x.lastIndexOf(' ')), name: x.slice(x.lastIndexOf(' ') + 1) }));
    return { base: BaseType.Struct, rows: 1, cols: 1, arrays: arrays(s[3] ?? ''), struct: { name: s[1]!, members }, text };
  }
  const m = /^([a-z0-9_]+?)((?:\[\d*\])*)$/.exec(text);
  if (!m) return undefined;
  const name = m[1]!;
  const dims = arrays(m[2] ?? '');
  const scalar: Record<string, number> = { bool: BaseType.Boolean, int: BaseType.Signed, uint: BaseType.Unsigned, float: BaseType.Float };
  if (name in scalar) return { base: scalar[name], rows: 1, cols: 1, arrays: dims, text };
  const v = /^([biu]?)vec([234])$/.exec(name);
  if (v)
    return {
      base: { b: BaseType.Boolean, i: BaseType.Signed, u: BaseType.Unsigned, '': BaseType.Float }[v[1]!],
      rows: Number(v[2]),
      cols: 1,
      arrays: dims,
      text,
    };
  const mat = /^mat([234])(?:x([234]))?$/.exec(name);
  if (mat) return { base: BaseType.Float, rows: Number(mat[2] ?? mat[1]), cols: Number(mat[1]), arrays: dims, text };
  // double, dvecN, dmatN, float16_t, int64_t, u8vec4, …: VBC has no width field.
  return { base: undefined, rows: 1, cols: 1, arrays: dims, text };
}

const product = (dims: number[]) => dims.reduce((a, d) => a * d, 1);

/** The entry point of a stage's module that has the stage's execution model (else the first). */
export function stageEntryPoint(s: VbcStageReflection): EntryPoint | undefined {
  return s.reflection.entryPoints.find((e) => e.executionModel === VBC_EXECUTION_MODELS[s.stage]) ?? s.reflection.entryPoints[0];
}

const userVariables = (vars: InterfaceVariable[] | undefined) => (vars ?? []).filter((v) => v.builtIns.length === 0);

function interfaceEntry(v: InterfaceVariable, stage: VbcStage, fragmentOutput: boolean, problems: VbcProblem[]): VbcInterfaceVariable | undefined {
  const what = `${stage} ${fragmentOutput ? 'output' : 'input'} "${v.name || v.blockName}" (${v.type})`;
  const t = parseGlslType(v.type);
  const fail = (why: string) => void problems.push({ code: 'vbc/unrepresentable', stage, message: `${what}: ${why}` });
  if (v.location === undefined || v.location > 255) return fail(`its location ${v.location ?? '(none)'} is not a u8`);
  if (!t || t.base === undefined || t.base === BaseType.Struct)
    return fail('VBC describes only 32-bit scalars, vectors and matrices (no structs, no other widths)');
  const arraySize = product(t.arrays);
  if (arraySize < 1 || arraySize > 255) return fail(`array size ${arraySize} does not fit (1–255)`);
  if (fragmentOutput && (t.cols !== 1 || t.arrays.length)) return fail('a VBC fragment output is never a matrix or an array');
  return { location: v.location, baseType: t.base, dims: [t.rows, t.cols], arraySize };
}

function texelInfo(
  d: DescriptorBinding,
  stage: VbcStage,
  problems: VbcProblem[],
): { rank: number; texelType: number; texelSize: number; texelComponents: number } | undefined {
  if (d.type === 'sampler') return { rank: TexelRank.None, texelType: 0, texelSize: 0, texelComponents: 0 };
  const m = /^([iu]?)(?:sampler|texture|image)(1D|2D|2DRect|3D|Cube|Buffer)(MS)?(Array)?(?:Shadow)?$/.exec(d.type);
  if (!m) {
    problems.push({ code: 'vbc/unrepresentable', stage, message: `${stage} set ${d.set} binding ${d.binding} "${d.name}" (${d.type}) has no VBC texel rank.` });
    return undefined;
  }
  const [, prefix, dim, ms, array] = m;
  const rank =
    dim === 'Buffer'
      ? TexelRank.Buffer
      : dim === '3D'
        ? TexelRank.E3D
        : dim === 'Cube'
          ? array
            ? TexelRank.CubeArray
            : TexelRank.Cube
          : dim === '1D'
            ? array
              ? TexelRank.E1DArray
              : TexelRank.E1D
            : ms
              ? array
                ? TexelRank.E2DMSArray
                : TexelRank.E2DMS
              : array
                ? TexelRank.E2DArray
                : TexelRank.E2D;
  if (d.imageFormat && d.imageFormat !== 'Unknown') {
    const f = TEXEL_FORMATS[d.imageFormat];
    if (!f) {
      problems.push({
        code: 'vbc/unrepresentable',
        stage,
        message: `${stage} set ${d.set} binding ${d.binding} "${d.name}": image format ${d.imageFormat} is not in Strata's VBC texel format table.`,
      });
      return undefined;
    }
    return { rank, texelType: f[0], texelSize: f[1], texelComponents: f[2] };
  }
  return { rank, texelType: prefix === 'i' ? TexelType.Signed : prefix === 'u' ? TexelType.Unsigned : TexelType.Float, texelSize: 4, texelComponents: 4 };
}

function uniformMember(m: BlockMember, problems: VbcProblem[]): VbcUniformMember | undefined {
  const t = parseGlslType(m.type.replace(/ \{.*\}/, ''));
  const fail = (why: string) => void problems.push({ code: 'vbc/unrepresentable', message: `Uniform member "${m.name}" (${m.type}): ${why}` });
  if (!/^[\x20-\x7e]{0,255}$/.test(m.name)) return fail('its name is not printable ASCII of at most 255 characters');
  if (m.offset === undefined || m.offset > 0xffff) return fail(`its offset ${m.offset ?? '(none)'} is not a u16`);
  if (!t || t.base === undefined) return fail('VBC describes only 32-bit numeric types and structs');
  const arraySize = product(m.arraySize ?? []);
  if (arraySize < 1 || arraySize > 255) return fail(`array size ${arraySize} does not fit (1–255)`);
  return { name: m.name, offset: m.offset, baseType: t.base, dims: [t.rows, t.cols], arraySize };
}

export function deriveVbcReflection(stages: VbcStageReflection[]): DerivedVbcReflection {
  const problems: VbcProblem[] = [];
  const reflection: VbcReflection = { vertexInputs: [], fragmentOutputs: [], bindings: [], uniform: null, subpassInputs: [] };
  const bindingSources: DerivedVbcReflection['bindingSources'] = [];
  const byLocation = (a: VbcInterfaceVariable, b: VbcInterfaceVariable) => a.location - b.location;

  const vert = stages.find((s) => s.stage === 'vert');
  if (vert)
    reflection.vertexInputs = userVariables(stageEntryPoint(vert)?.inputs)
      .flatMap((v) => interfaceEntry(v, 'vert', false, problems) ?? [])
      .sort(byLocation);
  const frag = stages.find((s) => s.stage === 'frag');
  if (frag)
    reflection.fragmentOutputs = userVariables(stageEntryPoint(frag)?.outputs)
      .flatMap((v) => interfaceEntry(v, 'frag', true, problems) ?? [])
      .sort(byLocation);

  // Descriptors of every stage, once per (set, binding), with the stages that declare them.
  const descriptors = new Map<string, { d: DescriptorBinding; mask: number; stage: VbcStage }>();
  for (const s of stages) {
    for (const d of s.reflection.descriptorBindings) {
      const key = `${d.set}:${d.binding}`;
      const seen = descriptors.get(key);
      if (!seen) descriptors.set(key, { d, mask: bit(s.stage), stage: s.stage });
      else if (seen.d.kind !== d.kind || seen.d.type !== d.type) {
        problems.push({
          code: 'vbc/stage-link-mismatch',
          stage: s.stage,
          message: `Set ${d.set} binding ${d.binding} is ${seen.d.kind} ${seen.d.type} in ${seen.stage} but ${d.kind} ${d.type} in ${s.stage}.`,
        });
      } else seen.mask |= bit(s.stage);
    }
  }
  const sorted = [...descriptors.values()].sort((a, b) => a.d.set - b.d.set || a.d.binding - b.d.binding);
  const uniformBlock = sorted.find((x) => x.d.kind === 'uniform buffer' && !x.d.arraySize.length);
  const attachments: { d: DescriptorBinding; stage: VbcStage }[] = [];
  for (const x of sorted) {
    const { d, mask, stage } = x;
    const where = `${stage} set ${d.set} binding ${d.binding} "${d.name || d.block?.typeName}"`;
    if (d.arraySize.length) {
      problems.push({ code: 'vbc/unrepresentable', stage, message: `${where} is an array of descriptors (${d.type}); a VBC binding is one descriptor.` });
      continue;
    }
    if (d.kind === 'acceleration structure') {
      problems.push({ code: 'vbc/unrepresentable', stage, message: `${where} is an acceleration structure; VBC has no binding kind for it.` });
      continue;
    }
    if (d.kind === 'input attachment') {
      attachments.push({ d, stage });
      continue;
    }
    if (x === uniformBlock) {
      const block = d.block!;
      if (block.size < 1 || block.size > 0xffff)
        problems.push({ code: 'vbc/unrepresentable', stage, message: `${where}: the uniform's size ${block.size} is not a non-zero u16.` });
      else reflection.uniform = { size: block.size, stageMask: mask, members: block.members.flatMap((m) => uniformMember(m, problems) ?? []) };
      continue;
    }
    const slot = reflection.bindings.length;
    if (slot >= MAX_SLOTS) {
      problems.push({ code: 'vbc/unrepresentable', stage, message: `${where} would be binding ${slot + 1}; a VBC file has at most ${MAX_SLOTS} slots.` });
      continue;
    }
    let binding: VbcBinding | undefined;
    if (d.kind === 'uniform buffer' || d.kind === 'storage buffer') {
      const size = d.block?.runtimeArrayStride ?? d.block?.size ?? 0;
      if (size > 0xffff) problems.push({ code: 'vbc/unrepresentable', stage, message: `${where}: its element size ${size} is not a u16.` });
      else
        binding = {
          layout: 'buffer',
          slot,
          baseType: d.kind === 'storage buffer' && d.access !== 'read-only' ? BaseType.RWBuffer : BaseType.ROBuffer,
          stageMask: mask,
          bufferSize: size,
        };
    } else {
      const baseType = {
        sampler: BaseType.Sampler,
        'combined image sampler': BaseType.Sampler,
        'sampled image': BaseType.Sampler,
        'storage image': BaseType.Image,
        'uniform texel buffer': BaseType.ROTexels,
        'storage texel buffer': BaseType.RWTexels,
      }[d.kind];
      const texel = texelInfo(d, stage, problems);
      if (texel) binding = { layout: 'texel', slot, baseType, stageMask: mask, ...texel };
    }
    if (binding) {
      reflection.bindings.push(binding);
      bindingSources.push({ set: d.set, binding: d.binding, name: d.name || d.block?.typeName || '' });
    }
  }
  attachments.sort((a, b) => (a.d.inputAttachmentIndex ?? 0) - (b.d.inputAttachmentIndex ?? 0));
  if (attachments.length > MAX_SUBPASS_INPUTS)
    problems.push({
      code: 'vbc/too-many-subpass-inputs',
      stage: attachments[0]!.stage,
      message: `The stages use ${attachments.length} input attachments; a VBC file holds at most ${MAX_SUBPASS_INPUTS}.`,
    });
  attachments.forEach(({ d, stage }, i) => {
    if (d.inputAttachmentIndex !== i)
      problems.push({
        code: 'vbc/unrepresentable',
        stage,
        message: `Input attachment "${d.name}" has index ${d.inputAttachmentIndex ?? '(none)'}; VBC subpass inputs are contiguous from 0, so it would be ${i}.`,
      });
    const prefix = /^([iu]?)subpassInput/.exec(d.type)?.[1];
    reflection.subpassInputs.push({ texelType: prefix === 'i' ? TexelType.Signed : prefix === 'u' ? TexelType.Unsigned : TexelType.Float, components: 4 });
  });
  return { reflection, bindingSources, problems };
}

/** Stage order and models: each module has an entry point of its stage; both tessellation stages or neither. */
export function stageProblems(stages: VbcStageReflection[]): VbcProblem[] {
  const problems: VbcProblem[] = [];
  for (const s of stages) {
    const model = VBC_EXECUTION_MODELS[s.stage];
    if (!s.reflection.entryPoints.some((e) => e.executionModel === model)) {
      const found = s.reflection.entryPoints.map((e) => e.executionModel).join(', ') || 'no entry point';
      problems.push({ code: 'vbc/stage-model-mismatch', stage: s.stage, message: `The ${s.stage} stage's SPIR-V has ${found}, not a ${model} entry point.` });
    }
  }
  const has = (st: VbcStage) => stages.some((s) => s.stage === st);
  if (has('tesc') !== has('tese'))
    problems.push({
      code: 'vbc/unpaired-tessellation',
      stage: has('tesc') ? 'tesc' : 'tese',
      message: `The file has ${has('tesc') ? 'tesc' : 'tese'} without ${has('tesc') ? 'tese' : 'tesc'}; tessellation needs both stages.`,
    });
  return problems;
}

/** Location-sized pieces of an interface variable: key "location" or "patch location" (and ".component"). */
function locationSlots(v: InterfaceVariable, perVertex: boolean): Map<string, string> {
  const slots = new Map<string, string>();
  const t = parseGlslType(v.type);
  const prefix = v.qualifiers.includes('Patch') ? 'patch ' : '';
  const put = (location: number, what: string) => slots.set(`${prefix}${location}${v.component ? `.${v.component}` : ''}`, what);
  if (v.location === undefined) return slots;
  if (!t) {
    put(v.location, v.type);
    return slots;
  }
  const arrays = perVertex && !prefix ? t.arrays.slice(1) : t.arrays;
  let location = v.location;
  const element = (type: GlslType) => {
    if (type.struct) {
      // A struct without its members spelled out (nested) is compared as a whole.
      if (!type.struct.members) return void put(location++, type.text);
      for (const m of type.struct.members) {
        const mt = parseGlslType(m.type);
        if (mt) expand(mt);
        else put(location++, m.type);
      }
      return;
    }
    const piece = `${baseTypeName(type.base ?? -1)}${type.rows}${type.base === undefined ? ` (${type.text.replace(/\[.*$/, '')})` : ''}`;
    for (let c = 0; c < type.cols; c++) put(location++, piece);
  };
  const expand = (type: GlslType, dims = type.arrays) => {
    for (let i = 0; i < Math.min(product(dims), 1024); i++) element(type);
  };
  expand(t, arrays);
  return slots;
}

const PER_VERTEX_INPUTS: ReadonlySet<VbcStage> = new Set(['tesc', 'tese', 'geom']);

/** Vulkan § 15.1.3: every input a stage reads at a location is written by the previous stage, with the same type. */
export function linkProblems(stages: VbcStageReflection[]): VbcProblem[] {
  const problems: VbcProblem[] = [];
  const present = VBC_STAGES.flatMap((st) => stages.filter((s) => s.stage === st));
  for (let i = 1; i < present.length; i++) {
    const producer = present[i - 1]!;
    const consumer = present[i]!;
    const written = new Map<string, string>();
    for (const v of userVariables(stageEntryPoint(producer)?.outputs)) for (const [k, t] of locationSlots(v, producer.stage === 'tesc')) written.set(k, t);
    for (const v of userVariables(stageEntryPoint(consumer)?.inputs)) {
      for (const [key, type] of locationSlots(v, PER_VERTEX_INPUTS.has(consumer.stage))) {
        const theirs = written.get(key);
        const what = `${consumer.stage} input "${v.name || v.blockName}" at location ${key}`;
        if (theirs === undefined)
          problems.push({ code: 'vbc/stage-link-mismatch', stage: consumer.stage, message: `${what} (${type}) is not written by ${producer.stage}.` });
        else if (theirs !== type)
          problems.push({
            code: 'vbc/stage-link-mismatch',
            stage: consumer.stage,
            message: `${what} is ${type}, but ${producer.stage} writes ${theirs} there.`,
          });
      }
    }
  }
  return problems;
}

const describeVar = (v: VbcInterfaceVariable) => `${baseTypeName(v.baseType)} ${v.dims[0]}×${v.dims[1]}${v.arraySize !== 1 ? `[${v.arraySize}]` : ''}`;
const stageNames = (mask: number) => VBC_STAGES.filter((_, i) => mask & (1 << i)).join('+') || 'none';
function describeBinding(b: VbcBinding): string {
  if (b.layout === 'buffer') return `${baseTypeName(b.baseType)} of ${b.bufferSize} bytes`;
  return `${baseTypeName(b.baseType)} rank ${texelRankName(b.rank)}, ${texelTypeName(b.texelType)} ${b.texelSize}×${b.texelComponents}`;
}

/** Compares a file's reflection (`declared`) with the one its stages imply (`derived`). */
export function compareVbcReflection(declared: VbcReflection, derived: DerivedVbcReflection): VbcProblem[] {
  const problems: VbcProblem[] = [];
  const expected = derived.reflection;
  const lists = [
    ['vertex inputs', 'vbc/vertex-input-mismatch', declared.vertexInputs, expected.vertexInputs, 'the vertex stage reads'],
    ['fragment outputs', 'vbc/fragment-output-mismatch', declared.fragmentOutputs, expected.fragmentOutputs, 'the fragment stage writes'],
  ] as const;
  for (const [section, code, mine, theirs, verb] of lists) {
    theirs.forEach((t) => {
      const index = mine.findIndex((m) => m.location === t.location);
      if (index < 0)
        problems.push({ code, section, index: -1, message: `The ${section} do not list location ${t.location}, which ${verb} (${describeVar(t)}).` });
      else if (describeVar(mine[index]!) !== describeVar(t))
        problems.push({
          code,
          section,
          index,
          message: `The ${section} say location ${t.location} is ${describeVar(mine[index]!)}; ${verb} ${describeVar(t)} there.`,
        });
    });
    mine.forEach((m, index) => {
      if (!theirs.some((t) => t.location === m.location))
        problems.push({
          code,
          section,
          index,
          message: `The ${section} list location ${m.location} (${describeVar(m)}), which ${verb.replace(/ (\w+)s$/, ' does not $1')}.`,
        });
    });
  }

  expected.bindings.forEach((t, i) => {
    const src = derived.bindingSources[i];
    const from = src ? ` (set ${src.set} binding ${src.binding} "${src.name}")` : '';
    const index = declared.bindings.findIndex((b) => b.slot === t.slot);
    const mine = declared.bindings[index];
    if (!mine)
      return void problems.push({
        code: 'vbc/binding-mismatch',
        section: 'bindings',
        index: -1,
        message: `No binding at slot ${t.slot}; the SPIR-V declares ${describeBinding(t)}${from} for it.`,
      });
    if (describeBinding(mine) !== describeBinding(t))
      problems.push({
        code: 'vbc/binding-mismatch',
        section: 'bindings',
        index,
        message: `Slot ${t.slot} is ${describeBinding(mine)}; the SPIR-V declares ${describeBinding(t)}${from}.`,
      });
    if (mine.stageMask !== t.stageMask)
      problems.push({
        code: 'vbc/stage-mask-mismatch',
        section: 'bindings',
        index,
        message: `Slot ${t.slot}'s stage mask is ${stageNames(mine.stageMask)}; the stages that declare it${from} are ${stageNames(t.stageMask)}.`,
      });
  });
  declared.bindings.forEach((b, index) => {
    if (!expected.bindings.some((t) => t.slot === b.slot))
      problems.push({
        code: 'vbc/binding-mismatch',
        section: 'bindings',
        index,
        message: `Slot ${b.slot} (${describeBinding(b)}) matches no descriptor of the SPIR-V.`,
      });
  });

  const mu = declared.uniform;
  const tu = expected.uniform;
  if (!mu !== !tu)
    problems.push({
      code: 'vbc/uniform-mismatch',
      section: 'uniform',
      index: -1,
      message: mu
        ? `The file declares a ${mu.size}-byte uniform, but no stage has a uniform buffer.`
        : `The file declares no uniform, but the SPIR-V has a ${tu!.size}-byte uniform buffer.`,
    });
  else if (mu && tu) {
    if (mu.size !== tu.size)
      problems.push({
        code: 'vbc/uniform-mismatch',
        section: 'uniform',
        index: -1,
        message: `The uniform is ${mu.size} bytes; the SPIR-V block is ${tu.size}.`,
      });
    if (mu.stageMask !== tu.stageMask)
      problems.push({
        code: 'vbc/stage-mask-mismatch',
        section: 'uniform',
        index: -1,
        message: `The uniform's stage mask is ${stageNames(mu.stageMask)}; the stages that declare it are ${stageNames(tu.stageMask)}.`,
      });
    const describe = (m: VbcUniformMember) =>
      `"${m.name}" at ${m.offset}: ${baseTypeName(m.baseType)} ${m.dims[0]}×${m.dims[1]}${m.arraySize !== 1 ? `[${m.arraySize}]` : ''}`;
    const n = Math.max(mu.members.length, tu.members.length);
    for (let i = 0; i < n; i++) {
      const a = mu.members[i];
      const b = tu.members[i];
      if (!a)
        problems.push({
          code: 'vbc/uniform-mismatch',
          section: 'uniform',
          index: -1,
          message: `The uniform lists ${mu.members.length} members; the SPIR-V block has ${tu.members.length} (missing ${describe(b!)}).`,
        });
      else if (!b)
        problems.push({ code: 'vbc/uniform-mismatch', section: 'uniform', index: i, message: `Uniform member ${describe(a)} is not in the SPIR-V block.` });
      else if (describe(a) !== describe(b))
        problems.push({
          code: 'vbc/uniform-mismatch',
          section: 'uniform',
          index: i,
          message: `Uniform member ${i} is ${describe(a)}; the SPIR-V block has ${describe(b)}.`,
        });
    }
  }

  const ms = declared.subpassInputs;
  const ts = expected.subpassInputs;
  if (ms.length !== ts.length)
    problems.push({
      code: 'vbc/subpass-input-mismatch',
      section: 'subpass inputs',
      index: -1,
      message: `The file lists ${ms.length} subpass inputs; the SPIR-V uses ${ts.length} input attachments.`,
    });
  for (let i = 0; i < Math.min(ms.length, ts.length); i++) {
    const a = ms[i]!;
    const b = ts[i]!;
    if (a.texelType !== b.texelType || a.components !== b.components)
      problems.push({
        code: 'vbc/subpass-input-mismatch',
        section: 'subpass inputs',
        index: i,
        message: `Subpass input ${i} is ${texelTypeName(a.texelType)}×${a.components}; the SPIR-V's input attachment ${i} is ${texelTypeName(b.texelType)}×${b.components}.`,
      });
  }
  return problems;
}
