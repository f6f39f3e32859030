// The managed fields of an update by the object's only manager, remembered by the shapes
// of the live and new objects. When one Update entry owns every field the live object sets
// (outside the system metadata nobody owns) and the same manager writes again, what the
// comparison can find is: fields added or removed (the two shapes say which), and values
// changed at paths the manager owns already. Those values then decide only whether the
// entry gets a new time, never its set. So:
// - the same shape on both sides (system metadata left out): the set stays the live
//   document, and the time is new when any value outside system metadata differs;
// - shapes that add a field the manager did not own: a change whatever the values, and the
//   set is the one computed for the first such pair (kept as its FieldsV1 document).
// A kubelet's Lease renewal, a controller rewriting its object, the CRUD bench's updates.
// The conditions are checked on the pair that computes an entry (the manager's set covers
// the live object's fields and none of the system metadata's); a pair that fails them is
// remembered as such and computed every time.
import type { KubeObject, ManagedFieldsEntry } from '../../../runtime/object.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { shapeOf, ShapeMemo, Unshaped } from './create-memo.js';

/** Top-level and metadata members the stripped set names (see manager.ts stripSet). */
const strippedTop = new Set(['apiVersion', 'kind']);
const strippedMeta = new Set(['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']);

/** What a pair of shapes gives: the live document kept, a remembered document, or compute it. */
export type Learned = { k: 'same' } | { k: 'doc'; doc: string } | { k: 'no' };

/** Updates not shaped after a kind's many misses in a row (see ShapeMemo). */
const restUpdates = 4096;

type Obj = Record<string, unknown>;

/** The shape of `obj` without the system metadata (create-memo.ts's rules). */
function strippedShape(obj: KubeObject): string {
  const o = obj as Obj;
  let out = '{';
  for (const k of Object.keys(o)) {
    if (strippedTop.has(k)) continue;
    if (k !== 'metadata') { out += `${k.length}:${k}${shapeOf(o[k], false)}`; continue; }
    const meta = o[k];
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new Unshaped();
    out += '8:metadata{';
    for (const m of Object.keys(meta)) if (!strippedMeta.has(m)) out += `${m.length}:${m}${shapeOf((meta as Obj)[m], false)}`;
    out += '}';
  }
  return `${out}}`;
}

/** Whether two objects of the same stripped shape have the same values outside system metadata. */
export function equalOutsideStrip(a: KubeObject, b: KubeObject): boolean {
  const ao = a as Obj;
  const bo = b as Obj;
  for (const k of Object.keys(ao)) {
    if (strippedTop.has(k)) continue;
    if (k !== 'metadata') { if (!deepEqual(ao[k], bo[k])) return false; continue; }
    const am = ao[k] as Obj;
    const bm = bo[k] as Obj;
    for (const m of Object.keys(am)) if (!strippedMeta.has(m) && !deepEqual(am[m], bm[m])) return false;
  }
  return true;
}

/** Whether `e` is the entry of an Update by `manager` at `apiVersion` on the main resource. */
export function isOwnUpdateEntry(e: ManagedFieldsEntry, manager: string, apiVersion: string): boolean {
  return (e.manager ?? '') === manager && e.operation === 'Update' && e.apiVersion === apiVersion
    && e.fieldsType === 'FieldsV1' && !e.subresource && typeof e.fieldsV1 === 'object' && e.fieldsV1 !== null;
}

/** The entry encodeManagedFields writes for one Update state. */
export function updateEntry(manager: string, apiVersion: string, time: string | undefined, fieldsV1: Record<string, unknown>): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = manager ? { manager } : {};
  e.operation = 'Update';
  e.apiVersion = apiVersion;
  if (time) e.time = time;
  e.fieldsType = 'FieldsV1';
  e.fieldsV1 = fieldsV1;
  return e;
}

export class UpdateMemo extends ShapeMemo<Learned> {
  constructor() { super(restUpdates); }

  /** The key of the pair (live, obj) with the live entry's document, or undefined: not remembered. */
  keyOf(live: KubeObject, obj: KubeObject, entry: ManagedFieldsEntry): { key: string; same: boolean } | undefined {
    if (this.skipping()) return undefined;
    try {
      const l = strippedShape(live);
      const n = strippedShape(obj);
      return { key: `${l}\n${n}\n${JSON.stringify(entry.fieldsV1)}`, same: l === n };
    } catch (err) {
      if (err instanceof Unshaped) return undefined;
      throw err;
    }
  }

  recall(key: string): Learned | undefined { return this.found(key); }

  remember(key: string, learned: Learned): void { this.keep(key, learned); }
}
