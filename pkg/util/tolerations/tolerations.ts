// Toleration set algebra (upstream's pkg/util/tolerations and the core helper's
// AddOrUpdateTolerationInPod), on the JSON shape of core/v1 Toleration.
import { isPlainObject } from '../../runtime/object.js';

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

/** Go's zero values: a missing string is "", a missing tolerationSeconds is nil. */
function norm(t: Toleration): Required<Omit<Toleration, 'tolerationSeconds'>> & { tolerationSeconds: number | null } {
  return {
    key: t.key ?? '', operator: t.operator ?? '', value: t.value ?? '', effect: t.effect ?? '',
    tolerationSeconds: typeof t.tolerationSeconds === 'number' ? t.tolerationSeconds : null,
  };
}

/** apiequality.Semantic.DeepEqual on two tolerations. */
export function tolerationsEqual(a: Toleration, b: Toleration): boolean {
  const x = norm(a);
  const y = norm(b);
  return x.key === y.key && x.operator === y.operator && x.value === y.value && x.effect === y.effect
    && x.tolerationSeconds === y.tolerationSeconds;
}

/** Whether `ss` tolerates every taint `t` tolerates. */
export function isSuperset(ssIn: Toleration, tIn: Toleration): boolean {
  if (tolerationsEqual(ssIn, tIn)) return true;
  const ss = norm(ssIn);
  const t = norm(tIn);
  // An empty key with operator Exists matches every key.
  if (t.key !== ss.key && (ss.key !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (t.effect !== ss.effect && ss.effect !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== null) {
    if (t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator) {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && t.value === ss.value;
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Every toleration is covered by some whitelist entry; an empty whitelist allows all. */
export function verifyAgainstWhitelist(tolerations: Toleration[], whitelist: Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}

/** Both lists in order, without the entries another entry already covers (the first of equals stays). */
export function mergeTolerations(first: Toleration[], second: Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((t2) => !tolerationsEqual(t, t2) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged;
}

/** core/v1 Toleration.MatchToleration: same key, effect, operator and value. */
function matches(a: Toleration, b: Toleration): boolean {
  const x = norm(a);
  const y = norm(b);
  return x.key === y.key && x.effect === y.effect && x.operator === y.operator && x.value === y.value;
}

/**
 * Adds `toleration` to the pod spec, replacing a matching one that differs (in its
 * tolerationSeconds). Returns false when an identical toleration is already there.
 */
export function addOrUpdateToleration(spec: Record<string, unknown>, toleration: Toleration): boolean {
  const current = (Array.isArray(spec.tolerations) ? spec.tolerations : []).filter(isPlainObject) as Toleration[];
  const next: Toleration[] = [];
  let updated = false;
  for (const t of current) {
    if (matches(toleration, t)) {
      if (tolerationsEqual(toleration, t)) return false;
      next.push(toleration);
      updated = true;
      continue;
    }
    next.push(t);
  }
  if (!updated) next.push(toleration);
  spec.tolerations = next;
  return true;
}

/** A toleration as core/v1 serializes it: empty fields omitted, unknown fields dropped. */
export function cleanToleration(raw: Record<string, unknown>): Toleration {
  const out: Toleration = {};
  for (const k of ['key', 'operator', 'value', 'effect'] as const) {
    if (typeof raw[k] === 'string' && raw[k] !== '') out[k] = raw[k] as string;
  }
  if (typeof raw.tolerationSeconds === 'number') out.tolerationSeconds = raw.tolerationSeconds;
  return out;
}
