import { parseSpirv, type ParsedInstruction, type ParsedModule, type ParsedOperand } from './spirv-instructions';

/**
 * What a pipeline needs to know about a SPIR-V module, read from its declarations (SPIR-V § 2.4
 * Logical Layout, § 2.16 decorations, § 3.32.6 type declarations): entry points with their
 * execution modes and stage interface, descriptor bindings, push constant blocks with their
 * explicit layout (Offset, ArrayStride, MatrixStride), and specialization constants. Names come
 * from OpName / OpMemberName; an unnamed id is shown as `_<id>`, like spirv-cross does.
 *
 * Everything declared is reported, used or not (spirv-cross's `--reflect` does the same without
 * `--remove-unused-variables`). Types are rendered in GLSL spelling (`vec4`, `mat3x4`, `float[4]`,
 * `sampler2DArray`, `struct Light { vec3 position; … }`).
 */
export type DescriptorKind =
  | 'uniform buffer'
  | 'storage buffer'
  | 'sampler'
  | 'combined image sampler'
  | 'sampled image'
  | 'storage image'
  | 'uniform texel buffer'
  | 'storage texel buffer'
  | 'input attachment'
  | 'acceleration structure';

export interface BlockMember {
  name: string;
  type: string;
  /** Byte offset in the enclosing struct (Offset decoration); undefined where the struct has no explicit layout. */
  offset?: number;
  /** Bytes the member occupies (a runtime-sized array: 0). */
  size?: number;
  /** Dimensions of an array member, outermost first; 0 is runtime-sized. */
  arraySize?: number[];
  arrayStride?: number;
  matrixStride?: number;
  rowMajor?: boolean;
  /** The members of a struct member (or of an array of structs). */
  members?: BlockMember[];
}

export interface BlockLayout {
  /** The struct's name (the block name in GLSL). */
  typeName: string;
  /** Bytes up to the end of the last member; a trailing runtime-sized array counts as 0 elements. */
  size: number;
  /** Set when the block ends in a runtime-sized array: the bytes of one more element. */
  runtimeArrayStride?: number;
  members: BlockMember[];
}

export interface InterfaceVariable {
  id: number;
  /** The variable's name (for a block, the instance name; glslang leaves an anonymous one ""). */
  name: string;
  /** The block's type name, for a variable whose type is a Block-decorated struct. */
  blockName?: string;
  type: string;
  location?: number;
  component?: number;
  /** BuiltIn of the variable, or of each member of a built-in block (gl_PerVertex). */
  builtIns: string[];
  /** Flat, NoPerspective, Centroid, Sample, Patch, Invariant, PerPrimitiveEXT, where decorated. */
  qualifiers: string[];
}

export interface WorkgroupDimension {
  value: number;
  /** Set when the dimension is a specialization constant (LocalSizeId or the WorkgroupSize built-in). */
  specId?: number;
}

export interface EntryPoint {
  name: string;
  /** Function id. */
  id: number;
  executionModel: string;
  /** Short stage name: vert, tesc, tese, geom, frag, comp, task, mesh, rgen, rint, rahit, rchit, rmiss, rcall, kernel. */
  stage: string;
  executionModes: { mode: string; operands: (number | string)[] }[];
  workgroupSize?: [WorkgroupDimension, WorkgroupDimension, WorkgroupDimension];
  inputs: InterfaceVariable[];
  outputs: InterfaceVariable[];
}

export interface DescriptorBinding {
  id: number;
  name: string;
  set: number;
  binding: number;
  kind: DescriptorKind;
  type: string;
  /** Dimensions when the variable is an array of descriptors, outermost first; 0 is runtime-sized. */
  arraySize: number[];
  inputAttachmentIndex?: number;
  /** Storage images and texel buffers: the ImageFormat (Rgba8, R32ui, …; Unknown when unspecified). */
  imageFormat?: string;
  /** NonWritable / NonReadable on the variable, or on every member of a storage buffer. */
  access: 'read-write' | 'read-only' | 'write-only';
  /** Uniform and storage buffers. */
  block?: BlockLayout;
}

export interface PushConstantBlock {
  id: number;
  name: string;
  block: BlockLayout;
}

export interface SpecializationConstant {
  /** Result id. */
  id: number;
  specId: number;
  name: string;
  type: string;
  /** 64-bit integers as decimal strings (JSON has no 64-bit integers). */
  defaultValue: boolean | number | string;
}

export interface SpirvReflection {
  entryPoints: EntryPoint[];
  descriptorBindings: DescriptorBinding[];
  pushConstants: PushConstantBlock[];
  specializationConstants: SpecializationConstant[];
}

type TypeInfo =
  | { k: 'void' | 'bool' | 'sampler' | 'acceleration-structure' | 'function' }
  | { k: 'int'; width: number; signed: boolean }
  | { k: 'float'; width: number }
  | { k: 'vector'; component: number; count: number }
  | { k: 'matrix'; column: number; count: number }
  | { k: 'image'; sampledType: number; dim: string; depth: number; arrayed: boolean; ms: boolean; sampled: number; format: string }
  | { k: 'sampled-image'; image: number }
  | { k: 'array'; element: number; length: number }
  | { k: 'runtime-array'; element: number }
  | { k: 'struct'; members: number[] }
  | { k: 'pointer'; storageClass: string; pointee: number }
  | { k: 'other'; opname: string };

type Decorations = Map<string, ParsedOperand[]>;

const STAGES: Record<number, [model: string, stage: string]> = {
  0: ['Vertex', 'vert'],
  1: ['TessellationControl', 'tesc'],
  2: ['TessellationEvaluation', 'tese'],
  3: ['Geometry', 'geom'],
  4: ['Fragment', 'frag'],
  5: ['GLCompute', 'comp'],
  6: ['Kernel', 'kernel'],
  5267: ['TaskNV', 'task'],
  5268: ['MeshNV', 'mesh'],
  5313: ['RayGenerationKHR', 'rgen'],
  5314: ['IntersectionKHR', 'rint'],
  5315: ['AnyHitKHR', 'rahit'],
  5316: ['ClosestHitKHR', 'rchit'],
  5317: ['MissKHR', 'rmiss'],
  5318: ['CallableKHR', 'rcall'],
  5364: ['TaskEXT', 'task'],
  5365: ['MeshEXT', 'mesh'],
};

const QUALIFIERS = new Set([
  'Flat',
  'NoPerspective',
  'Centroid',
  'Sample',
  'Patch',
  'Invariant',
  'PerPrimitiveEXT',
  'PerPrimitiveNV',
  'PerViewNV',
  'PerTaskNV',
]);

const DIM_NAMES: Record<string, string> = { Dim1D: '1D', Dim2D: '2D', Dim3D: '3D', Cube: 'Cube', Rect: '2DRect', Buffer: 'Buffer' };

const num = (o: ParsedOperand | undefined): number | undefined => (o?.type === 'number' ? o.words[0]! : undefined);
const idOf = (o: ParsedOperand | undefined): number | undefined => (o?.type === 'id' ? o.id : undefined);
const enumName = (o: ParsedOperand | undefined): string | undefined => (o?.type === 'enum' ? o.name : undefined);

function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** A literal as a JS value: 64-bit integers as decimal strings, floats of every width as numbers. */
function literalValue(o: ParsedOperand | undefined): number | string | undefined {
  if (o?.type !== 'number') return undefined;
  const [lo = 0, hi = 0] = o.words;
  if (o.numberKind === 'float') {
    if (o.width === 16) return halfToNumber(lo & 0xffff);
    const view = new DataView(new ArrayBuffer(8));
    if (o.width === 64) {
      view.setUint32(0, lo, true);
      view.setUint32(4, hi, true);
      return view.getFloat64(0, true);
    }
    view.setUint32(0, lo, true);
    return view.getFloat32(0, true);
  }
  if (o.width > 32) {
    const big = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
    return (o.numberKind === 'int' ? BigInt.asIntN(64, big) : big).toString();
  }
  if (o.numberKind === 'int') return o.width === 32 ? lo | 0 : (lo << (32 - o.width)) >> (32 - o.width);
  return lo >>> 0;
}

/** The most members one block's layout lists, nested ones included (a real block has far fewer). */
const MEMBER_BUDGET = 10_000;

class Reflector {
  readonly types = new Map<number, TypeInfo>();
  readonly names = new Map<number, string>();
  readonly memberNames = new Map<number, Map<number, string>>();
  readonly decorations = new Map<number, Decorations>();
  readonly memberDecorations = new Map<number, Map<number, Decorations>>();
  /** Scalar constants (OpConstant, OpSpecConstant, OpConstantTrue/False and the spec variants). */
  readonly constants = new Map<number, { value: boolean | number | string; spec: boolean }>();
  readonly composites = new Map<number, number[]>();
  readonly typeOf = new Map<number, number>();
  readonly variables: { id: number; type: number; storageClass: string }[] = [];

  constructor(readonly module: ParsedModule) {
    for (const inst of module.instructions) this.collect(inst);
  }

  private collect(inst: ParsedInstruction) {
    const ops = inst.operands;
    const id = inst.resultId;
    if (id !== undefined && inst.resultTypeId !== undefined) this.typeOf.set(id, inst.resultTypeId);
    switch (inst.opname) {
      case 'OpName': {
        const target = idOf(ops[0]);
        if (target !== undefined && ops[1]?.type === 'string') this.names.set(target, ops[1].value);
        return;
      }
      case 'OpMemberName': {
        const target = idOf(ops[0]);
        const member = num(ops[1]);
        if (target === undefined || member === undefined || ops[2]?.type !== 'string') return;
        if (!this.memberNames.has(target)) this.memberNames.set(target, new Map());
        this.memberNames.get(target)!.set(member, ops[2].value);
        return;
      }
      case 'OpDecorate':
      case 'OpDecorateId':
      case 'OpDecorateString': {
        const target = idOf(ops[0]);
        const name = enumName(ops[1]);
        if (target === undefined || !name) return;
        if (!this.decorations.has(target)) this.decorations.set(target, new Map());
        this.decorations.get(target)!.set(name, ops.slice(2));
        return;
      }
      case 'OpMemberDecorate':
      case 'OpMemberDecorateString': {
        const target = idOf(ops[0]);
        const member = num(ops[1]);
        const name = enumName(ops[2]);
        if (target === undefined || member === undefined || !name) return;
        if (!this.memberDecorations.has(target)) this.memberDecorations.set(target, new Map());
        const byMember = this.memberDecorations.get(target)!;
        if (!byMember.has(member)) byMember.set(member, new Map());
        byMember.get(member)!.set(name, ops.slice(3));
        return;
      }
      case 'OpVariable': {
        const storageClass = enumName(ops[2]);
        if (id !== undefined && inst.resultTypeId !== undefined && storageClass && storageClass !== 'Function')
          this.variables.push({ id, type: inst.resultTypeId, storageClass });
        return;
      }
      case 'OpConstantTrue':
      case 'OpConstantFalse':
      case 'OpSpecConstantTrue':
      case 'OpSpecConstantFalse':
        if (id !== undefined) this.constants.set(id, { value: inst.opname.endsWith('True'), spec: inst.opname.startsWith('OpSpec') });
        return;
      case 'OpConstant':
      case 'OpSpecConstant': {
        const value = literalValue(ops[2]);
        if (id !== undefined && value !== undefined) this.constants.set(id, { value, spec: inst.opname === 'OpSpecConstant' });
        return;
      }
      case 'OpConstantComposite':
      case 'OpSpecConstantComposite':
        if (id !== undefined)
          this.composites.set(
            id,
            ops
              .slice(2)
              .map(idOf)
              .filter((x): x is number => x !== undefined),
          );
        return;
    }
    if (id === undefined) return;
    const type = this.typeInfo(inst);
    if (type) this.types.set(id, type);
  }

  private typeInfo(inst: ParsedInstruction): TypeInfo | undefined {
    const ops = inst.operands;
    switch (inst.opname) {
      case 'OpTypeVoid':
        return { k: 'void' };
      case 'OpTypeBool':
        return { k: 'bool' };
      case 'OpTypeSampler':
        return { k: 'sampler' };
      case 'OpTypeAccelerationStructureKHR':
      case 'OpTypeAccelerationStructureNV':
        return { k: 'acceleration-structure' };
      case 'OpTypeFunction':
        return { k: 'function' };
      case 'OpTypeInt':
        return { k: 'int', width: num(ops[1]) ?? 32, signed: num(ops[2]) === 1 };
      case 'OpTypeFloat':
        return { k: 'float', width: num(ops[1]) ?? 32 };
      case 'OpTypeVector':
        return { k: 'vector', component: idOf(ops[1]) ?? 0, count: num(ops[2]) ?? 0 };
      case 'OpTypeMatrix':
        return { k: 'matrix', column: idOf(ops[1]) ?? 0, count: num(ops[2]) ?? 0 };
      case 'OpTypeImage':
        return {
          k: 'image',
          sampledType: idOf(ops[1]) ?? 0,
          dim: enumName(ops[2]) ?? '?',
          depth: num(ops[3]) ?? 0,
          arrayed: num(ops[4]) === 1,
          ms: num(ops[5]) === 1,
          sampled: num(ops[6]) ?? 0,
          format: enumName(ops[7]) ?? 'Unknown',
        };
      case 'OpTypeSampledImage':
        return { k: 'sampled-image', image: idOf(ops[1]) ?? 0 };
      case 'OpTypeArray': {
        const length = this.constants.get(idOf(ops[2]) ?? 0)?.value;
        // A corrupt module's length constant can be a float or negative: not a length, so 0 (unknown).
        const n = typeof length === 'number' ? length : Number(length ?? 0);
        return { k: 'array', element: idOf(ops[1]) ?? 0, length: Number.isSafeInteger(n) && n >= 0 ? n : 0 };
      }
      case 'OpTypeRuntimeArray':
        return { k: 'runtime-array', element: idOf(ops[1]) ?? 0 };
      case 'OpTypeStruct':
        return {
          k: 'struct',
          members: ops
            .slice(1)
            .map(idOf)
            .filter((x): x is number => x !== undefined),
        };
      case 'OpTypePointer':
        return { k: 'pointer', storageClass: enumName(ops[1]) ?? '?', pointee: idOf(ops[2]) ?? 0 };
    }
    if (inst.opname?.startsWith('OpType')) return { k: 'other', opname: inst.opname };
    return undefined;
  }

  name(id: number): string {
    return this.names.get(id) ?? `_${id}`;
  }

  decoration(id: number, name: string): ParsedOperand[] | undefined {
    return this.decorations.get(id)?.get(name);
  }

  memberDecoration(id: number, member: number, name: string): ParsedOperand[] | undefined {
    return this.memberDecorations.get(id)?.get(member)?.get(name);
  }

  /** Strips arrays: the element type and the dimensions, outermost first (0: runtime-sized). */
  unarray(id: number): { base: number; dims: number[] } {
    const dims: number[] = [];
    for (let guard = 0; guard < 64; guard++) {
      const t = this.types.get(id);
      if (t?.k !== 'array' && t?.k !== 'runtime-array') break;
      dims.push(t.k === 'array' ? t.length : 0);
      id = t.element;
    }
    return { base: id, dims };
  }

  /** GLSL spelling of a type; structs list their members only at the top (`expand`). */
  render(id: number, expand = false, depth = 0): string {
    const t = this.types.get(id);
    if (!t || depth > 16) return `_${id}`;
    switch (t.k) {
      case 'void':
      case 'bool':
      case 'sampler':
        return t.k;
      case 'acceleration-structure':
        return 'accelerationStructureEXT';
      case 'function':
        return 'function';
      case 'int': {
        if (t.width === 32) return t.signed ? 'int' : 'uint';
        return `${t.signed ? 'int' : 'uint'}${t.width}_t`;
      }
      case 'float':
        return t.width === 32 ? 'float' : t.width === 64 ? 'double' : `float${t.width}_t`;
      case 'vector':
        return `${this.vectorPrefix(t.component)}vec${t.count}`;
      case 'matrix': {
        const column = this.types.get(t.column);
        const rows = column?.k === 'vector' ? column.count : 0;
        const prefix = column?.k === 'vector' ? this.vectorPrefix(column.component) : '';
        return `${prefix}mat${t.count === rows ? t.count : `${t.count}x${rows}`}`;
      }
      case 'image':
        return this.imageName(t, false);
      case 'sampled-image': {
        const image = this.types.get(t.image);
        return image?.k === 'image' ? this.imageName(image, true) : `sampledImage(_${t.image})`;
      }
      case 'array':
      case 'runtime-array': {
        const { base, dims } = this.unarray(id);
        return `${this.render(base, expand, depth + 1)}${dims.map((d) => (d ? `[${d}]` : '[]')).join('')}`;
      }
      case 'struct': {
        const head = `struct ${this.name(id)}`;
        if (!expand) return head;
        const members = t.members.map((m, i) => `${this.render(m, false, depth + 1)} ${this.memberNames.get(id)?.get(i) ?? `_m${i}`};`);
        return `${head} { ${members.join(' ')} }`;
      }
      case 'pointer':
        return `${this.render(t.pointee, false, depth + 1)}*`;
      case 'other':
        return t.opname.replace(/^OpType/, '');
    }
  }

  private vectorPrefix(component: number): string {
    const c = this.types.get(component);
    if (c?.k === 'float') return c.width === 32 ? '' : c.width === 64 ? 'd' : `f${c.width}`;
    if (c?.k === 'int') return c.width === 32 ? (c.signed ? 'i' : 'u') : `${c.signed ? 'i' : 'u'}${c.width}`;
    if (c?.k === 'bool') return 'b';
    return '?';
  }

  private imageName(t: Extract<TypeInfo, { k: 'image' }>, combined: boolean): string {
    const sampled = this.types.get(t.sampledType);
    const prefix = sampled?.k === 'int' ? (sampled.signed ? 'i' : 'u') : '';
    if (t.dim === 'SubpassData') return `${prefix}subpassInput${t.ms ? 'MS' : ''}`;
    const dim = DIM_NAMES[t.dim] ?? t.dim;
    const kind = combined ? 'sampler' : t.sampled === 2 ? 'image' : 'texture';
    return `${prefix}${kind}${dim}${t.ms ? 'MS' : ''}${t.arrayed ? 'Array' : ''}${combined && t.depth === 1 ? 'Shadow' : ''}`;
  }

  /** size() answers, by type and the matrix layout it was asked with. */
  private readonly sizes = new Map<string, number | undefined>();
  /** Types whose size is being computed: meeting one again is a type that contains itself. */
  private readonly sizing = new Set<number>();

  /**
   * Bytes a value of the type occupies in an explicitly laid out block (SPIR-V § 2.16.2 Offset,
   * ArrayStride, MatrixStride). Remembered per type: a struct used by many members is measured once,
   * and a corrupt module whose struct contains itself (through members or arrays) gets undefined
   * instead of a search that grows with the number of members to the power of the depth.
   */
  size(id: number, matrixStride?: number, rowMajor?: boolean, depth = 0): number | undefined {
    const key = `${id}:${matrixStride ?? ''}:${rowMajor ? 1 : 0}`;
    if (this.sizes.has(key)) return this.sizes.get(key);
    if (this.sizing.has(id) || depth > 32) return undefined;
    this.sizing.add(id);
    const size = this.measure(id, matrixStride, rowMajor, depth);
    this.sizing.delete(id);
    this.sizes.set(key, size);
    return size;
  }

  private measure(id: number, matrixStride: number | undefined, rowMajor: boolean | undefined, depth: number): number | undefined {
    const t = this.types.get(id);
    if (!t) return undefined;
    switch (t.k) {
      case 'int':
      case 'float':
        // A corrupt module can declare any width; a size is whole bytes or unknown.
        return t.width % 8 === 0 ? t.width / 8 : undefined;
      case 'bool':
        return 4;
      case 'vector': {
        const c = this.size(t.component, undefined, undefined, depth + 1);
        return c === undefined ? undefined : c * t.count;
      }
      case 'matrix': {
        const column = this.types.get(t.column);
        const rows = column?.k === 'vector' ? column.count : 0;
        if (matrixStride !== undefined) return (rowMajor ? rows : t.count) * matrixStride;
        const c = this.size(t.column, undefined, undefined, depth + 1);
        return c === undefined ? undefined : c * t.count;
      }
      case 'array': {
        const stride = num(this.decoration(id, 'ArrayStride')?.[0]) ?? this.size(t.element, matrixStride, rowMajor, depth + 1);
        const bytes = stride === undefined ? undefined : stride * t.length;
        return bytes !== undefined && Number.isSafeInteger(bytes) ? bytes : undefined;
      }
      case 'runtime-array':
        return 0;
      case 'struct': {
        let end = 0;
        for (let i = 0; i < t.members.length; i++) {
          const offset = num(this.memberDecoration(id, i, 'Offset')?.[0]);
          const size = this.memberSize(id, i, depth + 1);
          if (offset === undefined || size === undefined) return undefined;
          end = Math.max(end, offset + size);
        }
        return end;
      }
      case 'pointer':
        return 8;
      default:
        return undefined;
    }
  }

  private memberSize(struct: number, index: number, depth: number): number | undefined {
    const t = this.types.get(struct);
    if (t?.k !== 'struct') return undefined;
    const stride = num(this.memberDecoration(struct, index, 'MatrixStride')?.[0]);
    const rowMajor = this.memberDecoration(struct, index, 'RowMajor') !== undefined;
    return this.size(t.members[index]!, stride, rowMajor, depth);
  }

  /** Members members() may still list for the block being laid out (see block()). */
  private memberBudget = 0;

  /**
   * A struct's members, nested structs expanded. A struct met again on its own path (only in a
   * corrupt module) is not expanded again, and one block lists at most MEMBER_BUDGET members: a
   * corrupt module can nest a wide struct in itself, which would expand without end.
   */
  members(struct: number, depth = 0, path: ReadonlySet<number> = new Set()): BlockMember[] {
    const t = this.types.get(struct);
    if (t?.k !== 'struct' || depth > 16 || path.has(struct) || this.memberBudget <= 0) return [];
    this.memberBudget -= t.members.length;
    const inside = new Set(path).add(struct);
    return t.members.map((type, i) => {
      const member: BlockMember = { name: this.memberNames.get(struct)?.get(i) ?? `_m${i}`, type: this.render(type) };
      const offset = num(this.memberDecoration(struct, i, 'Offset')?.[0]);
      if (offset !== undefined) member.offset = offset;
      const size = this.memberSize(struct, i, 0);
      if (size !== undefined && offset !== undefined) member.size = size;
      const { base, dims } = this.unarray(type);
      if (dims.length) {
        member.arraySize = dims;
        const stride = num(this.decoration(type, 'ArrayStride')?.[0]);
        if (stride !== undefined) member.arrayStride = stride;
      }
      const matrixStride = num(this.memberDecoration(struct, i, 'MatrixStride')?.[0]);
      if (matrixStride !== undefined) {
        member.matrixStride = matrixStride;
        member.rowMajor = this.memberDecoration(struct, i, 'RowMajor') !== undefined;
      }
      if (this.types.get(base)?.k === 'struct') member.members = this.members(base, depth + 1, inside);
      return member;
    });
  }

  block(struct: number): BlockLayout {
    const t = this.types.get(struct);
    this.memberBudget = MEMBER_BUDGET;
    const layout: BlockLayout = { typeName: this.name(struct), size: this.size(struct) ?? 0, members: this.members(struct) };
    if (t?.k === 'struct' && t.members.length) {
      const last = t.members[t.members.length - 1]!;
      const lastType = this.types.get(last);
      if (lastType?.k === 'runtime-array') {
        const stride = num(this.decoration(last, 'ArrayStride')?.[0]) ?? this.size(lastType.element);
        if (stride !== undefined) layout.runtimeArrayStride = stride;
      }
    }
    return layout;
  }
}

function workgroupDimension(r: Reflector, id: number): WorkgroupDimension {
  const c = r.constants.get(id);
  const value = typeof c?.value === 'number' ? c.value : Number(c?.value ?? 0);
  const specId = num(r.decoration(id, 'SpecId')?.[0]);
  return specId === undefined ? { value } : { value, specId };
}

function entryPoints(r: Reflector): EntryPoint[] {
  const result: EntryPoint[] = [];
  const variables = new Map(r.variables.map((v) => [v.id, v]));
  // The WorkgroupSize built-in (a constant composite) overrides LocalSize / LocalSizeId (SPIR-V § 3.21 BuiltIn).
  let builtinSize: number[] | undefined;
  for (const [id, constituents] of r.composites) if (enumName(r.decoration(id, 'BuiltIn')?.[0]) === 'WorkgroupSize') builtinSize = constituents;

  for (const inst of r.module.instructions) {
    if (inst.opname !== 'OpEntryPoint') continue;
    const model = inst.operands[0];
    const id = idOf(inst.operands[1]) ?? 0;
    const [executionModel, stage] = (model?.type === 'enum' && STAGES[model.value]) || [enumName(model) ?? '?', '?'];
    const name = inst.operands[2]?.type === 'string' ? inst.operands[2].value : '';
    const interfaceIds = inst.operands.slice(3).map(idOf);
    const entry: EntryPoint = { name, id, executionModel, stage, executionModes: [], inputs: [], outputs: [] };
    for (const vid of interfaceIds) {
      const v = vid === undefined ? undefined : variables.get(vid);
      if (!v || (v.storageClass !== 'Input' && v.storageClass !== 'Output')) continue;
      (v.storageClass === 'Input' ? entry.inputs : entry.outputs).push(interfaceVariable(r, v.id, v.type));
    }
    result.push(entry);
  }
  for (const inst of r.module.instructions) {
    if (inst.opname !== 'OpExecutionMode' && inst.opname !== 'OpExecutionModeId') continue;
    const entry = result.find((e) => e.id === idOf(inst.operands[0]));
    const mode = inst.operands[1];
    if (!entry || mode?.type !== 'enum') continue;
    const operands = inst.operands
      .slice(2)
      .map((o) =>
        o.type === 'id'
          ? ((r.constants.get(o.id)?.value as number | undefined) ?? `%${o.id}`)
          : o.type === 'number'
            ? o.words[0]!
            : o.type === 'enum'
              ? (o.name ?? o.value)
              : `${o.type}`,
      );
    entry.executionModes.push({ mode: mode.name ?? String(mode.value), operands });
    if (mode.name === 'LocalSize') entry.workgroupSize = [0, 1, 2].map((i) => ({ value: Number(operands[i] ?? 1) })) as EntryPoint['workgroupSize'];
    if (mode.name === 'LocalSizeId')
      entry.workgroupSize = [0, 1, 2].map((i) => workgroupDimension(r, idOf(inst.operands[2 + i]) ?? 0)) as EntryPoint['workgroupSize'];
  }
  if (builtinSize?.length === 3) {
    for (const entry of result)
      if (entry.workgroupSize || ['comp', 'task', 'mesh', 'kernel'].includes(entry.stage))
        entry.workgroupSize = builtinSize.map((id) => workgroupDimension(r, id)) as EntryPoint['workgroupSize'];
  }
  return result;
}

function interfaceVariable(r: Reflector, id: number, pointerType: number): InterfaceVariable {
  const pointer = r.types.get(pointerType);
  const type = pointer?.k === 'pointer' ? pointer.pointee : pointerType;
  const { base } = r.unarray(type);
  const v: InterfaceVariable = { id, name: r.names.get(id) ?? `_${id}`, type: r.render(type, true), builtIns: [], qualifiers: [] };
  const location = num(r.decoration(id, 'Location')?.[0]);
  if (location !== undefined) v.location = location;
  const component = num(r.decoration(id, 'Component')?.[0]);
  if (component !== undefined) v.component = component;
  const builtIn = enumName(r.decoration(id, 'BuiltIn')?.[0]);
  if (builtIn) v.builtIns.push(builtIn);
  const baseType = r.types.get(base);
  if (baseType?.k === 'struct') {
    if (r.decoration(base, 'Block')) v.blockName = r.name(base);
    for (let i = 0; i < baseType.members.length; i++) {
      const b = enumName(r.memberDecoration(base, i, 'BuiltIn')?.[0]);
      if (b) v.builtIns.push(b);
    }
  }
  for (const q of r.decorations.get(id)?.keys() ?? []) if (QUALIFIERS.has(q)) v.qualifiers.push(q);
  return v;
}

function descriptorKind(r: Reflector, storageClass: string, base: number): DescriptorKind | undefined {
  const t = r.types.get(base);
  if (storageClass === 'StorageBuffer') return t?.k === 'struct' ? 'storage buffer' : undefined;
  if (storageClass === 'Uniform') {
    if (t?.k !== 'struct') return undefined;
    return r.decoration(base, 'BufferBlock') ? 'storage buffer' : 'uniform buffer';
  }
  if (storageClass !== 'UniformConstant') return undefined;
  switch (t?.k) {
    case 'sampler':
      return 'sampler';
    case 'acceleration-structure':
      return 'acceleration structure';
    case 'sampled-image': {
      const image = r.types.get(t.image);
      return image?.k === 'image' && image.dim === 'Buffer' ? 'uniform texel buffer' : 'combined image sampler';
    }
    case 'image':
      if (t.dim === 'SubpassData') return 'input attachment';
      if (t.dim === 'Buffer') return t.sampled === 2 ? 'storage texel buffer' : 'uniform texel buffer';
      return t.sampled === 2 ? 'storage image' : 'sampled image';
    default:
      return undefined;
  }
}

function descriptorBindings(r: Reflector): DescriptorBinding[] {
  const result: DescriptorBinding[] = [];
  for (const v of r.variables) {
    const pointer = r.types.get(v.type);
    if (pointer?.k !== 'pointer') continue;
    const { base, dims } = r.unarray(pointer.pointee);
    const kind = descriptorKind(r, v.storageClass, base);
    if (!kind) continue;
    const binding: DescriptorBinding = {
      id: v.id,
      name: r.names.get(v.id) ?? `_${v.id}`,
      set: num(r.decoration(v.id, 'DescriptorSet')?.[0]) ?? 0,
      binding: num(r.decoration(v.id, 'Binding')?.[0]) ?? 0,
      kind,
      type: r.render(pointer.pointee, kind === 'uniform buffer' || kind === 'storage buffer'),
      arraySize: dims,
      access: 'read-write',
    };
    const index = num(r.decoration(v.id, 'InputAttachmentIndex')?.[0]);
    if (index !== undefined) binding.inputAttachmentIndex = index;
    const baseType = r.types.get(base);
    if (baseType?.k === 'image' && (kind === 'storage image' || kind === 'storage texel buffer')) binding.imageFormat = baseType.format;
    let nonWritable = r.decoration(v.id, 'NonWritable') !== undefined;
    let nonReadable = r.decoration(v.id, 'NonReadable') !== undefined;
    if (kind === 'uniform buffer' || kind === 'storage buffer') {
      binding.block = r.block(base);
      const count = baseType?.k === 'struct' ? baseType.members.length : 0;
      const all = (d: string) => count > 0 && Array.from({ length: count }, (_, i) => r.memberDecoration(base, i, d) !== undefined).every(Boolean);
      nonWritable ||= all('NonWritable');
      nonReadable ||= all('NonReadable');
    }
    if (kind === 'uniform buffer') nonWritable = true;
    binding.access = nonWritable && !nonReadable ? 'read-only' : nonReadable && !nonWritable ? 'write-only' : 'read-write';
    result.push(binding);
  }
  return result.sort((a, b) => a.set - b.set || a.binding - b.binding);
}

function pushConstants(r: Reflector): PushConstantBlock[] {
  return r.variables
    .filter((v) => v.storageClass === 'PushConstant')
    .map((v) => {
      const pointer = r.types.get(v.type);
      const struct = pointer?.k === 'pointer' ? pointer.pointee : v.type;
      return { id: v.id, name: r.names.get(v.id) ?? `_${v.id}`, block: r.block(struct) };
    });
}

function specializationConstants(r: Reflector): SpecializationConstant[] {
  const result: SpecializationConstant[] = [];
  for (const [id, c] of r.constants) {
    if (!c.spec) continue;
    const specId = num(r.decoration(id, 'SpecId')?.[0]);
    if (specId === undefined) continue;
    result.push({ id, specId, name: r.names.get(id) ?? '', type: r.render(r.typeOf.get(id) ?? 0), defaultValue: c.value });
  }
  return result.sort((a, b) => a.specId - b.specId);
}

export function reflectModule(module: ParsedModule): SpirvReflection {
  const r = new Reflector(module);
  return {
    entryPoints: entryPoints(r),
    descriptorBindings: descriptorBindings(r),
    pushConstants: pushConstants(r),
    specializationConstants: specializationConstants(r),
  };
}

/** Bytes → reflection, decoding only the declarations (a module's functions say nothing reflection reports). */
export function reflectSpirv(bytes: Uint8Array): SpirvReflection {
  return reflectModule(parseSpirv(bytes, { declarationsOnly: true }));
}
