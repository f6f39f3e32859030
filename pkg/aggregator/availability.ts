// Upstream's AvailableConditionController: keeps the Available condition of every
// APIService. Local ones are always available ("Local"); a service-backed one is
// checked in upstream's order (the Service exists; for a ClusterIP Service, the port
// and an Endpoints address with that port's name; then a discovery GET to the
// service) and its condition says which check failed. Rechecked on changes of the
// APIService, its Service or its Endpoints, and every 30 s (failures sooner), since
// reachability changes without any API event. Writes only when the status changes.
import type { Logger } from 'pino';
import type { Informer } from '../client/informer.js';
import type { ResourceClient } from '../client/interfaces.js';
import { isNotFound, updateWithRetry } from '../client/retry.js';
import type { Controller } from '../controller/manager.js';
import { KeyedQueue } from '../controller/workqueue.js';
import { nowTimestamp } from '../registry/generic/names.js';
import { isPlainObject, type KubeObject } from '../runtime/object.js';
import { apiServiceSpec, isAvailable, setCondition, type APIServiceCondition } from './apiservice.js';
import { discoveryCheck } from './discovery-check.js';
import type { ServiceResolver } from './resolver.js';
import type { TransportConfig } from '../util/proxy/transport.js';

export interface AvailabilityDeps {
  apiServices: Informer;
  services: Informer;
  endpoints: Informer;
  /** The apiservices client (status writes through the loopback client). */
  client: ResourceClient;
  resolver: ServiceResolver;
  /** The discovery check's transport (unverified TLS, the proxy client certificate). */
  checkTransport: TransportConfig;
  log: Logger;
  /** Resync of a checked APIService; default 30 s. */
  resyncMs?: number;
  /** Recheck of a failing one; default 5 s. */
  retryMs?: number;
  /** Called when a write turned an available APIService unavailable (upstream's counter). */
  onUnavailable?: (name: string, reason: string | undefined) => void;
}

type Rec = Record<string, unknown>;
const arr = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

export const localCondition = (): APIServiceCondition => ({
  type: 'Available', status: 'True', lastTransitionTime: nowTimestamp(), reason: 'Local', message: 'Local APIServices are always available',
});

export class AvailabilityController implements Controller {
  readonly name = 'apiservice-availability';
  private queue: KeyedQueue | undefined;
  private handlersAdded = false;

  constructor(private readonly d: AvailabilityDeps) {}

  start(): () => void {
    const q = new KeyedQueue((name) => this.sync(name),
      (name, err) => this.d.log.warn({ controller: this.name, apiservice: name, err: (err as Error).message }, 'sync failed'));
    this.queue = q;
    if (!this.handlersAdded) {
      this.handlersAdded = true;
      const enqueue = (o: KubeObject) => this.queue?.add(o.metadata.name ?? '');
      this.d.apiServices.addHandlers({ add: enqueue, update: enqueue, delete: enqueue });
      const forService = (o: KubeObject) => {
        for (const a of this.d.apiServices.list()) {
          const svc = apiServiceSpec(a).service;
          if (svc && svc.namespace === o.metadata.namespace && svc.name === o.metadata.name) enqueue(a);
        }
      };
      for (const inf of [this.d.services, this.d.endpoints]) inf.addHandlers({ add: forService, update: forService, delete: forService });
    }
    void Promise.all([this.d.apiServices, this.d.services, this.d.endpoints].map((i) => i.waitForSync())).then(() => {
      for (const a of this.d.apiServices.list()) q.add(a.metadata.name ?? '');
    });
    return () => { q.stop(); if (this.queue === q) this.queue = undefined; };
  }

  /** Waits until nothing is queued (tests). */
  async idle(): Promise<void> {
    await this.queue?.idle();
  }

  private async sync(name: string): Promise<void> {
    const cached = this.d.apiServices.get('', name);
    if (!cached) return;
    const condition = await this.check(cached);
    const remote = apiServiceSpec(cached).service !== undefined;
    if (remote) this.queue?.addAfter(name, condition.status === 'True' ? this.d.resyncMs ?? 30_000 : this.d.retryMs ?? 5_000);
    if (!changes(cached, condition)) return;
    try {
      await updateWithRetry(this.d.client, '', name, (current) => {
        if (!changes(current, condition)) return false;
        setCondition(current, condition);
      }, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return;
    }
    if (remote) this.d.log.info({ name, status: condition.status, reason: condition.reason, message: condition.message }, 'changing APIService availability');
    if (isAvailable(cached) && condition.status !== 'True') this.d.onUnavailable?.(name, condition.reason);
  }

  /** The Available condition the APIService should have now. */
  async check(apiService: KubeObject): Promise<APIServiceCondition> {
    const spec = apiServiceSpec(apiService);
    const svc = spec.service;
    if (!svc) return localCondition();
    const unavailable = (reason: string, message: string): APIServiceCondition => ({
      type: 'Available', status: 'False', lastTransitionTime: nowTimestamp(), reason, message,
    });
    const where = `service/${svc.name} in ${JSON.stringify(svc.namespace)}`;
    const service = this.d.services.get(svc.namespace, svc.name);
    if (!service) return unavailable('ServiceNotFound', `${where} is not present`);
    const sspec = isPlainObject(service.spec) ? service.spec : {};
    if ((sspec.type ?? 'ClusterIP') === 'ClusterIP') {
      const port = arr(sspec.ports).find((p) => p.port === svc.port);
      if (!port) return unavailable('ServicePortError', `${where} is not listening on port ${svc.port}`);
      const portName = typeof port.name === 'string' ? port.name : '';
      const eps = this.d.endpoints.get(svc.namespace, svc.name);
      if (!eps) return unavailable('EndpointsNotFound', `cannot find endpoints for ${where}`);
      const active = arr(eps.subsets).some((ss) => arr(ss.addresses).length > 0 && arr(ss.ports).some((p) => (p.name ?? '') === portName));
      if (!active) return unavailable('MissingEndpoints', `endpoints for ${where} have no addresses with port name ${JSON.stringify(portName)}`);
    }
    const failure = await discoveryCheck(() => this.d.resolver.resolve(svc.namespace, svc.name, svc.port), spec.group, spec.version, this.d.checkTransport);
    if (failure !== undefined) return unavailable('FailedDiscoveryCheck', failure);
    return { type: 'Available', status: 'True', lastTransitionTime: nowTimestamp(), reason: 'Passed', message: 'all checks passed' };
  }
}

/** Whether setting `c` would change the stored condition (its transition time aside). */
function changes(o: KubeObject, c: APIServiceCondition): boolean {
  const before = JSON.stringify(withoutTime(o));
  const copy = structuredClone(o);
  setCondition(copy, c);
  return JSON.stringify(withoutTime(copy)) !== before;
}

function withoutTime(o: KubeObject): unknown {
  const st = isPlainObject(o.status) ? o.status : {};
  return (Array.isArray(st.conditions) ? st.conditions : []).map((c) => (isPlainObject(c) ? { ...c, lastTransitionTime: undefined } : c));
}
