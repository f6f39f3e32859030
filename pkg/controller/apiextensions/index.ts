// The CRD status controllers of apiextensions-apiserver, run as one reconcile per CRD:
// naming (which requested names are accepted, NamesAccepted), establishing
// (Established once the names are accepted) and the cleanup finalizer (removes
// customresourcecleanup.apiextensions.k8s.io from a deleted CRD). Each pass writes at
// most once through the status endpoint; that write's event queues the next step, so
// watchers see upstream's sequence of statuses. Upstream runs these in every
// apiserver; here the elected replica runs them, as it does the other controllers.
import type { Logger } from 'pino';
import { StatusError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { CustomResourceCleanupFinalizer, crdSpec, crdStatus, findCondition, isConditionTrue, setCondition,
  type CRDCondition, type CRDStatus } from '../../apis/apiextensions/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceClient } from '../../client/interfaces.js';
import { updateWithRetry } from '../../client/retry.js';
import type { Scheme } from '../../runtime/scheme.js';
import type { InformerSource } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';
import { calculateNames, equivalentCondition, sameNames } from './naming.js';

export const apiextensionsGroup = 'apiextensions.k8s.io';

type Step = (crd: KubeObject) => ((crd: KubeObject) => void) | undefined;

export class CRDStatusController implements Controller {
  readonly name = 'crd-status';
  private queue: KeyedQueue | undefined;
  private handlersAdded = false;
  /** Our own writes, newer than the informer until their events arrive (upstream: the mutation cache). */
  private written = new Map<string, KubeObject>();

  constructor(private readonly informer: Informer, private readonly client: ResourceClient, private readonly log: Logger) {}

  start(): () => void {
    const q = new KeyedQueue((name) => this.sync(name),
      (name, err) => this.log.warn({ controller: this.name, crd: name, err: (err as Error).message }, 'sync failed'));
    this.queue = q;
    if (!this.handlersAdded) {
      this.handlersAdded = true;
      const enqueue = (obj: KubeObject) => this.queue?.add(obj.metadata.name ?? '');
      this.informer.addHandlers({ add: enqueue, update: enqueue, delete: (obj) => { this.written.delete(obj.metadata.name ?? ''); enqueue(obj); } });
    }
    void this.informer.waitForSync().then(() => { for (const crd of this.informer.list()) q.add(crd.metadata.name ?? ''); });
    return () => { q.stop(); if (this.queue === q) this.queue = undefined; };
  }

  /** Waits until nothing is queued (tests). */
  async idle(): Promise<void> {
    await this.queue?.idle();
  }

  private latest(name: string): KubeObject | undefined {
    const cached = this.informer.get('', name);
    const mine = this.written.get(name);
    if (!cached || !mine) return cached;
    return Number(mine.metadata.resourceVersion) > Number(cached.metadata.resourceVersion) ? mine : cached;
  }

  private all(): KubeObject[] {
    return this.informer.list().map((c) => this.latest(c.metadata.name ?? '') ?? c);
  }

  private async sync(name: string): Promise<void> {
    const crd = this.latest(name);
    if (!crd) { this.requeueGroup(name); return; }
    for (const step of [this.finalizing, this.naming, this.establishing]) {
      if (!step(crd)) continue;
      const changed = await this.write(name, step);
      if (changed && step === this.naming) this.requeueGroup(name);
      return;
    }
  }

  /** Applies the step to the stored object, unless it no longer applies there. */
  private async write(name: string, step: Step): Promise<boolean> {
    try {
      let applied = false;
      const res = await updateWithRetry(this.client, '', name, (next) => {
        const change = step(next);
        applied = change !== undefined;
        if (!change) return false;
        change(next);
      }, { subresource: 'status' });
      if (applied && res.metadata.deletionTimestamp === undefined) this.written.set(name, res);
      return applied;
    } catch (err) {
      // Deleted or changed meanwhile: its event queues it again.
      if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return false;
      throw err;
    }
  }

  /** A released or newly taken name can change what the group's other CRDs may accept. */
  private requeueGroup(name: string): void {
    const group = name.slice(name.indexOf('.') + 1);
    for (const crd of this.informer.list()) {
      if (crdSpec(crd).group === group && crd.metadata.name !== name) this.queue?.add(crd.metadata.name ?? '');
    }
  }

  private readonly naming: Step = (crd) => {
    const status = crdStatus(crd);
    if (sameNames(crdSpec(crd).names ?? {}, status.acceptedNames ?? {})) return undefined;
    const others = this.all().filter((c) => c.metadata.name !== crd.metadata.name);
    const r = calculateNames(crd, [crd, ...others]);
    if (sameNames(status.acceptedNames ?? {}, r.acceptedNames) && equivalentCondition(r.namesAccepted, findCondition(crd, 'NamesAccepted'))) return undefined;
    return (obj) => {
      (obj.status as CRDStatus).acceptedNames = r.acceptedNames;
      setCondition(obj, r.namesAccepted, now());
      setCondition(obj, r.established, now());
    };
  };

  private readonly establishing: Step = (crd) => {
    if (!isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established')) return undefined;
    return (obj) => setCondition(obj, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted' }, now());
  };

  /**
   * Custom resources are not served yet, so a CRD has no instances to delete: the
   * finalizer records the outcome upstream reports and lets the definition go.
   * Deleting the instances belongs here once they are served.
   */
  private readonly finalizing: Step = (crd) => {
    if (!crd.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CustomResourceCleanupFinalizer)) return undefined;
    const inProgress = findCondition(crd, 'Terminating')?.reason === 'InstanceDeletionInProgress';
    if (!inProgress) {
      return (obj) => setCondition(obj, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress' }, now());
    }
    const done: CRDCondition = isConditionTrue(crd, 'Established')
      ? { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' }
      : { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    return (obj) => {
      setCondition(obj, done, now());
      obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== CustomResourceCleanupFinalizer);
    };
  };
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Undefined when the scheme does not serve CRDs. */
export function crdStatusController(d: { scheme: Scheme; informers: InformerSource; client: Client; log: Logger }): Controller | undefined {
  if (!d.scheme.resource(apiextensionsGroup, 'v1', 'customresourcedefinitions')) return undefined;
  return new CRDStatusController(d.informers.informerFor(apiextensionsGroup, 'customresourcedefinitions'),
    d.client.resource(apiextensionsGroup, 'customresourcedefinitions', 'v1'), d.log);
}
