import * as z from 'zod';
import { SpirvDiagnosticSchema } from './shader-disassembly';
import type { BlockMember, SpirvReflection } from './spirv-reflect';
import { VbcDescriptionSchema } from './vbc-inspection';

/** What `shader.inspect` answers: the module's header and mode-setting summary, its reflection, and validation diagnostics. */
export const ShaderInspectRequestSchema = z
  .object({
    /** A SPIR-V module on the machine that runs main/ (read there, never in the renderer). */
    path: z.string().min(1),
  })
  .strict();

const BlockMemberSchema: z.ZodType<BlockMember> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    offset: z.number().int().optional(),
    size: z.number().int().optional(),
    arraySize: z.array(z.number().int()).optional(),
    arrayStride: z.number().int().optional(),
    matrixStride: z.number().int().optional(),
    rowMajor: z.boolean().optional(),
    members: z.array(BlockMemberSchema).optional(),
  }),
);
const BlockLayoutSchema = z.object({
  typeName: z.string(),
  size: z.number().int(),
  runtimeArrayStride: z.number().int().optional(),
  members: z.array(BlockMemberSchema),
});
const InterfaceVariableSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  blockName: z.string().optional(),
  type: z.string(),
  location: z.number().int().optional(),
  component: z.number().int().optional(),
  builtIns: z.array(z.string()),
  qualifiers: z.array(z.string()),
});
const DimensionSchema = z.object({ value: z.number(), specId: z.number().int().optional() });

export const SpirvReflectionSchema: z.ZodType<SpirvReflection> = z.object({
  entryPoints: z.array(
    z.object({
      name: z.string(),
      id: z.number().int(),
      executionModel: z.string(),
      stage: z.string(),
      executionModes: z.array(z.object({ mode: z.string(), operands: z.array(z.union([z.number(), z.string()])) })),
      workgroupSize: z.tuple([DimensionSchema, DimensionSchema, DimensionSchema]).optional(),
      inputs: z.array(InterfaceVariableSchema),
      outputs: z.array(InterfaceVariableSchema),
    }),
  ),
  descriptorBindings: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      set: z.number().int(),
      binding: z.number().int(),
      kind: z.enum([
        'uniform buffer',
        'storage buffer',
        'sampler',
        'combined image sampler',
        'sampled image',
        'storage image',
        'uniform texel buffer',
        'storage texel buffer',
        'input attachment',
        'acceleration structure',
      ]),
      type: z.string(),
      arraySize: z.array(z.number().int()),
      inputAttachmentIndex: z.number().int().optional(),
      imageFormat: z.string().optional(),
      access: z.enum(['read-write', 'read-only', 'write-only']),
      block: BlockLayoutSchema.optional(),
    }),
  ),
  pushConstants: z.array(z.object({ id: z.number().int(), name: z.string(), block: BlockLayoutSchema })),
  specializationConstants: z.array(
    z.object({
      id: z.number().int(),
      specId: z.number().int(),
      name: z.string(),
      type: z.string(),
      defaultValue: z.union([z.boolean(), z.number(), z.string()]),
    }),
  ),
});

export const SpirvSummarySchema = z.object({
  /** "1.5" */
  version: z.string(),
  endianness: z.enum(['little', 'big']),
  /** "Khronos Glslang Reference Front End; 11", like spirv-dis's header. */
  generator: z.string(),
  bound: z.number().int(),
  instructionCount: z.number().int(),
  capabilities: z.array(z.string()),
  extensions: z.array(z.string()),
  extInstImports: z.array(z.string()),
  addressingModel: z.string().nullable(),
  memoryModel: z.string().nullable(),
});
export type SpirvSummary = z.infer<typeof SpirvSummarySchema>;

export const ShaderInspectionSchema = z.object({
  path: z.string(),
  /** False when any diagnostic is an error (reader, decoder or logical layout). */
  ok: z.boolean(),
  /** null when the file is not a SPIR-V module at all (no header). */
  summary: SpirvSummarySchema.nullable(),
  reflection: SpirvReflectionSchema,
  /** Ranges are on line 0 and count 32-bit words from the start of the module (a VBC file: bytes from the start of the file). */
  diagnostics: z.array(SpirvDiagnosticSchema),
  /** 'vbc' for a VBC ("Vega ByteCode") file, detected by its magic; absent or 'spirv' for a SPIR-V module. */
  format: z.enum(['spirv', 'vbc']).optional(),
  /** VBC only: header, sections and the file's own reflection (docs/vbc.md). `reflection` above is then the union of the stages'. */
  vbc: VbcDescriptionSchema.optional(),
  /** VBC only: each stage's SPIR-V, inspected on its own (its diagnostics count words from the stage's first word). */
  stages: z
    .array(
      z.object({
        stage: z.enum(['vert', 'tesc', 'tese', 'geom', 'frag']),
        byteOffset: z.number().int(),
        byteLength: z.number().int(),
        ok: z.boolean(),
        summary: SpirvSummarySchema.nullable(),
        reflection: SpirvReflectionSchema,
        diagnostics: z.array(SpirvDiagnosticSchema),
      }),
    )
    .optional(),
});
export type ShaderInspection = z.infer<typeof ShaderInspectionSchema>;
