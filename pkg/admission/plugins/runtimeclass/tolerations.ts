// Merging two toleration lists as upstream's tolerations.MergeTolerations: drop every
// toleration another one already covers, keeping the first of equal ones.
import { str, type Obj } from '../../../apis/core/types.js';

function same(a: Obj, b: Obj): boolean {
  return str(a.key) === str(b.key) && str(a.operator) === str(b.operator) && str(a.value) === str(b.value)
    && str(a.effect) === str(b.effect) && (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null);
}

/** Whether ss tolerates everything t does. */
export function isSuperset(ss: Obj, t: Obj): boolean {
  if (same(ss, t)) return true;
  // An empty key with Exists matches every key.
  if (str(t.key) !== str(ss.key) && (str(ss.key) !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (str(t.effect) !== str(ss.effect) && str(ss.effect) !== '') return false;
  if (ss.effect === 'NoExecute' && typeof ss.tolerationSeconds === 'number') {
    if (typeof t.tolerationSeconds !== 'number' || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (str(ss.operator)) {
    case 'Equal': case '': return t.operator === 'Equal' && str(t.value) === str(ss.value);
    case 'Exists': return true;
    default: return false;
  }
}

export function mergeTolerations(first: Obj[], second: Obj[]): Obj[] {
  const all = [...first, ...second];
  const merged: Obj[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((later) => !same(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}
