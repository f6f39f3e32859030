// Loose views of core/v1 shapes the pod-spec rules read. Bodies are JSON: every field
// may be missing, and the schema check has already rejected wrong JSON types.
import { isPlainObject } from '../../runtime/object.js';

export type Obj = Record<string, unknown>;

export function obj(v: unknown): Obj | undefined {
  return isPlainObject(v) ? (v as Obj) : undefined;
}

export function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter((x): x is Obj => isPlainObject(x)) : [];
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function strMap(v: unknown): Record<string, string> {
  const o = obj(v);
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, typeof x === 'string' ? x : String(x ?? '')]));
}

/** Sets o[k] = v when o[k] is missing (null counts as missing, as Go's nil pointer). */
export function setDefault(o: Obj, k: string, v: unknown): void {
  if (o[k] === undefined || o[k] === null) o[k] = v;
}

/** The container lists of a pod spec, each with its field name. */
export const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;
