// Each replica's copy of the discovery of the service-backed APIServices, fetched from
// the services themselves (upstream's discovery manager): on every change of an
// APIService (an event of the replica's own informer, so every replica follows what is
// in etcd) and every minute, since a service's API can change without any APIService
// event. A version whose fetch fails stays listed, marked Stale.
import type { Logger } from 'pino';
import type { Informer } from '../client/informer.js';
import type { APIVersionDiscovery } from '../endpoints/discovery/types.js';
import type { KubeObject } from '../runtime/object.js';
import { apiServiceSpec, isAvailable, type APIServiceSpec } from './apiservice.js';
import { fetchVersionDiscovery } from './discovery-fetch.js';
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
  private running = new Map<string, Promise<void>>();
  private again = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly d: RemoteDiscoveryDeps) {}

  start(): void {
    const changed = (o: KubeObject) => this.refresh(o.metadata.name ?? '');
    this.d.apiServices.addHandlers({ add: changed, update: changed, delete: changed });
    this.timer = setInterval(() => {
      for (const o of this.d.apiServices.list()) if (apiServiceSpec(o).service) this.refresh(o.metadata.name ?? '');
    }, this.d.refreshMs ?? 60_000);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** One version per service-backed APIService: Current when its fetch succeeded, Stale otherwise. */
  versions(): RemoteVersion[] {
    return [...this.docs.values()];
  }

  /** Resolves once no fetch is running (tests). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** Fetches `name` again; a change during a fetch fetches once more after it. */
  private refresh(name: string): void {
    if (this.stopped) return;
    if (this.running.has(name)) { this.again.add(name); return; }
    const run = this.fetch(name).finally(() => {
      this.running.delete(name);
      if (this.again.delete(name)) this.refresh(name);
    });
    this.running.set(name, run);
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
