// core/v1 componentstatuses (cs): computed on each read from health checks, never stored,
// get and list only; v1 ComponentStatus is deprecated, so every answer carries upstream's
// warning. The checks are bound at server start (bindComponentStatuses), when the etcd
// endpoints are known.
import { plainError } from '../../../util/proxy/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ResourceDef, VirtualRead } from '../../rest/resource.js';
import type { ResourceScheme } from '../../rest/resource-scheme.js';
import { column, type TableConvertor } from '../../../runtime/table.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { probeEtcd, probeHTTPS, type ProbeResult } from './probes.js';
import type { EtcdTLSFiles } from '../../../storage/etcd/tls/files.js';

type Condition = { type: string; status: string; message?: string; error?: string };

const componentStatusTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names'),
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  cells: (obj) => {
    const healthy = ((obj.conditions ?? []) as Condition[]).find((c) => c.type === 'Healthy');
    const status = !healthy ? 'Unknown' : healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
    return [obj.metadata.name ?? '', status, healthy?.message ?? '', healthy?.error ?? ''];
  },
};

const unbound: VirtualRead = {
  get: () => Promise.reject(new Error('componentstatuses: not bound')),
  list: () => Promise.reject(new Error('componentstatuses: not bound')),
};

export const componentstatuses: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  plural: 'componentstatuses',
  singular: 'componentstatus',
  shortNames: ['cs'],
  namespaced: false,
  verbs: ['get', 'list'],
  strategy: new BaseStrategy({ namespaced: false, nameValidator: nameIsDNSSubdomain }),
  table: componentStatusTable,
  read: unbound,
  deprecationWarning: 'v1 ComponentStatus is deprecated in v1.19+',
};

export type Check = () => Promise<ProbeResult>;

export function componentStatus(name: string, r: ProbeResult): KubeObject {
  const condition: Condition = { type: 'Healthy', status: r.status };
  if (r.message) condition.message = r.message;
  if (r.error) condition.error = r.error;
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name, creationTimestamp: null } as KubeObject['metadata'], conditions: [condition] };
}

/**
 * Upstream's checks: the scheduler and controller manager on their default secure
 * ports, and etcd-<i> per storage configuration (v1.28's storage factory Configs(), since
 * the check became an etcd client's): etcd-0 is --etcd-servers as a whole (one client
 * over all its URLs, healthy while it reads through any of them), then one per
 * --etcd-servers-overrides resource with its own server list (`overrideServers`), not
 * merged when two name the same servers. Upstream walks its overrides map (Go's
 * unordered iteration); these follow the flag's order.
 */
export function defaultChecks(etcdEndpoints: string[], etcdPrefix: string, etcdTLS: EtcdTLSFiles = {}, overrideServers: string[][] = []): Map<string, Check> {
  const checks = new Map<string, Check>([
    ['controller-manager', () => probeHTTPS('127.0.0.1', 10257, '/healthz')],
    ['scheduler', () => probeHTTPS('127.0.0.1', 10259, '/healthz')],
  ]);
  [etcdEndpoints, ...overrideServers].forEach((servers, i) => checks.set(`etcd-${i}`, () => probeEtcd(servers, etcdPrefix, undefined, etcdTLS)));
  return checks;
}

export function componentStatusReads(checks: Map<string, Check>): VirtualRead {
  return {
    async get(name) {
      const check = checks.get(name);
      // Upstream answers an unknown name with a plain Go error (fmt.Errorf), which its
      // handler renders as any non-Status error: a 500 without a reason.
      if (!check) throw plainError(`Component not found: ${name}`);
      return componentStatus(name, await check());
    },
    async list() {
      const names = [...checks.keys()].sort();
      return Promise.all(names.map(async (n) => componentStatus(n, await checks.get(n)!())));
    },
  };
}

export function bindComponentStatuses(scheme: ResourceScheme, etcdEndpoints: string[], etcdPrefix: string, etcdTLS: EtcdTLSFiles = {},
  overrideServers: string[][] = []): void {
  if (!scheme.resource('', 'v1', 'componentstatuses')) return;
  scheme.bindRead('', 'v1', 'componentstatuses', componentStatusReads(defaultChecks(etcdEndpoints, etcdPrefix, etcdTLS, overrideServers)));
}
