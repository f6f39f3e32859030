// core/v1 Event <-> events.k8s.io/v1 Event. Both groups serve the same stored objects
// (kept in core/v1 form under /registry/events); field names differ, content does not.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

const renames: Array<[core: string, events: string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];
const shared = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

function convert(obj: KubeObject, apiVersion: string, pairs: Array<[from: string, to: string]>): KubeObject {
  const out: KubeObject = { apiVersion, kind: 'Event', metadata: structuredClone(obj.metadata ?? {}) };
  for (const f of shared) if (obj[f] !== undefined) out[f] = structuredClone(obj[f]);
  for (const [from, to] of pairs) if (obj[from] !== undefined) out[to] = structuredClone(obj[from]);
  return out;
}

export function eventToCore(obj: KubeObject): KubeObject {
  return fillCoreEvent(convert(obj, 'v1', renames.map(([c, e]) => [e, c])));
}

export function eventFromCore(obj: KubeObject): KubeObject {
  return fillEventsEvent(convert(obj, 'events.k8s.io/v1', renames));
}

/** Fields upstream always writes for a core/v1 Event, even when empty. */
export function fillCoreEvent(obj: KubeObject): KubeObject {
  if (!isPlainObject(obj.involvedObject)) obj.involvedObject = {};
  if (!isPlainObject(obj.source)) obj.source = {};
  for (const f of ['firstTimestamp', 'lastTimestamp', 'eventTime']) if (isZeroTime(obj[f])) obj[f] = null;
  for (const f of ['reportingComponent', 'reportingInstance']) if (typeof obj[f] !== 'string') obj[f] = '';
  for (const f of ['reason', 'message', 'type', 'action']) if (obj[f] === '' || obj[f] === null) delete obj[f];
  if (!obj.count) delete obj.count;
  if (obj.series === null) delete obj.series;
  if (obj.related === null) delete obj.related;
  return obj;
}

/** Fields upstream always writes for an events.k8s.io/v1 Event, even when empty. */
export function fillEventsEvent(obj: KubeObject): KubeObject {
  if (!isPlainObject(obj.regarding)) obj.regarding = {};
  if (!isPlainObject(obj.deprecatedSource)) obj.deprecatedSource = {};
  for (const f of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'eventTime']) if (isZeroTime(obj[f])) obj[f] = null;
  for (const f of ['reportingController', 'reportingInstance', 'reason', 'note', 'type', 'action']) {
    if (obj[f] === '' || obj[f] === null) delete obj[f];
  }
  if (!obj.deprecatedCount) delete obj.deprecatedCount;
  if (obj.series === null) delete obj.series;
  if (obj.related === null) delete obj.related;
  return obj;
}

/** Unset, null, empty, or Go's zero time all mean "no time". */
export function isZeroTime(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (typeof v === 'string' && v.startsWith('0001-01-01T00:00:00'));
}
