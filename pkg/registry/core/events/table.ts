// `kubectl get events`: LAST SEEN TYPE REASON OBJECT MESSAGE (+ wide columns). Cells are
// computed from the core/v1 form, so both event groups print alike.
import type { KubeObject } from '../../../runtime/object.js';
import { isPlainObject } from '../../../runtime/object.js';
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';
import { isZeroTime } from './conversion.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const age = (v: unknown): string => humanAge(isZeroTime(v) ? null : str(v));

export function eventCells(e: KubeObject): unknown[] {
  const firstSeen = isZeroTime(e.firstTimestamp) ? age(e.eventTime) : age(e.firstTimestamp);
  let lastSeen = isZeroTime(e.lastTimestamp) ? firstSeen : age(e.lastTimestamp);
  let count = typeof e.count === 'number' ? e.count : 0;
  const series = rec(e.series);
  if (isPlainObject(e.series)) {
    lastSeen = age(series.lastObservedTime);
    count = typeof series.count === 'number' ? series.count : 0;
  } else if (count === 0) {
    count = 1; // singleton events of the new API carry no count
  }
  const involved = rec(e.involvedObject);
  const kind = str(involved.kind).toLowerCase();
  const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
  const source = rec(e.source);
  const component = str(source.component) || str(e.reportingComponent);
  const instance = str(source.host) || str(e.reportingInstance);
  return [
    lastSeen,
    str(e.type),
    str(e.reason),
    target,
    str(involved.fieldPath),
    instance ? `${component}, ${instance}` : component,
    str(e.message).trim(),
    firstSeen,
    count,
    e.metadata.name ?? '',
  ];
}

export const eventColumns = [
  column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'string', 'Type of this event (Normal, Warning).'),
  column('Reason', 'string', 'A short, machine understandable string that gives the reason for the event.'),
  column('Object', 'string', 'The object that this event is about.'),
  column('Subobject', 'string', 'The part of the object the event is about, if any.', { priority: 1 }),
  column('Source', 'string', 'The component reporting this event.', { priority: 1 }),
  column('Message', 'string', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'string', 'The time at which the event was first recorded.', { priority: 1 }),
  column('Count', 'string', 'The number of times this event has occurred.', { priority: 1 }),
  column('Name', 'string', 'Name must be unique within a namespace.', { priority: 1, format: 'name' }),
];

export const coreEventTable: TableConvertor = { columns: eventColumns, cells: eventCells };
