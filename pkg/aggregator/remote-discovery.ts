// Each replica's copy of the discovery of the service-backed APIServices, fetched from
// the services themselves (upstream's discovery manager) on every change of an
// APIService and every minute (APIServiceRefresher). A version whose fetch fails stays
// listed, marked Stale.
import type { Logger } from 'pino';
import type { Informer } from '../client/informer.js';
import type { APIVersionDiscovery } from '../endpoints/discovery/types.js';
import { apiServiceSpec, isAvailable, type APIServiceSpec } from './apiservice.js';
import { fetchVersionDiscovery } from './discovery-fetch.js';
import { APIServiceRefresher } from './refresher.js';
import type { ServiceResolver } from './resolver.js';
import { serviceTransport, type ProxyClientCert } from './transport.js';

export interface RemoteVersion {
  spec: APIServiceSpec;
  discovery: APIVersionDiscovery;
}

export interface RemoteDiscoveryDeps {
  apiServices: Informer;
  resolver: ServiceResolver;
  clientCert?: ProxyClientCert;
  log: Logger;
  /** Default 60 s. */
  refreshMs?: number;
}

export class RemoteDiscovery {
  private docs = new Map<string, RemoteVersion>();
  private readonly refresher: APIServiceRefresher;

  constructor(private readonly d: RemoteDiscoveryDeps) {
    this.refresher = new APIServiceRefresher(d.apiServices, (name) => this.fetch(name), d.refreshMs ?? 60_000);
  }

  start(): void {
    this.refresher.start();
  }

  stop(): void {
    this.refresher.stop();
  }

  /** One version per service-backed APIService: Current when its fetch succeeded, Stale otherwise. */
  versions(): RemoteVersion[] {
    return [...this.docs.values()];
  }

  /** Resolves once no fetch is running (tests). */
  settled(): Promise<void> {
    return this.refresher.settled();
  }

  private async fetch(name: string): Promise<void> {
    const o = this.d.apiServices.get('', name);
    const spec = o && apiServiceSpec(o);
    if (!o || !spec?.service) { this.docs.delete(name); return; }
    try {
      // Upstream fetches through its proxy, which refuses an unavailable APIService.
      if (!isAvailable(o)) throw new Error('service unavailable');
      const base = this.d.resolver.resolve(spec.service.namespace, spec.service.name, spec.service.port);
      const discovery = await fetchVersionDiscovery(base, serviceTransport(spec, this.d.clientCert), spec.group, spec.version);
      this.docs.set(name, { spec, discovery });
    } catch (err) {
      this.d.log.debug({ apiservice: name, err: (err as Error).message }, 'failed to fetch discovery of an aggregated API');
      // Still listed: what was known (or just the version), marked stale until a fetch succeeds.
      const known = this.docs.get(name)?.discovery ?? { version: spec.version };
      this.docs.set(name, { spec, discovery: { ...known, freshness: 'Stale' } });
    }
  }
}
