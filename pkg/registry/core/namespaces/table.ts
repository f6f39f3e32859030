// `kubectl get namespaces`: NAME STATUS AGE.
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject } from '../../../runtime/object.js';

export const namespaceTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace.'),
    column('Status', 'string', 'The status of the namespace'),
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => {
    const status = isPlainObject(obj.status) ? obj.status : {};
    return [obj.metadata.name ?? '', typeof status.phase === 'string' ? status.phase : '', humanAge(obj.metadata.creationTimestamp)];
  },
};
