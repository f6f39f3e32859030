// `kubectl get serviceaccounts`: NAME SECRETS AGE.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

export const serviceAccountTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Secrets', 'string', 'Number of secrets listed for this service account.'),
    ageColumn(),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    Array.isArray(obj.secrets) ? obj.secrets.length : 0,
    humanAge(obj.metadata.creationTimestamp),
  ],
};
