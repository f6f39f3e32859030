// core/v1 namespaces, with the status and finalize subresources.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { NamespaceStrategy } from './strategy.js';
import { namespaceTable } from './table.js';
import { fieldLabels } from '../../../apis/meta/fields.js';

export const namespaces: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  // No deletecollection: upstream never served it for namespaces.
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [
    { name: 'finalize', kind: 'Namespace', verbs: ['update'] },
    { name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
  ],
  strategy: new NamespaceStrategy(),
  table: namespaceTable,
  // `name` is exposed but not accepted: the conversion refuses it before matching.
  fieldLabels: fieldLabels(['metadata.name', 'status.phase']),
  selectableFields: (obj) => {
    const status = isPlainObject(obj.status) ? obj.status : {};
    const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
    return {
      'status.phase': typeof status.phase === 'string' ? status.phase : '',
      // Upstream still answers the pre-metadata field name.
      name: typeof meta.name === 'string' ? meta.name : '',
    };
  },
};
