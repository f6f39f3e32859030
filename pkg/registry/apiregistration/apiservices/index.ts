// apiregistration.k8s.io/v1 apiservices (+status), stored under
// /registry/apiregistration.k8s.io/apiservices/<name>. Proxying is not done here.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { APIServiceStrategy } from './strategy.js';
import { apiServiceTable } from './table.js';

export const apiservices: ResourceDef = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  plural: 'apiservices',
  singular: 'apiservice',
  namespaced: false,
  verbs: [...allVerbs],
  categories: ['api-extensions'],
  subresources: [{ name: 'status', kind: 'APIService', verbs: ['get', 'patch', 'update'] }],
  strategy: new APIServiceStrategy(),
  table: apiServiceTable,
};
