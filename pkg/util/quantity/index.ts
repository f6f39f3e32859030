// resource.Quantity with exact arithmetic: values are held as whole nano-units in a
// bigint (upstream rounds anything finer up to the nano), and printed in upstream's
// canonical form for their format (the format of the written suffix), so sums read
// in messages and status exactly as upstream prints them ("1500m", "3Gi", "2k").
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const nano = 1_000_000_000n;
const binarySuffixes: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
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
    const [, sign, whole, frac = '', exp, suffix = ''] = m;
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
    if (pow10 >= 0) num *= 10n ** BigInt(pow10);
    else den *= 10n ** BigInt(-pow10);
    num *= nano;
    // Upstream rounds a value finer than a nano-unit up (away from zero).
    let n = num / den;
    if (num % den !== 0n) n += 1n;
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

  /** Upstream's canonical string for the value in its format. */
  toString(): string {
    const v = this.nanos;
    if (v === 0n) return '0';
    const neg = v < 0n;
    const abs = neg ? -v : v;
    let out: string;
    if (this.format === 'BinarySI' && abs >= 1024n * nano && abs % nano === 0n) {
      let units = abs / nano;
      const names = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
      let i = 0;
      while (i < names.length - 1 && units % 1024n === 0n) { units /= 1024n; i++; }
      out = `${units}${names[i]}`;
    } else {
      // The largest power-of-1000 exponent that keeps the mantissa whole.
      let mantissa = abs;
      let exp = -9;
      while (exp < 18 && mantissa % 1000n === 0n) { mantissa /= 1000n; exp += 3; }
      const suffix = this.format === 'DecimalExponent'
        ? (exp === 0 ? '' : `e${exp}`)
        : Object.entries(decimalSuffixes).find(([, e]) => e === exp)![0];
      out = `${mantissa}${suffix}`;
    }
    return neg ? `-${out}` : out;
  }
}
