import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeVbc, encodeVbc, isVbc, VBC_HEADER_BYTES, type VbcReflection } from '../../shared/shader/vbc-format';
import { BaseType, TexelRank, TexelType } from '../../shared/shader/vbc-enums';

/**
 * shared/shader/vbc-format.ts: the VBC byte layout (docs/vbc.md, "Compiled Shader Format" of
 * LibVega/VSL). Packing real SPIR-V stages and the cross-check are in tests/integration/vbc.test.ts.
 */
const reflection: VbcReflection = {
  vertexInputs: [{ location: 0, baseType: BaseType.Float, dims: [3, 1], arraySize: 1 }],
  fragmentOutputs: [{ location: 0, baseType: BaseType.Float, dims: [4, 1], arraySize: 1 }],
  bindings: [
    { layout: 'buffer', slot: 0, baseType: BaseType.ROBuffer, stageMask: 0x01, bufferSize: 64 },
    {
      layout: 'texel',
      slot: 1,
      baseType: BaseType.Sampler,
      stageMask: 0x10,
      rank: TexelRank.E2D,
      texelType: TexelType.Float,
      texelSize: 4,
      texelComponents: 4,
    },
  ],
  uniform: { size: 16, stageMask: 0x11, members: [{ name: 'tint', offset: 0, baseType: BaseType.Float, dims: [4, 1], arraySize: 1 }] },
  subpassInputs: [{ texelType: TexelType.Float, components: 4 }],
};
// Word-sized stand-ins for bytecode: the format only stores their length in words.
const vert = new Uint8Array([0x03, 0x02, 0x23, 0x07, 1, 0, 0, 0]);
const frag = new Uint8Array([0x03, 0x02, 0x23, 0x07]);

test('encode then decode gives back the reflection, the header and each stage’s bytes', () => {
  const bytes = encodeVbc(reflection, { vert, frag });
  assert.ok(isVbc(bytes));
  assert.deepEqual([...bytes.subarray(0, 5)], [0x56, 0x42, 0x43, 1, 1], '"VBC", version 1, graphics');
  const d = decodeVbc(bytes);
  assert.deepEqual(d.diagnostics, []);
  assert.deepEqual(d.reflection, reflection);
  assert.deepEqual(d.header, { version: 1, shaderType: 1, bytecodeWords: [2, 0, 0, 0, 1], bindingTableSizes: [1, 0, 1, 0, 0] });
  assert.deepEqual(
    d.stages.map((s) => [s.stage, [...s.bytes]]),
    [
      ['vert', [...vert]],
      ['frag', [...frag]],
    ],
  );
  assert.equal(d.sections[0]?.name, 'header');
  const last = d.sections.at(-1);
  assert.equal((last?.byteOffset ?? 0) + (last?.byteLength ?? 0), bytes.length, 'the sections cover the file');
});

test('a damaged file: bad magic, a short header, a stage cut short — each a diagnostic with its byte offset', () => {
  const good = encodeVbc(reflection, { vert, frag });
  const magic = good.slice();
  magic[1] = 0x58;
  assert.deepEqual(
    decodeVbc(magic).diagnostics.map((x) => [x.code, x.range.start.character]),
    [['vbc/bad-magic', 0]],
  );
  assert.equal(isVbc(magic), false);
  const short = decodeVbc(good.subarray(0, VBC_HEADER_BYTES - 1));
  assert.deepEqual(
    short.diagnostics.map((x) => x.code),
    ['vbc/truncated-header'],
  );
  assert.equal(short.header, null);
  const cut = decodeVbc(good.subarray(0, good.length - 2));
  assert.ok(
    cut.diagnostics.some((x) => x.code === 'vbc/bytecode-size-mismatch' || x.code === 'vbc/section-past-end'),
    JSON.stringify(cut.diagnostics.map((x) => x.code)),
  );
  const version = good.slice();
  version[3] = 2;
  assert.deepEqual(
    decodeVbc(version).diagnostics.map((x) => [x.code, x.range.start.character]),
    [['vbc/unsupported-version', 3]],
  );
});
