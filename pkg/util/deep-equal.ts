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
  return membersEqual(a as Record<string, unknown>, b as Record<string, unknown>, nullIsAbsent);
}

/**
 * deepEqual of two objects' members, leaving out the member named `skip` (a caller that
 * compares it apart, last: sameContent's metadata).
 */
export function membersEqual(ao: Record<string, unknown>, bo: Record<string, unknown>, nullIsAbsent = false, skip?: string): boolean {
  for (const k of Object.keys(ao)) {
    if (k !== skip && !deepEqual(ao[k], bo[k], nullIsAbsent) && !(nullIsAbsent && ao[k] == null && bo[k] == null)) return false;
  }
  for (const k of Object.keys(bo)) {
    if (k !== skip && !absentHere(bo[k], nullIsAbsent) && !Object.prototype.hasOwnProperty.call(ao, k)) return false;
  }
  return true;
}

/** Whether a field holding `v` counts as absent (undefined, or null when `nullIsAbsent`). */
function absentHere(v: unknown, nullIsAbsent: boolean): boolean {
  return v === undefined || (nullIsAbsent && v === null);
}
