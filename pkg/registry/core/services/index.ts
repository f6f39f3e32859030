// core/v1 services, with the status subresource; stored at /registry/services/specs.
// The server binds cluster IP and node port allocation in (allocator/index.ts): this
// declaration alone allocates nothing.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ServiceStrategy } from './strategy.js';
import { serviceTable } from './table.js';
import { serviceProxy } from './proxy.js';

export const services: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  verbs: allVerbs,
  subresources: [
    { name: 'proxy', kind: 'ServiceProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'], connect: serviceProxy },
    { name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'] },
  ],
  storageResource: 'services/specs',
  strategy: new ServiceStrategy(),
  table: serviceTable,
};
