import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BaseType,
  BINDING_KINDS,
  BINDING_TABLES,
  baseTypeName,
  TEXEL_FORMATS,
  TexelRank,
  texelRankName,
  TexelType,
  texelTypeName,
} from '../../shared/shader/vbc-enums';

// shared/shader/vbc-enums.ts: the raw enum values of the VBC format (docs/vbc.md) and their names.
test('names for known values, Unknown(n) for the rest; ranks drop the E of E2D', () => {
  assert.equal(baseTypeName(BaseType.ROBuffer), 'ROBuffer');
  assert.equal(baseTypeName(99), 'Unknown(99)');
  assert.equal(texelRankName(TexelRank.E2D), '2D');
  assert.equal(texelRankName(TexelRank.E2DMSArray), '2DMSArray');
  assert.equal(texelRankName(TexelRank.Cube), 'Cube');
  assert.equal(texelRankName(7), 'Unknown(7)');
  assert.equal(texelTypeName(TexelType.UNorm), 'UNorm');
  assert.equal(texelTypeName(9), 'Unknown(9)');
});

test('every binding kind counts in one of the header’s five tables; texel formats are whole bytes of 1, 2 or 4 components', () => {
  assert.deepEqual(
    [...BINDING_KINDS].map(([t, k]) => [baseTypeName(t), BINDING_TABLES[k.table]]),
    [
      ['Sampler', 'samplers'],
      ['Image', 'images'],
      ['ROBuffer', 'buffers'],
      ['RWBuffer', 'buffers'],
      ['ROTexels', 'rotexels'],
      ['RWTexels', 'rwtexels'],
    ],
  );
  for (const [format, [type, size, components]] of Object.entries(TEXEL_FORMATS)) {
    assert.ok([1, 2, 4].includes(components), format);
    assert.ok([1, 2, 4].includes(size), format);
    assert.ok(Object.values(TexelType).includes(type as 0), format);
    // The SPIR-V ImageFormat name says the component count: R, Rg or Rgba.
    assert.equal(components, /^Rgba/.test(format) ? 4 : /^Rg/.test(format) ? 2 : 1, format);
  }
});
