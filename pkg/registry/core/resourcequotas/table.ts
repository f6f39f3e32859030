// `kubectl get quota`: "resource: used/hard" pairs, limits.* ones in the Limit column.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { isPlainObject } from '../../../runtime/object.js';
import { resourceList } from '../../../apis/core/resources.js';

export const resourceQuotaTable: TableConvertor = {
  columns: [
    nameColumn(),
    ageColumn(),
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells: (obj) => {
    const status = isPlainObject(obj.status) ? obj.status : {};
    const hard = resourceList(status.hard);
    const used = resourceList(status.used);
    const request: string[] = [];
    const limit: string[] = [];
    for (const r of Object.keys(hard).sort()) {
      (r.split('.')[0] === 'limits' && r.includes('.') ? limit : request).push(`${r}: ${used[r] ?? '0'}/${hard[r]}`);
    }
    return [obj.metadata.name ?? '', humanAge(obj.metadata.creationTimestamp), request.join(', '), limit.join(', ')];
  },
};
