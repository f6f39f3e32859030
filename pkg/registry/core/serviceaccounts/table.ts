// `kubectl get serviceaccounts`: NAME SECRETS AGE.
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';

export const serviceAccountTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace.'),
    column('Secrets', 'string', 'Number of secrets listed for this service account.'),
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    Array.isArray(obj.secrets) ? obj.secrets.length : 0,
    humanAge(obj.metadata.creationTimestamp),
  ],
};
