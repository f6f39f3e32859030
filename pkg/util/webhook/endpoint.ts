// Where a webhook's clientConfig points (upstream's util/webhook client config with the
// aggregator's ClusterIP service resolver, which kube-apiserver gives to admission and
// CRD conversion webhooks alike): a URL is used as it is; a Service reference is dialled
// at its ClusterIP (or its externalName) while the certificate must be valid for
// `<name>.<namespace>.svc`, and is looked up again on every call.
import { errors } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { Endpoint } from './client.js';

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface ClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

/** Services as this replica's informer holds them. */
export interface ServiceLookup {
  get(namespace: string, name: string): KubeObject | undefined;
}

export interface ResolvedClientConfig {
  /** The URL Go's client names in errors (`https://<svc>.<ns>.svc:<port><path>` for a service). */
  url: string;
  /** The host a credential resolver picks a kubeconfig user by. */
  credentialTarget: string;
  /** Where to send a request now; throws the resolver's error (service not found...). */
  endpoint(): Endpoint;
}

/** Throws for an unparsable URL (validation keeps stored configurations from having one). */
export function resolveClientConfig(cc: ClientConfig, services: ServiceLookup): ResolvedClientConfig {
  if (cc.url) {
    const u = new URL(cc.url);
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    const ep: Endpoint = { url: cc.url, host, port: Number(u.port || 443), path: `${u.pathname || '/'}`, serverName: host };
    return { url: cc.url, credentialTarget: u.host, endpoint: () => ep };
  }
  const namespace = cc.service?.namespace ?? '';
  const name = cc.service?.name ?? '';
  const port = cc.service?.port ?? 443;
  let path = cc.service?.path ?? '/';
  if (!path.startsWith('/')) path = `/${path}`;
  const serverName = `${name}.${namespace}.svc`;
  const url = `https://${serverName}:${port}${path}`;
  return {
    url,
    credentialTarget: port === 443 ? serverName : `${serverName}:${port}`,
    endpoint: () => ({ url, host: serviceHost(services, namespace, name, port), port, path, serverName }),
  };
}

/** Upstream's ClusterIP service resolver, with its error texts. */
export function serviceHost(services: ServiceLookup, namespace: string, name: string, port: number): string {
  const svc = services.get(namespace, name);
  if (!svc) throw errors.notFound({ group: '', resource: 'service' }, name);
  const spec = (svc.spec ?? {}) as { type?: string; clusterIP?: string; externalName?: string; ports?: Array<{ port?: number }> };
  const type = spec.type ?? 'ClusterIP';
  if (type === 'ExternalName') return spec.externalName ?? '';
  if (type !== 'ClusterIP' && type !== 'NodePort' && type !== 'LoadBalancer') throw new Error(`unsupported service type ${JSON.stringify(type)}`);
  if (spec.clusterIP === 'None') throw new Error('cannot route to service with ClusterIP "None"');
  if (!(spec.ports ?? []).some((p) => p.port === port)) throw new Error(`no service port ${port} found for service ${JSON.stringify(name)}`);
  return spec.clusterIP ?? '';
}
