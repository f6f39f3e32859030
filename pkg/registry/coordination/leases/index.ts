// coordination.k8s.io/v1 leases (stored under upstream's short key /registry/leases).
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { LeaseStrategy } from './strategy.js';
import { leaseTable } from './table.js';

export const leases: ResourceDef = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new LeaseStrategy(),
  table: leaseTable,
};
