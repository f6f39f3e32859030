// The string upstream serves and stores for a quantity it decoded (ParseQuantity, then
// String()): a decoded built-in object holds resource.Quantity values, never the text
// sent, so "1000m" is written back as "1" and "1024Mi" as "1Gi". ParseQuantity keeps the
// text itself when its fast path finds it already canonical, sign and leading zeros
// included ("+1", "01Mi"); everything else is printed from the value in its format.

/** Decimal suffixes by power-of-ten exponent (DecimalSI has none past E, none below n). */
const decimalSuffixByExp = new Map<number, string>([[-9, 'n'], [-6, 'u'], [-3, 'm'], [0, ''], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E']]);
const decimalExpBySuffix: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binaryExpBySuffix: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const binarySuffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const shape = /^([+-]?)(0*)([0-9]*)(?:\.([0-9]*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?[0-9]+))?$/;
const nano = 1_000_000_000n;
/** The largest BinarySI value ParseQuantity keeps (2^63-1); larger ones are capped to it. */
const maxBinary = (1n << 63n) - 1n;
/** Longer digit strings than this are left as sent: no resource is written that way, and BigInt parsing grows with the square of their length. */
const maxBinaryDigits = 64;

/**
 * Upstream's stored and served form of the quantity `text` (a string already trimmed, or
 * a JSON number's text); undefined when it does not parse, so the caller keeps it as is.
 */
export function canonicalQuantityString(text: string): string | undefined {
  if (text === '0') return text;
  const m = shape.exec(text);
  if (!m) return undefined;
  const [, sign, zeros, whole, frac = '', suffix, exponent] = m;
  if (zeros === '' && whole === '' && frac === '') return undefined;
  const num = whole === '' ? '0' : whole;
  const negative = sign === '-';
  if (exponent !== undefined) {
    const exp = Number(exponent);
    // Go parses the exponent as an int64 and keeps it as an int32.
    if (!Number.isSafeInteger(exp) || exp > 2147483647 || exp < -2147483648) return undefined;
    return decimal(text, num, frac, exp, negative, true);
  }
  if (suffix !== undefined && suffix in binaryExpBySuffix) return binary(text, num, frac, binaryExpBySuffix[suffix], negative);
  return decimal(text, num, frac, decimalExpBySuffix[suffix ?? ''], negative, false);
}

function decimal(text: string, num: string, frac: string, exp: number, negative: boolean, exponentForm: boolean): string {
  const digits = num + frac;
  const scale = exp - frac.length;
  // ParseQuantity's int64 fast path, which keeps an already canonical text.
  if (digits.length <= 18 && scale >= -9 && scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0') return text;
  return printDecimal(digits, scale, negative, exponentForm);
}

function binary(text: string, num: string, frac: string, exp: number, negative: boolean): string | undefined {
  if (frac === '' && 15 - num.length - (exp * 3) / 10 - 1 >= 0) {
    const value = BigInt(num);
    // Fast path: a whole number of units kept as written unless 1024 may divide it.
    if ((value & 7n) !== 0n) return text;
    return printBinaryNanos(value << BigInt(exp), negative);
  }
  if (num.length + frac.length > maxBinaryDigits) return undefined;
  const den = 10n ** BigInt(frac.length);
  const scaled = (BigInt(num + frac) << BigInt(exp)) * nano;
  let nanos = scaled / den + (scaled % den === 0n ? 0n : 1n);
  if (nanos > maxBinary * nano) nanos = maxBinary * nano;
  return printBinary(nanos, negative);
}

/** Whole units in BinarySI: base-1024 when they are at least 1Ki. */
function printBinaryNanos(units: bigint, negative: boolean): string {
  return printBinary(units * nano, negative);
}

/**
 * A BinarySI value of `nanos` nano-units (non-negative): decimal below 1024 or when not
 * whole, as upstream's CanonicalizeBytes does, else the largest power-of-1024 suffix.
 */
export function printBinary(nanos: bigint, negative: boolean): string {
  if (nanos === 0n) return '0';
  if (nanos < 1024n * nano || nanos % nano !== 0n) return printDecimal(nanos.toString(), -9, negative, false);
  let units = nanos / nano;
  let i = 0;
  while (i < binarySuffixes.length - 1 && units % 1024n === 0n) {
    units /= 1024n;
    i++;
  }
  return `${negative ? '-' : ''}${units}${binarySuffixes[i]}`;
}

/**
 * `digits` × 10^`scale` in a decimal format: rounded up to a nano-unit, then the mantissa
 * with the largest exponent that is a multiple of 3 and keeps it whole. DecimalSI past E
 * falls back to exponent notation, as upstream prints it rather than drop the magnitude.
 */
export function printDecimal(digits: string, scale: number, negative: boolean, exponentForm: boolean): string {
  let d = digits.replace(/^0+/, '');
  if (d === '') return '0';
  let exp = scale;
  if (exp < -9) {
    const keep = d.length - (-9 - exp);
    const dropped = keep > 0 ? d.slice(keep) : d;
    d = keep > 0 ? d.slice(0, keep) : '';
    if (/[1-9]/.test(dropped)) d = increment(d);
    d = d.replace(/^0+/, '');
    exp = -9;
  }
  const trailing = d.length - d.replace(/0+$/, '').length;
  if (trailing > 0) {
    d = d.slice(0, d.length - trailing);
    exp += trailing;
  }
  const shift = ((exp % 3) + 3) % 3;
  if (shift > 0) {
    d += '0'.repeat(shift);
    exp -= shift;
  }
  const suffix = exponentForm ? (exp === 0 ? '' : `e${exp}`) : decimalSuffixByExp.get(exp) ?? `e${exp}`;
  return `${negative ? '-' : ''}${d}${suffix}`;
}

/** A decimal digit string plus one ('' is zero). */
function increment(d: string): string {
  let i = d.length - 1;
  while (i >= 0 && d[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(d.length)}`;
  return `${d.slice(0, i)}${String.fromCharCode(d.charCodeAt(i) + 1)}${'0'.repeat(d.length - i - 1)}`;
}
