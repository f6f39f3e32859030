// `kubectl get roles` / `clusterroles`: NAME CREATED AT (a date column, not an age).
import type { KubeObject } from '../../../runtime/object.js';
import { column, nameColumn, type TableConvertor } from '../../../runtime/table.js';

/** RFC 3339 in UTC at second precision, as Go's time.RFC3339 formats it. */
export function rfc3339(ts: string | null | undefined): string {
  const ms = ts ? Date.parse(ts) : NaN;
  return Number.isNaN(ms) ? '0001-01-01T00:00:00Z' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const roleTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj: KubeObject) => [obj.metadata.name ?? '', rfc3339(obj.metadata.creationTimestamp)],
};
