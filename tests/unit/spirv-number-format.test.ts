import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { formatG, formatHexFloat, formatNumber } from '../../shared/shader/spirv-number-format';
import { seededRandom } from '../helpers/seeded-random';

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

/** A double's bits, as formatHexFloat reads them. */
function doubleBits(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return view.getBigUint64(0);
}

test("formatG rounds an exactly halfway value to the even digit, as C's printf does (spirv-dis prints 1234567.125 as 1234567.12)", () => {
  assert.equal(formatG(1234567.125, 9), '1234567.12');
  assert.equal(formatG(-1234567.125, 9), '-1234567.12');
  assert.equal(formatG(1234567.375, 9), '1234567.38');
  assert.equal(formatG(123456789012345.625, 17), '123456789012345.62');
  assert.equal(formatNumber('float', 32, [0x4996b439]), '1234567.12');
});

test("formatG is C's %g for random floats and doubles, halfway values and the notation's edges included (printf(1) given each value exactly, in hex)", () => {
  const random = seededRandom(19);
  const floats: number[] = [];
  const view = new DataView(new ArrayBuffer(4));
  for (let i = 0; i < 1500; i++) {
    view.setUint32(0, Math.floor(random() * 2 ** 32));
    const f = view.getFloat32(0);
    if (Number.isFinite(f)) floats.push(f);
  }
  // Halfway at the 9th digit (n + 1/8, 3/8, 5/8, 7/8 with 10 significant digits), and around 1e-4, 1e-5 and 1e9.
  for (let n = 1000000; n < 1000040; n++) for (const q of [0.125, 0.375, 0.625, 0.875]) floats.push(Math.fround(n + q), -Math.fround(n + q));
  for (const edge of [1e-4, 1e-5, 1e9, 1e-6, 99999.99, 999999999])
    floats.push(Math.fround(edge), Math.fround(edge * (1 + 2 ** -23)), Math.fround(edge * (1 - 2 ** -23)));
  const doubles: number[] = [];
  const view64 = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 1500; i++) {
    view64.setUint32(0, Math.floor(random() * 2 ** 32));
    view64.setUint32(4, Math.floor(random() * 2 ** 32));
    const d = view64.getFloat64(0);
    if (Number.isFinite(d)) doubles.push(d);
  }
  for (let n = 123456789012345; n < 123456789012365; n++) for (const q of [0.125, 0.375, 0.625, 0.875]) doubles.push(n + q);
  for (const edge of [1e-4, 1e-5, 1e17, 1e16]) doubles.push(edge, edge * (1 + 2 ** -52), edge * (1 - 2 ** -52));
  for (const [precision, values] of [
    [9, floats],
    [17, doubles],
  ] as const) {
    const exact = values.map((v) => (v === 0 ? (Object.is(v, -0) ? '-0' : '0') : formatHexFloat(doubleBits(v), 11, 52)));
    const expected = execFileSync('printf', [`%.${precision}g\\n`, ...exact], { encoding: 'utf8', maxBuffer: 16 << 20 })
      .trimEnd()
      .split('\n');
    values.forEach((v, i) => assert.equal(formatG(v, precision), expected[i], `%.${precision}g of ${exact[i]}`));
  }
});

test('formatHexFloat: normal, subnormal and zero, as spirv-dis writes NaN, infinity and tiny values', () => {
  assert.equal(formatHexFloat(0x3f800000n, 8, 23), '0x1p+0');
  assert.equal(formatHexFloat(0x00000001n, 8, 23), '0x1p-149');
  assert.equal(formatHexFloat(0x7f800000n, 8, 23), '0x1p+128');
  assert.equal(formatHexFloat(0x0001n, 5, 10), '0x1p-24');
});
