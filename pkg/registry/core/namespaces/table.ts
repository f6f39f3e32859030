// `kubectl get namespaces`: NAME STATUS AGE.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject } from '../../../runtime/object.js';

export const namespaceTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Status', 'string', 'The status of the namespace'),
    ageColumn(),
  ],
  cells: (obj) => {
    const status = isPlainObject(obj.status) ? obj.status : {};
    return [obj.metadata.name ?? '', typeof status.phase === 'string' ? status.phase : '', humanAge(obj.metadata.creationTimestamp)];
  },
};
