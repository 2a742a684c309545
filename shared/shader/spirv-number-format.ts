/**
 * Literal numbers as spirv-dis prints them (SPIRV-Tools' EmitNumericLiteral and hex_float.h):
 * integers in decimal by signedness; 32- and 64-bit floats that are zero or normal in C++'s default
 * notation with max_digits10 significant digits (9 and 17: `%.9g` / `%.17g`), everything else
 * (subnormal, infinity, NaN, and every 16-bit float) as a hex float such as `0x1.8p+1`.
 */
import type { NumberKind } from './spirv-instructions';

const scratch = new DataView(new ArrayBuffer(8));

/**
 * C's `%.{precision}g` for a finite number (no '#' flag: trailing zeros dropped). One conversion to
 * decimal digits (toExponential), the rest string slicing: a large module prints thousands of
 * constants, each formatted by code that has not been compiled yet (issue #19).
 *
 * toExponential rounds a value halfway between two results away from zero (ECMA-262 "pick the larger
 * n"); C's printf, as spirv-dis prints through it, to the even one (`%.9g` of 1234567.125 is
 * 1234567.12): an exactly halfway value that went up to an odd last digit goes back down by one.
 */
export function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const exponential = value.toExponential(precision - 1);
  const e = exponential.indexOf('e');
  const exponent = Number(exponential.slice(e + 1));
  // "1.23456713": the sign left out, one digit, the point, precision - 1 digits.
  let mantissa = exponential.slice(value < 0 ? 1 : 0, e);
  const last = mantissa.charCodeAt(mantissa.length - 1) - 48;
  if (last % 2 === 1) {
    const halfway = `${mantissa.slice(0, -1)}${last - 1}5e${exponent}`;
    if (exactlyDecimal(Math.abs(value), halfway)) mantissa = mantissa.slice(0, -1) + String(last - 1);
  }
  const sign = value < 0 ? '-' : '';
  if (exponent < -4 || exponent >= precision) {
    const digits = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${withoutTrailingZeros(mantissa.slice(0, 1), mantissa.slice(2))}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  const digits = mantissa.length > 1 ? mantissa.slice(0, 1) + mantissa.slice(2) : mantissa;
  return exponent >= 0
    ? sign + withoutTrailingZeros(digits.slice(0, exponent + 1), digits.slice(exponent + 1))
    : sign + withoutTrailingZeros('0', '0'.repeat(-exponent - 1) + digits);
}

/** `whole.fraction` without the fraction's trailing zeros (and without the point when none is left). */
function withoutTrailingZeros(whole: string, fraction: string): string {
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  return end === 0 ? whole : `${whole}.${fraction.slice(0, end)}`;
}

/**
 * Whether the positive finite double `value` is exactly the decimal `text` ("DIGITS.DIGITSeEXP"):
 * first whether the decimal reads back as the value at all (nearly never, for a halfway text), then
 * exactly, in integers: value = m·2^b, text = n·10^k.
 */
function exactlyDecimal(value: number, text: string): boolean {
  if (Number(text) !== value) return false;
  const e = text.indexOf('e');
  const point = text.indexOf('.');
  const fraction = point < 0 ? '' : text.slice(point + 1, e);
  const n = BigInt((point < 0 ? text.slice(0, e) : text.slice(0, point)) + fraction);
  const k = Number(text.slice(e + 1)) - fraction.length;
  scratch.setFloat64(0, value);
  const high = scratch.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  const fractionBits = (BigInt(high & 0xfffff) << 32n) | BigInt(scratch.getUint32(4));
  const m = biased === 0 ? fractionBits : fractionBits | (1n << 52n);
  const b = (biased === 0 ? 1 : biased) - 1075;
  let left = m;
  let right = n;
  if (b >= 0) left <<= BigInt(b);
  else right <<= BigInt(-b);
  if (k >= 0) right *= 10n ** BigInt(k);
  else left *= 10n ** BigInt(-k);
  return left === right;
}

/** SPIRV-Tools' HexFloat printing of an IEEE value with the given field widths. */
export function formatHexFloat(bits: bigint, exponentBits: number, fractionBits: number): string {
  const one = 1n;
  const fractionNibbles = Math.ceil(fractionBits / 4);
  const overflow = BigInt(fractionNibbles * 4 - fractionBits);
  const fractionMask = (one << BigInt(fractionBits)) - one;
  const sign = (bits >> BigInt(exponentBits + fractionBits)) & one ? '-' : '';
  const exponent = Number((bits >> BigInt(fractionBits)) & ((one << BigInt(exponentBits)) - one));
  let fraction = (bits & fractionMask) << overflow;
  const isZero = exponent === 0 && fraction === 0n;
  const isDenorm = exponent === 0 && !isZero;
  const bias = 2 ** (exponentBits - 1) - 1;
  let intExponent = isZero ? 0 : exponent - bias;
  if (isDenorm) {
    const topBit = one << (BigInt(fractionBits) + overflow - one);
    while ((fraction & topBit) === 0n) {
      fraction <<= one;
      intExponent -= 1;
    }
    // The leading 1 becomes implicit.
    fraction = (fraction << one) & ((one << (BigInt(fractionBits) + overflow)) - one);
  }
  let nibbles = fractionNibbles;
  while (nibbles > 0 && (fraction & 0xfn) === 0n) {
    fraction >>= 4n;
    nibbles--;
  }
  const mantissa = nibbles ? `.${fraction.toString(16).padStart(nibbles, '0')}` : '';
  return `${sign}0x${isZero ? '0' : '1'}${mantissa}p${intExponent >= 0 ? '+' : ''}${intExponent}`;
}

function formatFloat32(word: number): string {
  scratch.setUint32(0, word >>> 0);
  const value = scratch.getFloat32(0);
  const exponent = (word >>> 23) & 0xff;
  const normalOrZero = exponent !== 0xff && (exponent !== 0 || (word & 0x7fffff) === 0);
  return normalOrZero ? formatG(value, 9) : formatHexFloat(BigInt(word >>> 0), 8, 23);
}

function formatFloat64(low: number, high: number): string {
  scratch.setUint32(0, high >>> 0);
  scratch.setUint32(4, low >>> 0);
  const value = scratch.getFloat64(0);
  const exponent = (high >>> 20) & 0x7ff;
  const fractionZero = (high & 0xfffff) === 0 && low >>> 0 === 0;
  const normalOrZero = exponent !== 0x7ff && (exponent !== 0 || fractionZero);
  return normalOrZero ? formatG(value, 17) : formatHexFloat((BigInt(high >>> 0) << 32n) | BigInt(low >>> 0), 11, 52);
}

/** A typed literal (its words low-order first), as spirv-dis prints it; '' for wider than 64 bits. */
export function formatNumber(numberKind: NumberKind, width: number, words: readonly number[]): string {
  if (words.length === 1) {
    const word = words[0]!;
    if (numberKind === 'int') return String(word | 0);
    if (numberKind === 'uint') return String(word >>> 0);
    return width === 16 ? formatHexFloat(BigInt(word & 0xffff), 5, 10) : formatFloat32(word);
  }
  if (words.length === 2) {
    const bits = (BigInt(words[1]! >>> 0) << 32n) | BigInt(words[0]! >>> 0);
    if (numberKind === 'int') return BigInt.asIntN(64, bits).toString();
    if (numberKind === 'uint') return bits.toString();
    return formatFloat64(words[0]!, words[1]!);
  }
  return '';
}
