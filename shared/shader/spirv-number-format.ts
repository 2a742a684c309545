/**
 * Literal numbers as spirv-dis prints them (SPIRV-Tools' EmitNumericLiteral and hex_float.h):
 * integers in decimal by signedness; 32- and 64-bit floats that are zero or normal in C++'s default
 * notation with max_digits10 significant digits (9 and 17: `%.9g` / `%.17g`), everything else
 * (subnormal, infinity, NaN, and every 16-bit float) as a hex float such as `0x1.8p+1`.
 */
import type { NumberKind } from './spirv-instructions';

/** C's `%.{precision}g` for a finite number (no '#' flag: trailing zeros dropped). */
export function formatG(value: number, precision: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const exponential = value.toExponential(precision - 1);
  const e = exponential.indexOf('e');
  const exponent = Number(exponential.slice(e + 1));
  const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exponent < -4 || exponent >= precision) {
    const digits = Math.abs(exponent).toString().padStart(2, '0');
    return `${trim(exponential.slice(0, e))}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return trim(value.toFixed(precision - 1 - exponent));
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

const scratch = new DataView(new ArrayBuffer(8));

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
