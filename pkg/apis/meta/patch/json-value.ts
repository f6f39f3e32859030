// Helpers for decoded JSON values shared by the patch algorithms, plus Go-style
// renderings (type names, %v) because upstream's error messages embed them.

export type JsonMap = Record<string, unknown>;

export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(m: JsonMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, k);
}

/** Reads an own key only, so `__proto__` or `toString` never resolve to inherited values. */
export function getOwn(m: JsonMap, k: string): unknown {
  return hasOwn(m, k) ? m[k] : undefined;
}

/** Sets an own key, including `__proto__`, without touching the prototype chain. */
export function setOwn(m: JsonMap, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(m, k, { value: v, enumerable: true, writable: true, configurable: true });
  else m[k] = v;
}

export function deepClone<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepClone(x)) as T;
  if (isMap(v)) {
    const out: JsonMap = {};
    for (const k of Object.keys(v)) setOwn(out, k, deepClone(v[k]));
    return out as T;
  }
  return v;
}

/** The Go dynamic type a decoded JSON value would have (ints are preserved as int64). */
export type GoKind = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

/** What reflect.TypeOf(v) prints as with %s. */
export function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'map': return 'map[string]interface {}';
    case 'slice': return '[]interface {}';
    case 'nil': return '%!s(<nil>)';
    default: return goKind(v);
  }
}

function goFloat(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : (x > 0 ? '+Inf' : '-Inf');
  const [mantissa, expPart] = x.toExponential().split('e');
  const exp = Number(expPart);
  // %v is %g with the shortest digits: exponent form outside [1e-4, 1e6).
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(x);
}

function goNumber(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 63) return BigInt(x).toString();
  return goFloat(x);
}

/** Go's fmt %v (verb 'v') or %s (verb 's') rendering of a decoded JSON value. */
export function goFormat(v: unknown, verb: 'v' | 's' = 'v'): string {
  if (v === null || v === undefined) return verb === 'v' ? '<nil>' : '%!s(<nil>)';
  if (Array.isArray(v)) return `[${v.map((x) => goFormat(x, verb)).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `map[${keys.map((k) => `${k}:${goFormat(v[k], verb)}`).join(' ')}]`;
  }
  if (typeof v === 'string') return v;
  const text = typeof v === 'number' ? goNumber(v) : String(v);
  return verb === 'v' ? text : `%!s(${goKind(v)}=${text})`;
}
