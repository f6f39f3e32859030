// core/v1 endpoints; stored beside services, at /registry/services/endpoints, as upstream.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { EndpointsStrategy } from './strategy.js';
import { endpointsTable } from './table.js';

export const endpoints: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  plural: 'endpoints',
  singular: 'endpoints',
  shortNames: ['ep'],
  namespaced: true,
  verbs: [...allVerbs],
  storageResource: 'services/endpoints',
  strategy: new EndpointsStrategy(),
  table: endpointsTable,
};
