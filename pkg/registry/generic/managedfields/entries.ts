// metadata.managedFields <-> the managers' field sets. A manager is identified as
// upstream does (BuildManagerIdentifier): name, operation, apiVersion (Update only) and
// subresource; time and fields are its state, not its identity.
import type { ManagedFieldsEntry } from '../../../runtime/object.js';
import { compareStrings } from './path.js';
import { FieldSet } from './set.js';

export interface ManagerState {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource: string;
  time?: string;
  set: FieldSet;
}

export type Managed = Map<string, ManagerState>;

interface ManagerKey { manager: string; operation: string; apiVersion: string; subresource: string }

/**
 * The ids made last, newest first: every write asks for its own manager's id and each live
 * entry's, nearly always the same few, and the JSON of each was a tenth of an update's
 * managed fields. Bounded: manager names are the clients'.
 */
const recentIds: Array<ManagerKey & { id: string }> = [];
const recentIdsKept = 16;

/** Upstream's identifier: the entry's JSON without time and fields (and apiVersion for appliers). */
export function managerId(e: { manager?: string; operation?: string; apiVersion?: string; subresource?: string }): string {
  const key: ManagerKey = {
    manager: e.manager ?? '', operation: e.operation ?? '',
    apiVersion: e.operation !== 'Apply' ? e.apiVersion ?? '' : '', subresource: e.subresource ?? '',
  };
  for (let i = 0; i < recentIds.length; i++) {
    const r = recentIds[i];
    if (r.manager === key.manager && r.operation === key.operation && r.apiVersion === key.apiVersion && r.subresource === key.subresource) {
      return r.id;
    }
  }
  const id: Record<string, string> = {};
  if (key.manager) id.manager = key.manager;
  if (key.operation) id.operation = key.operation;
  if (key.apiVersion) id.apiVersion = key.apiVersion;
  if (key.subresource) id.subresource = key.subresource;
  const made = JSON.stringify(id);
  recentIds.unshift({ manager: key.manager, operation: key.operation, apiVersion: key.apiVersion, subresource: key.subresource, id: made });
  if (recentIds.length > recentIdsKept) recentIds.pop();
  return made;
}

export class ManagedFieldsDecodeError extends Error {}

/** `stored`: the entries of a live object (see FieldSet.fromFieldsV1). */
export function decodeManagedFields(entries: ManagedFieldsEntry[] | undefined, stored = false): Managed {
  const managed: Managed = new Map();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsDecodeError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(e.fieldsV1 ?? {}, stored);
    } catch (err) {
      throw new ManagedFieldsDecodeError(`error decoding versioned set: ${(err as Error).message}`);
    }
    managed.set(managerId(e), {
      manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion,
      subresource: e.subresource ?? '', time: e.time, set,
    });
  });
  return managed;
}

function seconds(t: string | undefined): number {
  return t ? Math.floor(Date.parse(t) / 1000) : 0;
}

/** Entries in upstream's order: Apply before Update, then by time, manager, apiVersion, subresource. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const states = [...managed.values()].filter((s) => !s.set.isEmpty());
  states.sort((p, q) => compareStrings(p.operation, q.operation) || seconds(p.time) - seconds(q.time)
    || compareStrings(p.manager, q.manager) || compareStrings(p.apiVersion, q.apiVersion) || compareStrings(p.subresource, q.subresource));
  return states.map((s) => {
    // Go omits an empty manager name (a client that sent no User-Agent).
    const e: ManagedFieldsEntry = s.manager ? { manager: s.manager } : {};
    e.operation = s.operation;
    e.apiVersion = s.apiVersion;
    if (s.time) e.time = s.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = s.set.toFieldsV1();
    if (s.subresource) e.subresource = s.subresource;
    return e;
  });
}

export const maxUpdateManagers = 10;
const oldUpdatesManager = 'ancient-changes';

/** Folds the oldest Update entries into per-version "ancient-changes" buckets beyond the cap. */
export function capUpdateManagers(managed: Managed, max = maxUpdateManagers): void {
  const updaters = [...managed.entries()].filter(([, s]) => s.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => seconds(managed.get(a)!.time) - seconds(managed.get(b)!.time) || compareStrings(a, b));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const s = managed.get(id)!;
    const bucket = managerId({ manager: oldUpdatesManager, operation: 'Update', apiVersion: s.apiVersion });
    const first = firstByVersion.get(s.apiVersion);
    if (first === undefined) {
      firstByVersion.set(s.apiVersion, id);
      continue;
    }
    if (!managed.has(bucket)) {
      const f = managed.get(first)!;
      managed.delete(first);
      managed.set(bucket, { ...f, manager: oldUpdatesManager, subresource: '' });
    }
    const b = managed.get(bucket)!;
    managed.set(bucket, { ...b, set: s.set.union(b.set), time: s.time });
    managed.delete(id);
    length--;
  }
}
