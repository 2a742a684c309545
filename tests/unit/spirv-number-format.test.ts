import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { formatG, formatHexFloat, formatNumber } from '../../shared/shader/spirv-number-format';

// shared/shader/spirv-number-format.ts: literal numbers as spirv-dis (spirv-tools) prints them; the
// corpus comparison with spirv-dis is tests/integration/spirv-disassembler.test.ts.
test('literal numbers as spirv-dis prints them', () => {
  assert.equal(formatNumber('float', 32, [0x7fc00000]), '0x1.8p+128'); // NaN
  assert.equal(formatNumber('float', 32, [0xff800000]), '-0x1p+128'); // -inf
  assert.equal(formatNumber('float', 32, [0x80000000]), '-0');
  assert.equal(formatNumber('float', 32, [0x3dcccccd]), '0.100000001');
  assert.equal(formatNumber('float', 32, [0x4b800000]), '16777216');
  assert.equal(formatNumber('float', 16, [0x3c00]), '0x1p+0');
  assert.equal(formatNumber('float', 64, [0x9999999a, 0x3fb99999]), '0.10000000000000001');
  assert.equal(formatNumber('int', 64, [0xffffffff, 0xffffffff]), '-1');
  assert.equal(formatNumber('uint', 64, [0, 1]), '4294967296');
  assert.equal(formatNumber('int', 32, [0xffffffff]), '-1');
});

test("formatG is C's %g: the same text as printf(1) for doubles and floats widened to double", () => {
  const values = [0.1, Math.fround(0.1), 100000, 1000000, 0.0001, 0.00001, 1.5, -2, 123456789, 1e300, -1e-300, Math.fround(3.4e38), 5e-324];
  for (const precision of [9, 17]) {
    // coreutils printf formats with the C library's printf.
    const expected = execFileSync('printf', [`%.${precision}g\\n`, ...values.map((v) => v.toPrecision(17))], { encoding: 'utf8' })
      .trimEnd()
      .split('\n');
    assert.deepEqual(
      values.map((v) => formatG(v, precision)),
      expected,
      `precision ${precision}`,
    );
  }
  assert.equal(formatG(-0, 9), '-0');
});

test('formatHexFloat: normal, subnormal and zero, as spirv-dis writes NaN, infinity and tiny values', () => {
  assert.equal(formatHexFloat(0x3f800000n, 8, 23), '0x1p+0');
  assert.equal(formatHexFloat(0x00000001n, 8, 23), '0x1p-149');
  assert.equal(formatHexFloat(0x7f800000n, 8, 23), '0x1p+128');
  assert.equal(formatHexFloat(0x0001n, 5, 10), '0x1p-24');
});
