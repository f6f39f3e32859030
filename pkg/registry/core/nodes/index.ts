// core/v1 nodes, with the status subresource. Upstream keys them as /registry/minions.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { NodeStrategy } from './strategy.js';
import { nodeProxy } from './proxy.js';
import { nodeTable } from './table.js';
import { fieldLabels } from '../../../apis/meta/fields.js';

export const nodes: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  singular: 'node',
  shortNames: ['no'],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [
    { name: 'proxy', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'], connect: nodeProxy },
    { name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] },
  ],
  storageResource: 'minions',
  strategy: new NodeStrategy(),
  table: nodeTable,
  fieldLabels: fieldLabels(['metadata.name', 'spec.unschedulable']),
  selectableFields: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return { 'spec.unschedulable': spec.unschedulable === true ? 'true' : 'false' };
  },
};
