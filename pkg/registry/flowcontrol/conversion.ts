// v1beta2 <-> v1beta3 (the storage version). The versions differ only in the limited
// level's shares field: v1beta2 `assuredConcurrencyShares`, v1beta3
// `nominalConcurrencyShares`. Upstream v1.28 has no round-trip annotation: a zero is
// defaulted to 30 in both versions before it is stored, so no value is lost either way.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

export const Group = 'flowcontrol.apiserver.k8s.io';
type Obj = Record<string, unknown>;

function renameShares(obj: KubeObject, from: string, to: string, version: string): KubeObject {
  const out = structuredClone(obj);
  out.apiVersion = `${Group}/${version}`;
  const limited = isPlainObject(out.spec) ? (out.spec as Obj).limited : undefined;
  if (isPlainObject(limited) && from in limited) {
    // Keep the field's position so that output reads in Go's field order.
    const entries = Object.entries(limited).map(([k, v]) => [k === from ? to : k, v] as const);
    for (const k of Object.keys(limited)) delete limited[k];
    for (const [k, v] of entries) limited[k] = v;
  }
  return out;
}

export function priorityLevelToV1beta3(obj: KubeObject): KubeObject {
  return renameShares(obj, 'assuredConcurrencyShares', 'nominalConcurrencyShares', 'v1beta3');
}

export function priorityLevelToV1beta2(obj: KubeObject): KubeObject {
  return renameShares(obj, 'nominalConcurrencyShares', 'assuredConcurrencyShares', 'v1beta2');
}

/** FlowSchema has the same fields in both versions. */
export function flowSchemaToVersion(version: string): (obj: KubeObject) => KubeObject {
  return (obj) => ({ ...structuredClone(obj), apiVersion: `${Group}/${version}` });
}
