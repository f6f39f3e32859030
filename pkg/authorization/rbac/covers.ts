// Whether one set of rules covers another (upstream's policy comparator): the servant
// rules are broken into atoms of one group, resource, verb and name, and each atom must
// be covered by a single owner rule. What is left is the missing list.
import { goQuoteSlice } from '../../runtime/gofmt.js';
import type { PolicyRule } from './types.js';

const arr = (v: string[] | null | undefined): string[] => v ?? [];

export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of arr(rule.apiGroups)) {
    for (const resource of arr(rule.resources)) {
      for (const verb of arr(rule.verbs)) {
        const names = arr(rule.resourceNames);
        if (names.length > 0) {
          for (const n of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [n] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of arr(rule.nonResourceURLs)) {
    for (const verb of arr(rule.verbs)) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const hasAll = (set: string[], want: string[]): boolean => want.every((w) => set.includes(w));

function resourceCoversAll(owner: string[], wanted: string[]): boolean {
  if (owner.includes('*') || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = arr(owner.verbs).includes('*') || hasAll(arr(owner.verbs), arr(sub.verbs));
  const groups = arr(owner.apiGroups).includes('*') || hasAll(arr(owner.apiGroups), arr(sub.apiGroups));
  const resources = resourceCoversAll(arr(owner.resources), arr(sub.resources));
  const urls = arr(sub.nonResourceURLs).every((p) => arr(owner.nonResourceURLs).some((o) => nonResourceURLCovers(o, p)));
  const ownerNames = arr(owner.resourceNames);
  const names = arr(sub.resourceNames).length === 0 ? ownerNames.length === 0
    : ownerNames.length === 0 || hasAll(ownerNames, arr(sub.resourceNames));
  return verbs && groups && resources && names && urls;
}

export function covers(owner: PolicyRule[], servant: PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule)) {
    if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

/** Merges atoms of one group and resource (and at most one name) that differ only by verb. */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const names = arr(r.resourceNames);
    const isSimple = names.length <= 1 && arr(r.nonResourceURLs).length === 0
      && arr(r.apiGroups).length === 1 && arr(r.resources).length === 1;
    if (!isSimple) { compacted.push(r); continue; }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing) {
      for (const v of arr(r.verbs)) if (!arr(existing.verbs).includes(v)) existing.verbs = [...arr(existing.verbs), v];
    } else {
      simple.set(key, structuredClone(r));
    }
  }
  return [...compacted, ...simple.values()];
}


/** The compact text of a rule in escalation messages: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (arr(r.apiGroups).length) parts.push(`APIGroups:${goQuoteSlice(arr(r.apiGroups))}`);
  if (arr(r.resources).length) parts.push(`Resources:${goQuoteSlice(arr(r.resources))}`);
  if (arr(r.nonResourceURLs).length) parts.push(`NonResourceURLs:${goQuoteSlice(arr(r.nonResourceURLs))}`);
  if (arr(r.resourceNames).length) parts.push(`ResourceNames:${goQuoteSlice(arr(r.resourceNames))}`);
  if (arr(r.verbs).length) parts.push(`Verbs:${goQuoteSlice(arr(r.verbs))}`);
  return `{${parts.join(', ')}}`;
}
