// Each replica's copy of the discovery of the available service-backed APIServices,
// fetched from the services themselves: on every change of an APIService (an event of
// the replica's own informer, so every replica follows what is in etcd) and
// periodically, since a service's API can change without any APIService event.
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

  /** The fetched versions, one per available service-backed APIService. */
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
    if (!o || !spec?.service || !isAvailable(o)) { this.docs.delete(name); return; }
    try {
      const base = this.d.resolver.resolve(spec.service.namespace, spec.service.name, spec.service.port);
      const discovery = await fetchVersionDiscovery(base, serviceTransport(spec, this.d.clientCert), spec.group, spec.version);
      this.docs.set(name, { spec, discovery });
    } catch (err) {
      this.d.log.warn({ apiservice: name, err: (err as Error).message }, 'failed to fetch discovery of an aggregated API');
      // What was known stays served, marked stale, until a fetch succeeds.
      const known = this.docs.get(name);
      if (known) this.docs.set(name, { spec, discovery: { ...known.discovery, freshness: 'Stale' } });
    }
  }
}
