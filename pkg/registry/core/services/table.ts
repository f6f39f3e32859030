// `kubectl get services`: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide SELECTOR.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { ports, spec } from './strategy.js';

function externalIP(obj: KubeObject): string {
  const s = spec(structuredClone(obj));
  const ext = Array.isArray(s.externalIPs) ? s.externalIPs as string[] : [];
  switch (s.type) {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length > 0 ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const status = isPlainObject(obj.status) ? obj.status : {};
      const lb = isPlainObject(status.loadBalancer) ? status.loadBalancer : {};
      const ingress = Array.isArray(lb.ingress) ? lb.ingress.filter(isPlainObject) : [];
      const all = [...ingress.map((i) => String(i.ip || i.hostname || '')).filter((x) => x), ...ext];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return typeof s.externalName === 'string' ? s.externalName : '<none>';
    default:
      return '<unknown>';
  }
}

function portsCell(obj: KubeObject): string {
  const list = ports(spec(structuredClone(obj)));
  if (list.length === 0) return '<none>';
  return list.map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',');
}

export function selectorCell(sel: unknown): string {
  if (!isPlainObject(sel) || Object.keys(sel).length === 0) return '<none>';
  return Object.keys(sel).sort().map((k) => `${k}=${String(sel[k])}`).join(',');
}

export const serviceTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Type', 'string', 'The type of service.'),
    column('Cluster-IP', 'string', 'The cluster IP of the service.'),
    column('External-IP', 'string', 'The external IP of the service.'),
    column('Port(s)', 'string', 'The ports that the service is exposed on.'),
    ageColumn(),
    column('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', { priority: 1 }),
  ],
  cells: (obj) => {
    const s = isPlainObject(obj.spec) ? obj.spec : {};
    return [
      obj.metadata.name ?? '',
      String(s.type ?? ''),
      typeof s.clusterIP === 'string' && s.clusterIP !== '' ? s.clusterIP : '<none>',
      externalIP(obj),
      portsCell(obj),
      humanAge(obj.metadata.creationTimestamp),
      selectorCell(s.selector),
    ];
  },
};
