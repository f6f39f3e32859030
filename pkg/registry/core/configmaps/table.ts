// `kubectl get configmaps`: NAME DATA AGE.
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';
import { stringMap } from './strategy.js';

export const configMapTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace.'),
    column('Data', 'string', 'Number of entries in data and binaryData.'),
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    Object.keys(stringMap(obj.data)).length + Object.keys(stringMap(obj.binaryData)).length,
    humanAge(obj.metadata.creationTimestamp),
  ],
};
