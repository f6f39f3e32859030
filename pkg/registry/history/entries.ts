// A key's history as the API answers it: per version its resourceVersion, who made it
// (the managedFields entry this write added or changed: manager, operation, time) and a JSON patch
// (RFC 6902) from the version before; resourceVersion and managedFields are left out of
// the patch, as they change with every write and are reported beside it.
import { createPatch } from 'rfc6902';
import type { KeyHistory, KeyVersion } from '../../storage/etcd/history/reader.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

export interface HistoryEntry {
  resourceVersion: string;
  type: 'Created' | 'Updated' | 'Deleted';
  time?: string;
  manager?: string;
  operation?: string;
  patch?: unknown[];
}

interface ManagedFieldsEntry { manager?: string; operation?: string; time?: string }

const entriesOfObject = (obj: KubeObject | undefined): ManagedFieldsEntry[] =>
  ((obj?.metadata.managedFields ?? []) as ManagedFieldsEntry[]).filter((e) => isPlainObject(e));

/**
 * The write that made `cur`: the managedFields entry that is new or changed since `prev`
 * (times have a one-second grain, so several managers may share one), the latest of
 * those; with none changed, the latest entry.
 */
export function writerOf(prev: KubeObject | undefined, cur: KubeObject): ManagedFieldsEntry | undefined {
  const before = new Set(entriesOfObject(prev).map((e) => JSON.stringify(e)));
  const all = entriesOfObject(cur);
  const changed = all.filter((e) => !before.has(JSON.stringify(e)));
  let best: ManagedFieldsEntry | undefined;
  for (const e of changed.length ? changed : all) if (!best || (e.time ?? '') >= (best.time ?? '')) best = e;
  return best;
}

function comparable(obj: KubeObject | undefined): unknown {
  if (!obj) return {};
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

export function entriesOf(h: KeyHistory): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let prev: KeyVersion | undefined;
  for (const v of h.versions) {
    const entry: HistoryEntry = { resourceVersion: String(v.revision), type: !v.object ? 'Deleted' : prev ? 'Updated' : 'Created' };
    if (v.object) {
      const w = writerOf(prev?.object, v.object);
      if (w?.time) entry.time = w.time;
      if (w?.manager) entry.manager = w.manager;
      if (w?.operation) entry.operation = w.operation;
      // The first version known is diffed from nothing when it was the create; after a
      // compaction it has no known predecessor, and no patch.
      if (prev || !h.truncated) entry.patch = createPatch(comparable(prev?.object), comparable(v.object));
    }
    out.push(entry);
    prev = v;
  }
  return out;
}
