// core/v1 serviceaccounts, with the token subresource (TokenRequest, served by its own REST).
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ServiceAccountStrategy } from './strategy.js';
import { serviceAccountTable } from './table.js';

export const serviceaccounts: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [
    { name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
  ],
  strategy: new ServiceAccountStrategy(),
  table: serviceAccountTable,
};
