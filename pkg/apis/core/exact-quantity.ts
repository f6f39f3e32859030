// resource.Quantity where exactness matters (admission limits, overhead equality): values
// in BigInt nano-units, so sums and comparisons of "100m" + "0.2" have no float error, and
// the canonical String() upstream prints and serializes ("1000m" → "1", "1024Mi" → "1Gi",
// "0.5" → "500m"). quantity.ts keeps the float view validation uses.

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity { nano: bigint; format: Format }

const decimalExp: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binaryExp: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const shape = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Go rounds values finer than a nano-unit up (away from zero). */
function scaled(digits: bigint, exp10: number): bigint {
  if (exp10 >= 0) return digits * pow10(exp10);
  const d = pow10(-exp10);
  const q = digits / d;
  return digits % d === 0n ? q : q + (digits > 0n ? 1n : -1n);
}

export function parse(v: unknown): Quantity | undefined {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  if (s === undefined) return undefined;
  const m = shape.exec(s);
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const [, sign, whole, frac = '', suffix = ''] = m;
  let digits = BigInt(`${whole}${frac}` || '0');
  if (sign === '-') digits = -digits;
  let exp10 = 9 - frac.length;
  let format: Format = 'DecimalSI';
  if (suffix in binaryExp) {
    digits *= 1024n ** BigInt(binaryExp[suffix]);
    format = 'BinarySI';
  } else if (/^[eE]/.test(suffix)) {
    exp10 += Number(suffix.slice(1));
    format = 'DecimalExponent';
  } else {
    exp10 += decimalExp[suffix];
  }
  return { nano: scaled(digits, exp10), format };
}

const decimalSuffix: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const binarySuffix = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Quantity.String(): the canonical form in the quantity's own format. */
export function canonical(q: Quantity): string {
  if (q.nano === 0n) return '0';
  const abs = q.nano < 0n ? -q.nano : q.nano;
  const sign = q.nano < 0n ? '-' : '';
  const whole = abs % 1_000_000_000n === 0n ? abs / 1_000_000_000n : undefined;
  // Binary form only for whole values of at least 1Ki; anything else prints as decimal.
  if (q.format === 'BinarySI' && whole !== undefined && whole >= 1024n) {
    let n = whole;
    let k = 0;
    while (k < 6 && n % 1024n === 0n) { n /= 1024n; k++; }
    return `${sign}${n}${binarySuffix[k]}`;
  }
  let mantissa = abs;
  let exp = -9;
  while (exp < 18 && mantissa % 1000n === 0n) { mantissa /= 1000n; exp += 3; }
  if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exp === 0 ? '' : `e${exp}`}`;
  return `${sign}${mantissa}${decimalSuffix[exp]}`;
}

/** The canonical form of a quantity string; the string itself when it does not parse. */
export function canonicalQuantity(v: unknown): string {
  const q = parse(v);
  return q ? canonical(q) : String(v);
}

export function add(a: Quantity, b: Quantity): Quantity {
  return { nano: a.nano + b.nano, format: a.format };
}
