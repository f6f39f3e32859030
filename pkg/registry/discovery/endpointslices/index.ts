// discovery.k8s.io/v1 endpointslices; upstream keys them /registry/endpointslices.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { EndpointSliceStrategy } from './strategy.js';
import { endpointSliceTable } from './table.js';

export const endpointslices: ResourceDef = {
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new EndpointSliceStrategy(),
  table: endpointSliceTable,
};
