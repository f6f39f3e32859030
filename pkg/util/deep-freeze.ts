// Freezing a decoded value that many holders share, so that none of them changes it in
// place. A subtree already frozen is taken as frozen through (this function froze it).
export function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}
