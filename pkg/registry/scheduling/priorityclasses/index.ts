// scheduling.k8s.io/v1 priorityclasses; the two system classes exist from the start.
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { PriorityClassStrategy } from './strategy.js';

const priorityClassTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Value', 'integer', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.'),
    column('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.'),
    ageColumn(),
  ],
  cells: (obj) => [obj.metadata.name ?? '', typeof obj.value === 'number' ? obj.value : 0, obj.globalDefault === true, humanAge(obj.metadata.creationTimestamp)],
};

export const priorityclasses: ResourceDef = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  shortNames: ['pc'],
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new PriorityClassStrategy(),
  table: priorityClassTable,
};
