// CEL equality and ordering for library functions that compare list elements
// (indexOf, isSorted, min, max): numbers compare across int, uint and double.
import type { CelValue } from '@bufbuild/cel';
import { cel } from '../runtime.js';

function num(v: CelValue): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (cel().isCelUint(v)) return v.value;
  return undefined;
}

export function celEquals(a: CelValue, b: CelValue): boolean {
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na == nb; // loose: a bigint equals a number of the same value
  if (cel().isCelList(a) && cel().isCelList(b)) {
    if (a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i) as CelValue, b.get(i) as CelValue)) return false;
    return true;
  }
  if (cel().isCelMap(a) && cel().isCelMap(b)) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !celEquals(v, b.get(k) as CelValue)) return false;
    return true;
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return a === b;
}

/** -1, 0, 1; throws when the values are not comparable (the error upstream reports as no overload). */
export function celCompare(a: CelValue, b: CelValue): number {
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  throw new Error('no such overload');
}
