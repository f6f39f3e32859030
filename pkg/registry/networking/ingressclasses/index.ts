// networking.k8s.io/v1 ingressclasses.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { IngressClassStrategy } from './strategy.js';

const ingressClassTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    let parameters = '<none>';
    if (isPlainObject(spec.parameters)) {
      const p = spec.parameters;
      parameters = `${String(p.kind ?? '')}${typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : ''}/${String(p.name ?? '')}`;
    }
    return [obj.metadata.name ?? '', typeof spec.controller === 'string' ? spec.controller : '', parameters, humanAge(obj.metadata.creationTimestamp)];
  },
};

export const ingressclasses: ResourceDef = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IngressClass',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new IngressClassStrategy(),
  table: ingressClassTable,
};
