// Resource lists (resource name → quantity) and the arithmetic quota does on them
// (upstream's k8s.io/apiserver/pkg/quota/v1 helpers).
import { isPlainObject } from '../runtime/object.js';
import { Quantity } from '../util/quantity/index.js';

export type ResourceList = Map<string, Quantity>;

/** A JSON resource list; entries that are not quantities are skipped. */
export function parseResourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!isPlainObject(v)) return out;
  for (const [k, q] of Object.entries(v)) {
    const parsed = Quantity.parse(q);
    if (parsed) out.set(k, parsed);
  }
  return out;
}

export function toJSONResourceList(l: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...l.keys()].sort()) out[k] = l.get(k)!.toString();
  return out;
}

export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) out.set(k, out.has(k) ? out.get(k)!.add(q) : q);
  return out;
}

/** a − b over a's keys; keys only in b are left out. */
export function subtract(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, q] of a) out.set(k, b.has(k) ? q.sub(b.get(k)!) : q);
  return out;
}

/** a − b where every negative result is zero. */
export function subtractWithNonNegativeResult(a: ResourceList, b: ResourceList): ResourceList {
  const out = subtract(a, b);
  for (const [k, q] of out) if (q.sign() < 0) out.set(k, Quantity.zero(q.format));
  return out;
}

export function mask(l: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) if (l.has(n)) out.set(n, l.get(n)!);
  return out;
}

export function removeZeros(l: ResourceList): ResourceList {
  return new Map([...l].filter(([, q]) => !q.isZero()));
}

export function isNegative(l: ResourceList): string[] {
  return [...l].filter(([, q]) => q.sign() < 0).map(([k]) => k);
}

export function equals(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, q] of a) if (!b.has(k) || b.get(k)!.cmp(q) !== 0) return false;
  return true;
}

/** Whether a ≤ b for every resource in both; the names where it is not. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { ok: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, q] of a) {
    const limit = b.get(k);
    if (limit && q.cmp(limit) > 0) exceeded.push(k);
  }
  return { ok: exceeded.length === 0, exceeded };
}

/** Zero for each name, so a measured resource with no usage still reads 0. */
export function zeros(names: Iterable<string>): ResourceList {
  return new Map([...names].map((n) => [n, Quantity.zero()]));
}

/** Upstream's prettyPrint: `name=value` pairs sorted by name, comma-joined. */
export function prettyPrint(l: ResourceList): string {
  return [...l.keys()].sort().map((k) => `${k}=${l.get(k)!.toString()}`).join(',');
}

export function prettyPrintNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}
