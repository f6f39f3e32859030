// `kubectl get leases`: NAME HOLDER AGE.
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

export const leaseTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Holder', 'string', 'The identity of the current holder of the lease.'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return [obj.metadata.name ?? '', typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
      humanAge(obj.metadata.creationTimestamp)];
  },
};
