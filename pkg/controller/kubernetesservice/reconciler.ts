// How the `kubernetes` Endpoints follow the replicas (upstream's endpoint reconcilers),
// as pure functions from the stored Endpoints to the one to write. `lease`: exactly the
// addresses holding a live /masterleases key. `master-count`: add our own address and
// keep at most --apiserver-count, dropping those sorted after ours.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { repackSubsets } from '../../registry/core/endpoints/repack.js';
import { kubernetesServiceName, kubernetesServiceNamespace } from './service.js';

export interface EndpointPort { name: string; port: number; protocol: string }

type Obj = Record<string, unknown>;
/** Tells the EndpointSlice mirroring controller to leave these Endpoints alone (upstream sets it too). */
export const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';

export function endpointPorts(securePort: number): EndpointPort[] {
  return [{ name: 'https', port: securePort, protocol: 'TCP' }];
}

function base(current: KubeObject | null): KubeObject {
  if (current) return structuredClone(current);
  return { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: kubernetesServiceName, namespace: kubernetesServiceNamespace } };
}

function setSkipMirror(e: KubeObject): boolean {
  const labels = e.metadata.labels ?? {};
  if (labels[skipMirrorLabel] === 'true') return false;
  e.metadata.labels = { ...labels, [skipMirrorLabel]: 'true' };
  return true;
}

const subsets = (e: KubeObject): Obj[] => (Array.isArray(e.subsets) ? e.subsets.filter(isPlainObject) as Obj[] : []);
const addressesOf = (ss: Obj): Obj[] => (Array.isArray(ss.addresses) ? ss.addresses.filter(isPlainObject) as Obj[] : []);

function portsMatch(ss: Obj, ports: EndpointPort[]): boolean {
  const have = Array.isArray(ss.ports) ? ss.ports.filter(isPlainObject) as Obj[] : [];
  return have.length === ports.length && ports.every((p, i) => have[i].name === p.name && have[i].port === p.port
    && have[i].protocol === p.protocol && have[i].appProtocol === undefined);
}

/** What to write, or undefined when the stored Endpoints are already right. */
export type Reconciled = KubeObject | undefined;

/** upstream leaseEndpointReconciler.doReconcile. */
export function reconcileLease(current: KubeObject | null, leased: string[], ports: EndpointPort[], reconcilePorts: boolean): Reconciled {
  const e = base(current);
  const skipMirrorChanged = setSkipMirror(e);
  const ss = subsets(e);
  const formatCorrect = ss.length === 1;
  const portsCorrect = formatCorrect && (!reconcilePorts || portsMatch(ss[0], ports));
  let ipsCorrect = false;
  if (formatCorrect) {
    const have = addressesOf(ss[0]).map((a) => String(a.ip ?? ''));
    ipsCorrect = have.length === leased.length && new Set(have).size === have.length && have.every((ip) => leased.includes(ip));
  }
  if (current && !skipMirrorChanged && formatCorrect && ipsCorrect && portsCorrect) return undefined;
  if (!formatCorrect) e.subsets = [{ addresses: [], ports }];
  if (!formatCorrect || !ipsCorrect) {
    (e.subsets as Obj[])[0].addresses = leased.map((ip) => ({ ip }));
    e.subsets = repackSubsets(e.subsets);
  }
  const out = subsets(e);
  if (out.length > 0 && !portsCorrect) out[0].ports = ports;
  return e;
}

/** upstream masterCountEndpointReconciler.ReconcileEndpoints. */
export function reconcileMasterCount(current: KubeObject | null, ip: string, ports: EndpointPort[], masterCount: number, reconcilePorts: boolean): Reconciled {
  const e = base(current);
  const skipMirrorChanged = setSkipMirror(e);
  const fresh = (): Obj[] => [{ addresses: [{ ip }], ports }];
  if (!current) { e.subsets = fresh(); return e; }
  const ss = subsets(e);
  if (ss.length !== 1) { e.subsets = fresh(); return e; }
  const have = addressesOf(ss[0]);
  const ipCorrect = have.some((a) => a.ip === ip) && have.length <= masterCount;
  const portsCorrect = !reconcilePorts || portsMatch(ss[0], ports);
  if (!skipMirrorChanged && ipCorrect && portsCorrect) return undefined;
  if (!ipCorrect) {
    ss[0].addresses = [...have, { ip }];
    e.subsets = repackSubsets(ss);
    const addrs = addressesOf((e.subsets as Obj[])[0]);
    const mine = addrs.findIndex((a) => a.ip === ip);
    // Drop the addresses after ours (wrapping round) so every replica converges on the same set.
    while (addrs.length > masterCount) addrs.splice((mine + 1) % addrs.length, 1);
    (e.subsets as Obj[])[0].addresses = addrs;
  }
  if (!portsCorrect) (e.subsets as Obj[])[0].ports = ports;
  return e;
}
