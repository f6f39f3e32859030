// core/v1 secrets.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { SecretStrategy } from './strategy.js';
import { secretTable } from './table.js';
import { fieldLabels } from '../../../apis/meta/fields.js';

export const secrets: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new SecretStrategy(),
  table: secretTable,
  fieldLabels: fieldLabels(['metadata.name', 'metadata.namespace', 'type']),
  selectableFields: (obj) => ({ type: typeof obj.type === 'string' ? obj.type : '' }),
};
