// `kubectl get apiservices`: NAME SERVICE AVAILABLE AGE.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

function available(obj: KubeObject): string {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const cond = (Array.isArray(status.conditions) ? status.conditions : []).filter(isPlainObject).find((c) => c.type === 'Available');
  if (!cond) return 'Unknown';
  if (cond.status === 'True') return 'True';
  return `${String(cond.status)} (${String(cond.reason ?? '')})`;
}

export const apiServiceTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const svc = isPlainObject(spec.service) ? `${String(spec.service.namespace)}/${String(spec.service.name)}` : 'Local';
    return [obj.metadata.name ?? '', svc, available(obj), humanAge(obj.metadata.creationTimestamp)];
  },
};
