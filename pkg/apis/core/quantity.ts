// resource.Quantity as far as validation needs it: parse a canonical string to a
// comparable number (exact for the values pods use) and print it back.
const suffixes: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  n: 1e-9, u: 1e-6,
};

const quantityRe = /^([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$/;

/** The value of a quantity string, or undefined when it is not one. */
export function parseQuantity(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const m = quantityRe.exec(v.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  const suf = m[2] ?? '';
  if (/^[eE]/.test(suf)) return base * 10 ** Number(suf.slice(1));
  return base * (suffixes[suf] ?? 1);
}

/** Quantities as written (JSON numbers print as Go would). */
export function quantityString(v: unknown): string {
  return typeof v === 'number' ? String(v) : String(v ?? '');
}
