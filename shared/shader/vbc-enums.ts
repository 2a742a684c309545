/**
 * The enumerations of a VBC ("Vega ByteCode") file that its format page leaves to "Reflection Info".
 * This is the ONE table of them (docs/vbc.md repeats it for people). Values 0–13, 0–6 and 0–4 follow
 * the public LibVega/VSL sources (`vsl::BaseType`, `TexelRank`, `TexelType`); values marked
 * "Strata" are extensions for SPIR-V that VSL itself never emits (a separate `sampler`, multisampled
 * and cube-array images), kept far from VSL's range so they cannot collide with a later VSL value.
 */

/** The stages in file order; a stage mask bit is `1 << index` (the same bits as VkShaderStageFlagBits). */
export const VBC_STAGES = ['vert', 'tesc', 'tese', 'geom', 'frag'] as const;
export type VbcStage = (typeof VBC_STAGES)[number];
export const VBC_EXECUTION_MODELS: Record<VbcStage, string> = {
  vert: 'Vertex',
  tesc: 'TessellationControl',
  tese: 'TessellationEvaluation',
  geom: 'Geometry',
  frag: 'Fragment',
};
export const ALL_STAGES_MASK = 0x1f;

export const BaseType = {
  Void: 0,
  Boolean: 1,
  Signed: 2,
  Unsigned: 3,
  Float: 4,
  /** Vulkan combined image sampler; Strata also: a sampled image or a separate sampler. */
  Sampler: 5,
  /** Vulkan storage image. */
  Image: 6,
  /** Read-only storage buffer; Strata also: every uniform buffer but the one that is "the uniform". */
  ROBuffer: 7,
  RWBuffer: 8,
  /** Vulkan uniform texel buffer. */
  ROTexels: 9,
  /** Vulkan storage texel buffer. */
  RWTexels: 10,
  SPInput: 11,
  Uniform: 12,
  Struct: 13,
} as const;

export const TexelRank = {
  E1D: 0,
  E2D: 1,
  E3D: 2,
  E1DArray: 3,
  E2DArray: 4,
  Cube: 5,
  Buffer: 6,
  /** Strata: samplerCubeArray. */
  CubeArray: 0x40,
  /** Strata: sampler2DMS. */
  E2DMS: 0x41,
  /** Strata: sampler2DMSArray. */
  E2DMSArray: 0x42,
  /** Strata: a separate `sampler` (no image): texel type, size and components are 0. */
  None: 0xff,
} as const;

export const TexelType = { Signed: 0, Unsigned: 1, Float: 2, UNorm: 3, SNorm: 4 } as const;

const invert = (table: Record<string, number>): Map<number, string> => new Map(Object.entries(table).map(([k, v]) => [v, k]));
const BASE_NAMES = invert(BaseType);
const RANK_NAMES = invert(TexelRank);
const TEXEL_NAMES = invert(TexelType);

export const baseTypeName = (v: number): string => BASE_NAMES.get(v) ?? `Unknown(${v})`;
export const texelRankName = (v: number): string => (RANK_NAMES.get(v) ?? `Unknown(${v})`).replace(/^E(?=\d)/, '');
export const texelTypeName = (v: number): string => TEXEL_NAMES.get(v) ?? `Unknown(${v})`;

/** Base types a vertex input, fragment output or uniform member may have (Struct: members only). */
export const NUMERIC_BASE_TYPES: ReadonlySet<number> = new Set([BaseType.Boolean, BaseType.Signed, BaseType.Unsigned, BaseType.Float]);

/** The binding kinds of the bindings section, with the header's binding table each one counts in. */
export const BINDING_TABLES = ['samplers', 'images', 'buffers', 'rotexels', 'rwtexels'] as const;
export const BINDING_KINDS: ReadonlyMap<number, { layout: 'buffer' | 'texel'; table: number }> = new Map([
  [BaseType.Sampler, { layout: 'texel', table: 0 }],
  [BaseType.Image, { layout: 'texel', table: 1 }],
  [BaseType.ROBuffer, { layout: 'buffer', table: 2 }],
  [BaseType.RWBuffer, { layout: 'buffer', table: 2 }],
  [BaseType.ROTexels, { layout: 'texel', table: 3 }],
  [BaseType.RWTexels, { layout: 'texel', table: 4 }],
]);

export const TEXEL_RANKS: ReadonlySet<number> = new Set(Object.values(TexelRank));
export const TEXEL_TYPES: ReadonlySet<number> = new Set(Object.values(TexelType));

/**
 * SPIR-V ImageFormat (as spirv-reflect.ts names it) → texel type, component size in bytes, component
 * count. A storage image or texel buffer with a format outside this table cannot be described in VBC
 * (its component count would not be 1, 2 or 4, or its size not whole bytes).
 */
export const TEXEL_FORMATS: Readonly<Record<string, readonly [type: number, size: number, components: number]>> = {
  Rgba32f: [TexelType.Float, 4, 4],
  Rgba16f: [TexelType.Float, 2, 4],
  Rg32f: [TexelType.Float, 4, 2],
  Rg16f: [TexelType.Float, 2, 2],
  R32f: [TexelType.Float, 4, 1],
  R16f: [TexelType.Float, 2, 1],
  Rgba8: [TexelType.UNorm, 1, 4],
  Rgba16: [TexelType.UNorm, 2, 4],
  Rg8: [TexelType.UNorm, 1, 2],
  Rg16: [TexelType.UNorm, 2, 2],
  R8: [TexelType.UNorm, 1, 1],
  R16: [TexelType.UNorm, 2, 1],
  Rgba8Snorm: [TexelType.SNorm, 1, 4],
  Rgba16Snorm: [TexelType.SNorm, 2, 4],
  Rg8Snorm: [TexelType.SNorm, 1, 2],
  R8Snorm: [TexelType.SNorm, 1, 1],
  Rgba32i: [TexelType.Signed, 4, 4],
  Rgba16i: [TexelType.Signed, 2, 4],
  Rgba8i: [TexelType.Signed, 1, 4],
  Rg32i: [TexelType.Signed, 4, 2],
  R32i: [TexelType.Signed, 4, 1],
  Rgba32ui: [TexelType.Unsigned, 4, 4],
  Rgba16ui: [TexelType.Unsigned, 2, 4],
  Rgba8ui: [TexelType.Unsigned, 1, 4],
  Rg32ui: [TexelType.Unsigned, 4, 2],
  R32ui: [TexelType.Unsigned, 4, 1],
};
