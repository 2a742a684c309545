import { enumerant } from './spirv-grammar';
import { OPERAND_FLOAT, OPERAND_UINT, redecodeSpirv, type DecodedInstruction, type ParsedModule } from './spirv-instructions';
import { formatNumber } from './spirv-number-format';

/**
 * The names `spirv-dis` (without `--raw-id`) gives ids, following the rules of SPIRV-Tools'
 * FriendlyNameMapper (source/name_mapper.cpp, 2023.1), in one pass over the module in order:
 * - OpName wins (it comes first in the logical layout, SPIR-V § 2.4 "Debug instructions"); then a
 *   BuiltIn decoration names its target after GLSL (`gl_Position`, `gl_VertexID`, …);
 * - types describe themselves (`void`, `uint`, `v4float`, `mat4v4float`, `_ptr_Input_v4float`,
 *   `_arr_float_uint_4`, `_runtimearr_uint`, `_struct_12`), constants their value (`int_n1`,
 *   `float_0_5`, `true`);
 * - every other result id is named by its number, so that an OpName "7" cannot collide with %7;
 * - a name is made of [A-Za-z0-9_] (every other byte of the UTF-8 name becomes `_`; an empty one is
 *   `_`), and a name already taken gets `_0`, `_1`, … appended.
 * Like SPIRV-Tools, naming stops at the first instruction that does not decode (the rest keep
 * their numbers), and an id that never got a name (a forward reference) prints as its number.
 */

/** OpDecorate … BuiltIn X: the name the mapper gives X's target, by the grammar's enumerant name. */
const BUILT_IN_NAMES: Readonly<Record<string, string>> = {
  Position: 'gl_Position',
  PointSize: 'gl_PointSize',
  ClipDistance: 'gl_ClipDistance',
  CullDistance: 'gl_CullDistance',
  VertexId: 'gl_VertexID',
  InstanceId: 'gl_InstanceID',
  PrimitiveId: 'gl_PrimitiveID',
  InvocationId: 'gl_InvocationID',
  Layer: 'gl_Layer',
  ViewportIndex: 'gl_ViewportIndex',
  TessLevelOuter: 'gl_TessLevelOuter',
  TessLevelInner: 'gl_TessLevelInner',
  TessCoord: 'gl_TessCoord',
  PatchVertices: 'gl_PatchVertices',
  FragCoord: 'gl_FragCoord',
  PointCoord: 'gl_PointCoord',
  FrontFacing: 'gl_FrontFacing',
  SampleId: 'gl_SampleID',
  SamplePosition: 'gl_SamplePosition',
  SampleMask: 'gl_SampleMask',
  FragDepth: 'gl_FragDepth',
  HelperInvocation: 'gl_HelperInvocation',
  NumWorkgroups: 'gl_NumWorkGroups',
  WorkgroupSize: 'gl_WorkGroupSize',
  WorkgroupId: 'gl_WorkGroupID',
  LocalInvocationId: 'gl_LocalInvocationID',
  GlobalInvocationId: 'gl_GlobalInvocationID',
  LocalInvocationIndex: 'gl_LocalInvocationIndex',
  WorkDim: 'WorkDim',
  GlobalSize: 'GlobalSize',
  EnqueuedWorkgroupSize: 'EnqueuedWorkgroupSize',
  GlobalOffset: 'GlobalOffset',
  GlobalLinearId: 'GlobalLinearId',
  SubgroupSize: 'SubgroupSize',
  SubgroupMaxSize: 'SubgroupMaxSize',
  NumSubgroups: 'NumSubgroups',
  NumEnqueuedSubgroups: 'NumEnqueuedSubgroups',
  SubgroupId: 'SubgroupId',
  SubgroupLocalInvocationId: 'SubgroupLocalInvocationId',
  VertexIndex: 'gl_VertexIndex',
  InstanceIndex: 'gl_InstanceIndex',
  BaseInstance: 'gl_BaseInstance',
  // The grammar lists these under their core names first; SPIRV-Tools spells them with KHR.
  SubgroupEqMask: 'SubgroupEqMaskKHR',
  SubgroupGeMask: 'SubgroupGeMaskKHR',
  SubgroupGtMask: 'SubgroupGtMaskKHR',
  SubgroupLeMask: 'SubgroupLeMaskKHR',
  SubgroupLtMask: 'SubgroupLtMaskKHR',
  SubgroupEqMaskKHR: 'SubgroupEqMaskKHR',
  SubgroupGeMaskKHR: 'SubgroupGeMaskKHR',
  SubgroupGtMaskKHR: 'SubgroupGtMaskKHR',
  SubgroupLeMaskKHR: 'SubgroupLeMaskKHR',
  SubgroupLtMaskKHR: 'SubgroupLtMaskKHR',
};

const BUILT_IN_DECORATION = 11;

/** [A-Za-z0-9_] as a byte lookup. */
const VALID = new Uint8Array(256);
for (let c = 0; c < 256; c++) VALID[c] = /[A-Za-z0-9_]/.test(String.fromCharCode(c)) ? 1 : 0;

/** A suggested name made of name characters: each other byte (of its UTF-8 form) becomes `_`. */
function sanitizeBytes(bytes: ArrayLike<number>): string {
  if (bytes.length === 0) return '_';
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out += VALID[b] ? String.fromCharCode(b) : '_';
  }
  return out;
}

/** An ASCII suggestion (types, numbers): same rule, without the UTF-8 step. */
function sanitizeAscii(text: string): string {
  if (text === '') return '_';
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c < 256 && VALID[c] ? text[i] : '_';
  }
  return out;
}

/** The bytes of the literal string starting at word `at` of the module, up to its NUL (or `end`). */
function stringBytes(words: Uint32Array, at: number, end: number): number[] {
  const bytes: number[] = [];
  for (let i = at; i < end; i++) {
    const w = words[i]!;
    for (let b = 0; b < 4; b++) {
      const byte = (w >>> (8 * b)) & 0xff;
      if (byte === 0) return bytes;
      bytes.push(byte);
    }
  }
  return bytes;
}

class IdSet {
  private readonly small: Uint8Array;
  private large: Set<number> | undefined;
  constructor(size: number) {
    this.small = new Uint8Array(size);
  }
  add(id: number) {
    if (id < this.small.length) this.small[id] = 1;
    else (this.large ??= new Set()).add(id);
  }
  has(id: number): boolean {
    return id < this.small.length ? this.small[id] === 1 : (this.large?.has(id) ?? false);
  }
}

const DECIMAL = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * The mapper, fed one instruction at a time in module order. Most ids keep their number (every id
 * that is not a type, a constant or named): those are only marked, not stored as strings, because a
 * large module has 100,000 of them and the disassembler's speed matters (bench/spirv-dis.bench.ts).
 */
export class FriendlyNameMapper {
  /** Ids whose name is not their number. */
  readonly names = new Map<number, string>();
  /** Ids named by their number: a bitmap for ids below the word count (no more results fit), a Set above. */
  private readonly numbered: IdSet;
  /** Names in `names`. */
  private readonly used = new Set<string>();
  /** Per suggested name, the suffix index to try next: every lower one is taken, and names are never freed. */
  private readonly nextSuffix = new Map<string, number>();
  /** How many names in `used` are decimal numbers (which could collide with a numbered id). */
  private decimalNames = 0;
  private stopped = false;

  constructor(private readonly words: Uint32Array) {
    this.numbered = new IdSet(words.length);
  }

  nameOf(id: number): string {
    return this.names.get(id) ?? String(id);
  }

  private taken(name: string): boolean {
    if (this.used.has(name)) return true;
    return DECIMAL.test(name) && this.numbered.has(Number(name));
  }

  /** The first name wins; a taken name gets `_0`, `_1`, … (SaveName). */
  private save(id: number, sanitized: string) {
    if (this.names.has(id) || this.numbered.has(id)) return;
    let name = sanitized;
    if (this.taken(name)) {
      // SPIRV-Tools tries _0, _1, … from 0 every time; starting where the last search ended gives the
      // same name without going over a long run of "i_0", "i_1", … once per function.
      let index = this.nextSuffix.get(sanitized) ?? 0;
      for (; ; index++) {
        name = `${sanitized}_${index}`;
        if (!this.taken(name)) break;
      }
      this.nextSuffix.set(sanitized, index + 1);
    }
    this.used.add(name);
    this.names.set(id, name);
    if (DECIMAL.test(name)) this.decimalNames++;
  }

  /** The default: an id is named by its number, unless an OpName took that number first. */
  private number(id: number) {
    if (this.names.has(id) || this.numbered.has(id)) return;
    if (this.decimalNames > 0 && this.used.has(String(id))) this.save(id, String(id));
    else this.numbered.add(id);
  }

  private suggest(id: number, text: string) {
    this.save(id, sanitizeAscii(text));
  }

  /** Takes the names `inst` gives; after an instruction that did not decode, nothing more (like SPIRV-Tools' parser). */
  visit(inst: DecodedInstruction) {
    if (this.stopped || !inst.ok) {
      this.stopped = true;
      return;
    }
    const w = (k: number) => (k < inst.wordCount ? this.words[inst.offset + k]! : 0);
    const id = inst.resultId;
    switch (inst.opcode) {
      case 5 /* OpName */:
        this.save(w(1), sanitizeBytes(stringBytes(this.words, inst.offset + 2, inst.offset + inst.wordCount)));
        return;
      case 71 /* OpDecorate */:
        if (w(2) === BUILT_IN_DECORATION) {
          const builtIn = enumerant('BuiltIn', w(3))?.name;
          const name = builtIn === undefined ? undefined : BUILT_IN_NAMES[builtIn];
          if (name) this.suggest(w(1), name);
        }
        return;
    }
    if (id === undefined) return;
    switch (inst.opcode) {
      case 19 /* OpTypeVoid */:
        return this.suggest(id, 'void');
      case 20 /* OpTypeBool */:
        return this.suggest(id, 'bool');
      case 21 /* OpTypeInt */: {
        const width = w(2);
        const root = width === 8 ? 'char' : width === 16 ? 'short' : width === 32 ? 'int' : width === 64 ? 'long' : String(width);
        const known = width === 8 || width === 16 || width === 32 || width === 64;
        return this.suggest(id, (w(3) === 0 ? 'u' : known ? '' : 'i') + root);
      }
      case 22 /* OpTypeFloat */: {
        const width = w(2);
        return this.suggest(id, width === 16 ? 'half' : width === 32 ? 'float' : width === 64 ? 'double' : `fp${width}`);
      }
      case 23 /* OpTypeVector */:
        return this.suggest(id, `v${w(3)}${this.nameOf(w(2))}`);
      case 24 /* OpTypeMatrix */:
        return this.suggest(id, `mat${w(3)}${this.nameOf(w(2))}`);
      case 28 /* OpTypeArray */:
        return this.suggest(id, `_arr_${this.nameOf(w(2))}_${this.nameOf(w(3))}`);
      case 29 /* OpTypeRuntimeArray */:
        return this.suggest(id, `_runtimearr_${this.nameOf(w(2))}`);
      case 32 /* OpTypePointer */:
        return this.suggest(id, `_ptr_${enumerant('StorageClass', w(2))?.name ?? `StorageClass${w(2)}`}_${this.nameOf(w(3))}`);
      case 38 /* OpTypePipe */:
        // SPIRV-Tools' fallback for an unknown enumerant says "StorageClass" whatever the kind.
        return this.suggest(id, `Pipe${enumerant('AccessQualifier', w(2))?.name ?? `StorageClass${w(2)}`}`);
      case 34 /* OpTypeEvent */:
        return this.suggest(id, 'Event');
      case 35 /* OpTypeDeviceEvent */:
        return this.suggest(id, 'DeviceEvent');
      case 36 /* OpTypeReserveId */:
        return this.suggest(id, 'ReserveId');
      case 37 /* OpTypeQueue */:
        return this.suggest(id, 'Queue');
      case 31 /* OpTypeOpaque */:
        return this.save(id, `Opaque_${sanitizeBytes(stringBytes(this.words, inst.offset + 2, inst.offset + inst.wordCount))}`);
      case 322 /* OpTypePipeStorage */:
        return this.suggest(id, 'PipeStorage');
      case 327 /* OpTypeNamedBarrier */:
        return this.suggest(id, 'NamedBarrier');
      case 30 /* OpTypeStruct */:
        return this.suggest(id, `_struct_${id}`);
      case 41 /* OpConstantTrue */:
        return this.suggest(id, 'true');
      case 42 /* OpConstantFalse */:
        return this.suggest(id, 'false');
      case 43 /* OpConstant */: {
        // Operand 2 is the value: as spirv-dis prints it, with '-' spelled 'n' ("int_n1"); '.' and '+' become '_'.
        const isNumber = inst.count > 2 && inst.type[2]! >= OPERAND_UINT && inst.type[2]! <= OPERAND_FLOAT;
        const text = isNumber ? formatNumber(inst.numberKind(2), inst.aux[2]!, inst.numberWords(2)).replace(/-/g, 'n') : '';
        return this.suggest(id, `${this.nameOf(inst.resultTypeId ?? 0)}_${text}`);
      }
      default:
        return this.number(id);
    }
  }
}

/** The friendly name of every id of `module` (its words decoded again): the ids whose name is not their number. */
export function friendlyNames(module: Pick<ParsedModule, 'header' | 'words'>): ReadonlyMap<number, string> {
  const mapper = new FriendlyNameMapper(module.words);
  redecodeSpirv(module, (inst) => mapper.visit(inst));
  return mapper.names;
}
