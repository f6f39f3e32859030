// `kubectl get leases`: NAME HOLDER AGE.
import { isPlainObject } from '../../../runtime/object.js';
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';

export const leaseTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace.'),
    column('Holder', 'string', 'The identity of the current holder of the lease.'),
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return [obj.metadata.name ?? '', typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
      humanAge(obj.metadata.creationTimestamp)];
  },
};
