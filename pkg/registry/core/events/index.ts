// core/v1 events. Stored under /registry/events; events.k8s.io/v1 serves the same objects.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { fieldLabels } from '../../../apis/meta/fields.js';
import { coreEventStrategy } from './strategy.js';
import { coreEventTable } from './table.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Upstream's field set for events, by the core/v1 field names. */
export function coreEventFields(obj: Record<string, unknown>): Record<string, string> {
  const involved = isPlainObject(obj.involvedObject) ? obj.involvedObject : {};
  const source = isPlainObject(obj.source) ? obj.source : {};
  return {
    'involvedObject.kind': str(involved.kind),
    'involvedObject.namespace': str(involved.namespace),
    'involvedObject.name': str(involved.name),
    'involvedObject.uid': str(involved.uid),
    'involvedObject.apiVersion': str(involved.apiVersion),
    'involvedObject.resourceVersion': str(involved.resourceVersion),
    'involvedObject.fieldPath': str(involved.fieldPath),
    reason: str(obj.reason),
    reportingComponent: str(obj.reportingComponent),
    source: str(source.component) || str(obj.reportingComponent),
    type: str(obj.type),
  };
}

export const events: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  verbs: [...allVerbs],
  strategy: coreEventStrategy(),
  table: coreEventTable,
  fieldLabels: fieldLabels(['metadata.name', 'metadata.namespace', ...Object.keys(coreEventFields({}))]),
  selectableFields: coreEventFields,
};
