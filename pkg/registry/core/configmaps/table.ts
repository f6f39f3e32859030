// `kubectl get configmaps`: NAME DATA AGE.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { stringMap } from './strategy.js';

export const configMapTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Data', 'string', 'Number of entries in data and binaryData.'),
    ageColumn(),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    Object.keys(stringMap(obj.data)).length + Object.keys(stringMap(obj.binaryData)).length,
    humanAge(obj.metadata.creationTimestamp),
  ],
};
