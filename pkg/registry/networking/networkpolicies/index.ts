// networking.k8s.io/v1 networkpolicies.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { formatLabelSelector } from '../../../apis/networking/ports.js';
import { NetworkPolicyStrategy } from './strategy.js';

const networkPolicyTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Pod-Selector', 'string', 'podSelector selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return [obj.metadata.name ?? '', formatLabelSelector(spec.podSelector), humanAge(obj.metadata.creationTimestamp)];
  },
};

export const networkpolicies: ResourceDef = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['netpol'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  strategy: new NetworkPolicyStrategy(),
  table: networkPolicyTable,
};
