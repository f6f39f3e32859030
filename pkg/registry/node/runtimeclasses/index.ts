// node.k8s.io/v1 runtimeclasses.
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { RuntimeClassStrategy } from './strategy.js';

const runtimeClassTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Handler', 'string', 'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class. The possible values are specific to the node & CRI configuration.  It is assumed that all handlers are available on every node, and handlers of the same name are equivalent on every node. For example, a handler called "runc" might specify that the runc OCI runtime (using native Linux containers) will be used to run the containers in a pod. The Handler must be lowercase, conform to the DNS Label (RFC 1123) requirements, and is immutable.'),
    ageColumn(),
  ],
  cells: (obj) => [obj.metadata.name ?? '', typeof obj.handler === 'string' ? obj.handler : '', humanAge(obj.metadata.creationTimestamp)],
};

export const runtimeclasses: ResourceDef = {
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  plural: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new RuntimeClassStrategy(),
  table: runtimeClassTable,
};
