// `kubectl get secrets`: NAME TYPE DATA AGE.
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';
import { stringMap } from '../configmaps/strategy.js';

export const secretTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace.'),
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'string', 'Number of entries in data.'),
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    typeof obj.type === 'string' ? obj.type : '',
    Object.keys(stringMap(obj.data)).length,
    humanAge(obj.metadata.creationTimestamp),
  ],
};
