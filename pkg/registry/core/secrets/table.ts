// `kubectl get secrets`: NAME TYPE DATA AGE.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { stringMap } from '../configmaps/strategy.js';

export const secretTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'string', 'Number of entries in data.'),
    ageColumn(),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    typeof obj.type === 'string' ? obj.type : '',
    Object.keys(stringMap(obj.data)).length,
    humanAge(obj.metadata.creationTimestamp),
  ],
};
