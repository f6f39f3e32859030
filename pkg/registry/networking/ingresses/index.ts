// networking.k8s.io/v1 ingresses, with the status subresource; upstream keys them as
// /registry/ingress.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { IngressStrategy } from './strategy.js';

const ingressTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const status = isPlainObject(obj.status) ? obj.status : {};
    const lb = isPlainObject(status.loadBalancer) ? status.loadBalancer : {};
    const rules = Array.isArray(spec.rules) ? spec.rules.filter(isPlainObject) : [];
    const hosts = rules.map((r) => (typeof r.host === 'string' ? r.host : '')).filter((h) => h !== '');
    const points = (Array.isArray(lb.ingress) ? lb.ingress.filter(isPlainObject) : [])
      .map((p) => String(p.ip || p.hostname || '')).filter((a) => a !== '');
    const tls = Array.isArray(spec.tls) && spec.tls.length > 0;
    return [
      obj.metadata.name ?? '',
      typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>',
      formatHosts(hosts),
      points.join(','),
      tls ? '80, 443' : '80',
      humanAge(obj.metadata.creationTimestamp),
    ];
  },
};

/** Up to three hosts, then "+ N more..."; "*" when no rule names a host. */
function formatHosts(hosts: string[]): string {
  if (hosts.length === 0) return '*';
  const shown = hosts.slice(0, 3).join(',');
  return hosts.length > 3 ? `${shown} + ${hosts.length - 3} more...` : shown;
}

export const ingresses: ResourceDef = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  plural: 'ingresses',
  singular: 'ingress',
  shortNames: ['ing'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', kind: 'Ingress', verbs: ['get', 'patch', 'update'] }],
  storageResource: 'ingress',
  strategy: new IngressStrategy(),
  table: ingressTable,
};
