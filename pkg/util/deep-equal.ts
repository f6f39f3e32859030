// Equality of decoded JSON values, for the "did this field change" checks of validation,
// strategies and managed fields.

/** Structural equality of JSON values; key order does not matter, undefined equals absent. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  // Every write compares whole objects (no-op detection, managed fields): no key set is built.
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of Object.keys(ao)) {
    if (!deepEqual(ao[k], bo[k])) return false;
  }
  for (const k of Object.keys(bo)) {
    if (bo[k] !== undefined && !Object.prototype.hasOwnProperty.call(ao, k)) return false;
  }
  return true;
}
