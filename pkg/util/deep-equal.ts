// Equality of decoded JSON values, for the "did this field change" checks of validation,
// strategies and managed fields.

/**
 * Structural equality of JSON values; key order does not matter, undefined equals absent.
 * `nullIsAbsent`: a field holding null also equals an absent one, as the two decode to the
 * same value of a built-in kind's Go type (a nil pointer, slice or map, or a zero struct).
 */
export function deepEqual(a: unknown, b: unknown, nullIsAbsent = false): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i], nullIsAbsent)) return false;
    return true;
  }
  // Every write compares whole objects (no-op detection, managed fields): no key set is built.
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of Object.keys(ao)) {
    if (!deepEqual(ao[k], bo[k], nullIsAbsent) && !(nullIsAbsent && ao[k] == null && bo[k] == null)) return false;
  }
  for (const k of Object.keys(bo)) {
    if (!absentHere(bo[k], nullIsAbsent) && !Object.prototype.hasOwnProperty.call(ao, k)) return false;
  }
  return true;
}

/** Whether a field holding `v` counts as absent (undefined, or null when `nullIsAbsent`). */
export function absentHere(v: unknown, nullIsAbsent: boolean): boolean {
  return v === undefined || (nullIsAbsent && v === null);
}
