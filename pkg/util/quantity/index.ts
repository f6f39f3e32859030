// resource.Quantity with exact arithmetic: values are held as whole nano-units in a
// bigint (upstream rounds anything finer up to the nano), and printed in upstream's
// canonical form for their format (the format of the written suffix), so sums read
// in messages and status exactly as upstream prints them ("1500m", "3Gi", "2k").
import { printBinary, printDecimal } from './canonical.js';

export { canonicalQuantityString } from './canonical.js';
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const nano = 1_000_000_000n;
const binarySuffixes: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const maxBinary = ((1n << 63n) - 1n) * nano;
const maxPow10 = 400;
const maxDigits = 1000;
const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const quantityRe = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:([eE][+-]?[0-9]+)|([numkMGTPE]|[KMGTPE]i))?$/;

export class Quantity {
  constructor(readonly nanos: bigint, readonly format: QuantityFormat = 'DecimalSI') {}

  static zero(format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(0n, format);
  }

  static fromInt(n: number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(n) * nano, format);
  }

  /** Parses a quantity string (or a JSON number); undefined when it is not one. */
  static parse(v: unknown): Quantity | undefined {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return undefined;
      v = String(v);
    }
    if (typeof v !== 'string') return undefined;
    const m = quantityRe.exec(v.trim());
    if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
    const [, sign, digits, fraction = '', exp, suffix = ''] = m;
    const [whole, frac] = boundedDigits(digits, fraction);
    let num = BigInt(`${whole || '0'}${frac}`);
    let den = 10n ** BigInt(frac.length);
    let format: QuantityFormat = 'DecimalSI';
    let pow10 = 0;
    if (exp) {
      format = 'DecimalExponent';
      pow10 = Number(exp.slice(1));
    } else if (suffix in binarySuffixes) {
      format = 'BinarySI';
      num *= binarySuffixes[suffix];
    } else {
      pow10 = decimalSuffixes[suffix];
    }
    // A value under 10^-10 rounds up to one nano-unit (10^pow10 need not be built for it);
    // past 10^400 no value is a resource, and BigInt powers that large stall the event loop.
    if (whole.replace(/^0+/, '').length + pow10 < -10) return new Quantity(num === 0n ? 0n : sign === '-' ? -1n : 1n, format);
    if (pow10 > maxPow10) pow10 = maxPow10;
    if (pow10 >= 0) num *= 10n ** BigInt(pow10);
    else den *= 10n ** BigInt(-pow10);
    num *= nano;
    // Upstream rounds a value finer than a nano-unit up (away from zero), caps BinarySI at
    // 2^63-1 and prints a BinarySI value under 1 as DecimalSI.
    let n = num / den;
    if (num % den !== 0n) n += 1n;
    if (format === 'BinarySI' && n > maxBinary) n = maxBinary;
    if (format === 'BinarySI' && n > 0n && n < nano) format = 'DecimalSI';
    return new Quantity(sign === '-' ? -n : n, format);
  }

  add(o: Quantity): Quantity {
    return new Quantity(this.nanos + o.nanos, this.nanos === 0n ? o.format : this.format);
  }

  sub(o: Quantity): Quantity {
    return new Quantity(this.nanos - o.nanos, this.nanos === 0n ? o.format : this.format);
  }

  cmp(o: Quantity): number {
    return this.nanos < o.nanos ? -1 : this.nanos > o.nanos ? 1 : 0;
  }

  sign(): number {
    return this.nanos < 0n ? -1 : this.nanos > 0n ? 1 : 0;
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  /** Upstream's canonical string for the value in its format (CanonicalizeBytes). */
  toString(): string {
    const neg = this.nanos < 0n;
    const abs = neg ? -this.nanos : this.nanos;
    if (this.format === 'BinarySI') return printBinary(abs, neg);
    return printDecimal(abs.toString(), -9, neg, this.format === 'DecimalExponent');
  }
}

/**
 * Digits BigInt can take at once (its parse grows with the square of their length): a
 * whole part past 10^1000 is taken as 10^1000, no resource's size, and a fraction past
 * 1000 digits keeps only whether the rest is non-zero, which is all the rounding up needs.
 */
function boundedDigits(whole: string, frac: string): [string, string] {
  const w = whole.replace(/^0+/, '');
  if (w.length > maxDigits) return [`1${'0'.repeat(maxDigits)}`, ''];
  if (frac.length <= maxDigits) return [w, frac];
  return [w, `${frac.slice(0, maxDigits)}${/[1-9]/.test(frac.slice(maxDigits)) ? '1' : ''}`];
}
