// storage.k8s.io/v1 csinodes.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { CSINodeStrategy } from './strategy.js';

const csiNodeTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Drivers', 'integer', 'drivers is a list of information of all CSI Drivers existing on a node. If all drivers in the list are uninstalled, this can become empty.'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return [obj.metadata.name ?? '', Array.isArray(spec.drivers) ? spec.drivers.length : 0, humanAge(obj.metadata.creationTimestamp)];
  },
};

export const csinodes: ResourceDef = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSINode',
  plural: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new CSINodeStrategy(),
  table: csiNodeTable,
};
