// services/proxy: to one address of the service's Endpoints whose port has the named
// (or numbered) service port, and whose target pod still has that IP (upstream: service
// REST ResourceLocation). Endpoints are read by their storage key, so this works whether
// or not the endpoints resource is served.
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';
import { errors } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ConnectContext, ConnectDef, ConnectTarget } from '../../rest/resource.js';
import { hostPort, proxyURL, splitSchemeNamePort } from '../connect/location.js';
import { proxyMethods, proxyOptions } from '../pods/connect.js';

async function servicePortName(c: ConnectContext, svcName: string, port: string): Promise<string> {
  if (!/^[+-]?\d+$/.test(port)) return port;
  const services = c.stores('', 'services');
  if (!services) throw errors.notFound({ group: '', resource: 'services' }, svcName);
  const svc = await services.get(c.namespace, svcName);
  const found = arr(obj(svc.spec)?.ports).find((p) => Number(p.port) === Number(port));
  if (!found) throw errors.serviceUnavailable(`no service port ${Number(port)} found for service ${JSON.stringify(svcName)}`);
  return str(found.name);
}

async function readEndpoints(c: ConnectContext, name: string): Promise<KubeObject> {
  const served = c.stores('', 'endpoints');
  if (served) return served.get(c.namespace, name);
  try {
    return await c.readStored(`services/endpoints/${c.namespace}/${name}`);
  } catch {
    throw errors.notFound({ group: '', resource: 'endpoints' }, name);
  }
}

async function podHasIP(c: ConnectContext, addr: Obj): Promise<boolean> {
  const ref = obj(addr.targetRef);
  if (!ref || str(ref.namespace) !== c.namespace) return false;
  try {
    const pod = await c.stores('', 'pods')?.get(c.namespace, str(ref.name));
    return arr(obj(pod?.status)?.podIPs).some((p) => str(p.ip) === str(addr.ip));
  } catch {
    return false;
  }
}

function shuffledFrom<T>(list: T[]): T[] {
  const start = Math.floor(Math.random() * list.length);
  return list.map((_, i) => list[(start + i) % list.length]);
}

async function serviceProxyTarget(c: ConnectContext): Promise<ConnectTarget> {
  const id = splitSchemeNamePort(c.name);
  if (!id) throw errors.badRequest(`invalid service request ${JSON.stringify(c.name)}`);
  const portName = await servicePortName(c, id.name, id.port);
  const eps = await readEndpoints(c, id.name);
  const subsets = arr(eps.subsets);
  if (subsets.length === 0) throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(id.name)}`);
  for (const ss of shuffledFrom(subsets)) {
    const addresses = arr(ss.addresses);
    if (addresses.length === 0) continue;
    for (const p of arr(ss.ports)) {
      if (str(p.name) !== portName) continue;
      for (const addr of shuffledFrom(addresses)) {
        if (!(await podHasIP(c, addr))) continue;
        return {
          kind: 'proxy', url: proxyURL(id.scheme, hostPort(str(addr.ip), String(p.port)), c.path),
          transport: c.kubelet.proxyTransport, upgradeRequired: false, rootRedirect: c.path === '',
        };
      }
    }
  }
  throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(c.name)}`);
}

export const serviceProxy: ConnectDef = { methods: proxyMethods, target: serviceProxyTarget, options: proxyOptions('ServiceProxyOptions') };
