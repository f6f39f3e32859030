// How upstream's Go code prints the JSON values of a custom resource. A decoded CR is a
// tree of map[string]interface{}, []interface{}, string, int64, float64, bool and nil, and
// messages print those with %v or %#v; clients compare the text, so we print it the same.
import { GoLiteral, goQuote } from '../../../runtime/gofmt.js';
import { isPlainObject } from '../../../runtime/object.js';

/**
 * Go decodes a JSON number into int64 when it is integral and fits, else float64. The
 * text `1.0` cannot be told from `1` after JSON.parse; both count as int64 here.
 */
export function isGoInt(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

/** Go's %v of a float64: shortest digits, exponent form below 1e-4 or from 1e6 up. */
export function goFloat(f: number): string {
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : f < 0 ? '-Inf' : 'NaN';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, e] = f.toExponential().split('e');
  const x = Number(e);
  if (x < -4 || x >= 6) {
    const sign = x < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(x)).padStart(2, '0')}`;
  }
  return String(f);
}

/** Go's %v of a JSON number as Go holds it (int64 or float64). */
export function goNumber(n: number): string {
  return isGoInt(n) ? String(n) : goFloat(n);
}

/** Go's %#v of a decoded JSON value. */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isPlainObject(v)) {
    // fmt prints map keys sorted.
    const keys = Object.keys(v).sort();
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV(v[k])}`).join(', ')}}`;
  }
  return String(v);
}

/**
 * A FieldError bad value that fieldErrorMessage prints as field.Error does for a decoded
 * JSON value: nil prints as "null" (quoted), floats as Go floats, maps and slices with %#v.
 */
export function badValue(v: unknown): unknown {
  if (v === null || v === undefined) return new GoLiteral('"null"');
  if (typeof v === 'number') return isGoInt(v) ? v : new GoLiteral(goFloat(v));
  if (typeof v === 'object') return new GoLiteral(goSharpV(v));
  return v;
}
