// `kubectl get rolebindings` / `clusterrolebindings`: NAME ROLE AGE, and with -o wide
// USERS GROUPS SERVICEACCOUNTS.
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `kindLabel` words the descriptions: "roleBinding" or "clusterRoleBinding". */
export function bindingTable(kindLabel: string): TableConvertor {
  return {
    columns: [
      nameColumn(),
      column('Role', 'string', 'The role this binding grants, as Kind/name.'),
      ageColumn(),
      column('Users', 'string', `Users in the ${kindLabel}`, { priority: 1 }),
      column('Groups', 'string', `Groups in the ${kindLabel}`, { priority: 1 }),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${kindLabel}`, { priority: 1 }),
    ],
    cells: (obj) => {
      const ref = isPlainObject(obj.roleRef) ? obj.roleRef : {};
      const users: string[] = [];
      const groups: string[] = [];
      const sas: string[] = [];
      for (const s of Array.isArray(obj.subjects) ? obj.subjects : []) {
        const subj = isPlainObject(s) ? s : {};
        if (subj.kind === 'ServiceAccount') sas.push(`${str(subj.namespace)}/${str(subj.name)}`);
        else if (subj.kind === 'User') users.push(str(subj.name));
        else if (subj.kind === 'Group') groups.push(str(subj.name));
      }
      return [obj.metadata.name ?? '', `${str(ref.kind)}/${str(ref.name)}`, humanAge(obj.metadata.creationTimestamp),
        users.join(', '), groups.join(', '), sas.join(', ')];
    },
  };
}
