// Where a service-backed APIService is reached (upstream's ResolveCluster and
// ResolveEndpoint in k8s.io/apiserver/pkg/util/proxy): by default the Service's cluster
// IP (or, for an ExternalName Service, its external name) and the APIService's port;
// with --enable-aggregator-routing one of the Endpoints' addresses, picked at random.
// The `kubernetes` Service in `default` on 443 is this server itself (upstream's
// loopback resolver).
import { errors } from '../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../runtime/object.js';

/** Reads of the watch-fed caches the resolver works from. */
export interface ServiceLookup {
  service(namespace: string, name: string): KubeObject | undefined;
  endpoints(namespace: string, name: string): KubeObject | undefined;
}

export interface ServiceResolver {
  resolve(namespace: string, name: string, port: number): URL;
}

/** A failure to resolve; its message is upstream's error text. */
export class ResolveError extends Error {}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (isPlainObject(v) ? v : {});
const arr = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

function httpsURL(host: string, port: number): URL {
  return new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}`);
}

function getService(lookup: ServiceLookup, namespace: string, name: string): Rec {
  const svc = lookup.service(namespace, name);
  if (!svc) throw new ResolveError(errors.notFound({ group: '', resource: 'services' }, name).message);
  return rec(svc.spec);
}

function findServicePort(spec: Rec, port: number, name: string): Rec {
  const p = arr(spec.ports).find((x) => x.port === port);
  if (!p) throw new ResolveError(`no service port ${port} found for service ${JSON.stringify(name)}`);
  return p;
}

const ipServiceTypes = new Set(['ClusterIP', 'LoadBalancer', 'NodePort']);

/** Upstream's ResolveCluster. */
export function resolveCluster(lookup: ServiceLookup, namespace: string, name: string, port: number): URL {
  const spec = getService(lookup, namespace, name);
  const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
  if (type === 'ClusterIP' && spec.clusterIP === 'None') throw new ResolveError('cannot route to service with ClusterIP "None"');
  if (ipServiceTypes.has(type)) {
    const p = findServicePort(spec, port, name);
    return httpsURL(String(spec.clusterIP ?? ''), Number(p.port));
  }
  if (type === 'ExternalName') return httpsURL(String(spec.externalName ?? ''), port);
  throw new ResolveError(`unsupported service type ${JSON.stringify(type)}`);
}

/** Upstream's ResolveEndpoint (--enable-aggregator-routing). */
export function resolveEndpoint(lookup: ServiceLookup, namespace: string, name: string, port: number, random = Math.random): URL {
  const spec = getService(lookup, namespace, name);
  const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
  if (!ipServiceTypes.has(type)) throw new ResolveError(`unsupported service type ${JSON.stringify(type)}`);
  const svcPort = findServicePort(spec, port, name);
  const eps = lookup.endpoints(namespace, name);
  if (!eps) throw new ResolveError(errors.notFound({ group: '', resource: 'endpoints' }, name).message);
  const subsets = arr(eps.subsets);
  const none = `no endpoints available for service ${JSON.stringify(name)}`;
  if (subsets.length === 0) throw new ResolveError(none);
  const seed = Math.floor(random() * subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const ss = subsets[(seed + i) % subsets.length]!;
    const addresses = arr(ss.addresses);
    if (addresses.length === 0) continue;
    const p = arr(ss.ports).find((x) => (x.name ?? '') === (svcPort.name ?? ''));
    if (!p) continue;
    const addr = addresses[Math.floor(random() * addresses.length)]!;
    return httpsURL(String(addr.ip ?? ''), Number(p.port));
  }
  throw new ResolveError(none);
}

export function serviceResolver(lookup: ServiceLookup, opts: { endpointRouting: boolean; loopback?: () => URL | undefined }): ServiceResolver {
  return {
    resolve(namespace, name, port) {
      const self = opts.loopback?.();
      if (self && namespace === 'default' && name === 'kubernetes' && port === 443) return new URL(self.href);
      return opts.endpointRouting ? resolveEndpoint(lookup, namespace, name, port) : resolveCluster(lookup, namespace, name, port);
    },
  };
}
