// The EndpointSlice `kubernetes` written beside the Endpoints (upstream's EndpointsAdapter):
// the first subset's ports and addresses, ready or not, labelled with the service name.
import type { KubeObject } from '../../runtime/object.js';
import { deepEqual } from '../../util/deep-equal.js';
import { arr, type Obj } from '../../apis/core/types.js';

export const serviceNameLabel = 'kubernetes.io/service-name';

export function endpointSliceFor(endpoints: KubeObject): KubeObject {
  const name = endpoints.metadata.name ?? '';
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace: endpoints.metadata.namespace, labels: { [serviceNameLabel]: name } },
    addressType: 'IPv4',
  };
  const ss = arr(endpoints.subsets)[0];
  if (!ss) return slice;
  const ready = arr(ss.addresses);
  const notReady = arr(ss.notReadyAddresses);
  if (arr(ss.ports).length > 0) slice.ports = arr(ss.ports).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol }));
  if ([...ready, ...notReady].every((a) => String(a.ip ?? '').includes(':')) && ready.length + notReady.length > 0) slice.addressType = 'IPv6';
  const endpoint = (a: Obj, isReady: boolean): Obj => {
    const e: Obj = { addresses: [a.ip], conditions: { ready: isReady } };
    if (a.targetRef !== undefined) e.targetRef = a.targetRef;
    if (typeof a.nodeName === 'string') e.nodeName = a.nodeName;
    if (typeof a.hostname === 'string' && a.hostname !== '') e.hostname = a.hostname;
    return e;
  };
  const eps = [...ready.map((a) => endpoint(a, true)), ...notReady.map((a) => endpoint(a, false))];
  if (eps.length > 0) slice.endpoints = eps;
  return slice;
}

/** Whether the stored slice already says what `want` says (upstream compares these three). */
export function sliceUpToDate(current: KubeObject, want: KubeObject): boolean {
  return deepEqual(current.endpoints ?? [], want.endpoints ?? [])
    && deepEqual(current.ports ?? [], want.ports ?? [])
    && deepEqual(current.metadata.labels ?? {}, want.metadata.labels ?? {});
}
