// events.k8s.io/v1 events: the core events' storage seen through the new field names.
// The Store converts with `conversion` on the way in and out; validation, table and
// field selectors look at the core form, as upstream's shared event registry does.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { KubeObject } from '../../../runtime/object.js';
import { fieldLabels } from '../../../apis/meta/fields.js';
import { eventFromCore, eventToCore, fillEventsEvent } from '../../core/events/conversion.js';
import { coreEventFields } from '../../core/events/index.js';
import { EventStrategy } from '../../core/events/strategy.js';
import { eventCells, eventColumns } from '../../core/events/table.js';

/** Accepts either form, so callers need not know which one they hold. */
function asCore(obj: Record<string, unknown>): KubeObject {
  const o = obj as KubeObject;
  return o.apiVersion === 'v1' ? o : eventToCore({ ...o, metadata: o.metadata ?? {} });
}

export const eventsV1: ResourceDef = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new EventStrategy({ strict: true, toCore: asCore, fill: fillEventsEvent }),
  table: { columns: eventColumns, cells: (obj) => eventCells(asCore(obj)) },
  storageResource: 'events',
  conversion: { toStorage: eventToCore, fromStorage: eventFromCore },
  // Selectors use the events.k8s.io names and match the core fields they were renamed from.
  fieldLabels: fieldLabels(['metadata.name', 'metadata.namespace', 'reason', 'source', 'type'], {
    renamed: {
      reportingController: 'reportingComponent',
      ...Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']
        .map((f) => [`regarding.${f}`, `involvedObject.${f}`])),
    },
  }),
  selectableFields: (obj) => coreEventFields(asCore(obj)),
};
