import * as z from 'zod';

/**
 * The VBC part of what `shader.inspect` answers for a VBC file (docs/vbc.md): the header, where each
 * section lies, and the decoded reflection with raw enum values (vbc-enums.ts names them). Each
 * stage's SPIR-V inspection is in the answer's `stages` (shader-inspection.ts).
 */
const Dims = z.tuple([z.number().int(), z.number().int()]);
const InterfaceVariable = z.object({ location: z.number().int(), baseType: z.number().int(), dims: Dims, arraySize: z.number().int() });
const Binding = z.discriminatedUnion('layout', [
  z.object({ layout: z.literal('buffer'), slot: z.number().int(), baseType: z.number().int(), stageMask: z.number().int(), bufferSize: z.number().int() }),
  z.object({
    layout: z.literal('texel'),
    slot: z.number().int(),
    baseType: z.number().int(),
    stageMask: z.number().int(),
    rank: z.number().int(),
    texelType: z.number().int(),
    texelSize: z.number().int(),
    texelComponents: z.number().int(),
  }),
]);

export const VbcReflectionSchema = z.object({
  vertexInputs: z.array(InterfaceVariable),
  fragmentOutputs: z.array(InterfaceVariable),
  bindings: z.array(Binding),
  uniform: z
    .object({
      size: z.number().int(),
      stageMask: z.number().int(),
      members: z.array(z.object({ name: z.string(), offset: z.number().int(), baseType: z.number().int(), dims: Dims, arraySize: z.number().int() })),
    })
    .nullable(),
  subpassInputs: z.array(z.object({ texelType: z.number().int(), components: z.number().int() })),
});

export const VbcDescriptionSchema = z.object({
  /** null when the header could not be read (too short, wrong magic). */
  header: z
    .object({
      version: z.number().int(),
      shaderType: z.number().int(),
      /** Words per stage in file order: vert, tesc, tese, geom, frag. */
      bytecodeWords: z.array(z.number().int()),
      /** samplers, images, buffers, rotexels, rwtexels. */
      bindingTableSizes: z.array(z.number().int()),
    })
    .nullable(),
  sections: z.array(z.object({ name: z.string(), byteOffset: z.number().int(), byteLength: z.number().int() })),
  reflection: VbcReflectionSchema,
});
