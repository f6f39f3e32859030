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
import { CustomResourceCleanupFinalizer, crdSpec, crdStatus, findCondition, storageVersion, isConditionTrue, setCondition,
  type CRDCondition, type CRDStatus } from '../../apis/apiextensions/types.js';
import type { Informer } from '../../client/informer.js';
import type { Client, ResourceClient } from '../../client/interfaces.js';
import { updateWithRetry } from '../../client/retry.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import type { InformerSource } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';
import { calculateNames, equivalentCondition, sameNames } from './naming.js';
import { CRDRegistrationController } from './registration.js';

export const apiextensionsGroup = 'apiextensions.k8s.io';

type Step = (crd: KubeObject) => ((crd: KubeObject) => void) | undefined;

export class CRDStatusController implements Controller {
  readonly name = 'crd-status';
  private queue: KeyedQueue | undefined;
  private finalizer: KeyedQueue | undefined;
  private handlersAdded = false;
  /** Our own writes, newer than the informer until their events arrive (upstream: the mutation cache). */
  private written = new Map<string, KubeObject>();

  constructor(private readonly informer: Informer, private readonly client: ResourceClient, private readonly log: Logger,
    private readonly instances?: InstanceDeleter) {}

  start(): () => void {
    const q = new KeyedQueue((name) => this.sync(name),
      (name, err) => this.log.warn({ controller: this.name, crd: name, err: (err as Error).message }, 'sync failed'));
    this.queue = q;
    const f = new KeyedQueue((name) => this.finalize(name),
      (name, err) => this.log.info({ controller: this.name, crd: name, err: (err as Error).message }, 'custom resource deletion not finished'),
      { maxRetries: Number.POSITIVE_INFINITY, baseDelayMs: 500, maxDelayMs: 5000 });
    this.finalizer = f;
    if (!this.handlersAdded) {
      this.handlersAdded = true;
      const enqueue = (obj: KubeObject) => this.queue?.add(obj.metadata.name ?? '');
      this.informer.addHandlers({ add: enqueue, update: enqueue, delete: (obj) => { this.written.delete(obj.metadata.name ?? ''); enqueue(obj); } });
    }
    void this.informer.waitForSync().then(() => { for (const crd of this.informer.list()) q.add(crd.metadata.name ?? ''); });
    return () => {
      q.stop();
      f.stop();
      if (this.queue === q) this.queue = undefined;
      if (this.finalizer === f) this.finalizer = undefined;
    };
  }

  /** Waits until nothing is queued (tests). */
  async idle(): Promise<void> {
    await this.queue?.idle();
    await this.finalizer?.idle();
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
      // Deleting instances may wait on their own finalizers: that runs in a queue of its own.
      if (step === this.finalizing && deletingInstances(crd) && isConditionTrue(crd, 'Established') && this.instances) {
        this.finalizer?.add(name);
        return;
      }
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
   * Deletes every instance (each namespace's collection, through the API, so their own
   * finalizers hold them) and waits until none is left; until then the CRD keeps its
   * finalizer and says why.
   */
  private async finalize(name: string): Promise<void> {
    const crd = this.latest(name);
    if (!crd || !this.instances || !this.finalizing(crd) || !deletingInstances(crd)) return;
    const remaining = await this.instances(crd);
    if (remaining === 0) {
      await this.write(name, this.finalizing);
      return;
    }
    await this.write(crd.metadata.name ?? '', (c) => (deletingInstances(c) ? (obj) => setCondition(obj, {
      type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck',
      message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition',
    }, now()) : undefined));
    throw new Error(`${remaining} custom resources of ${crd.metadata.name} remain`);
  }

  /** Removes the cleanup finalizer once the instances are gone (upstream's finalizer controller). */
  private readonly finalizing: Step = (crd) => {
    if (!crd.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CustomResourceCleanupFinalizer)) return undefined;
    if (!deletingInstances(crd)) {
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

/** The finalizer has announced the deletion of instances (and may have begun it). */
function deletingInstances(crd: KubeObject): boolean {
  const reason = findCondition(crd, 'Terminating')?.reason;
  return reason === 'InstanceDeletionInProgress' || reason === 'InstanceDeletionCheck';
}

/** Deletes a CRD's instances; resolves to how many are still there afterwards. */
export type InstanceDeleter = (crd: KubeObject) => Promise<number>;

/** How long the finalizer waits for instances with finalizers of their own to go. */
const instanceDeletionWaitMs = 5_000;

/** Deletes the instances through the API, per namespace as upstream does, then waits for them to go. */
export function apiInstanceDeleter(client: Client, waitMs = instanceDeletionWaitMs): InstanceDeleter {
  return async (crd) => {
    const spec = crdSpec(crd);
    const names = crdStatus(crd).acceptedNames ?? {};
    const version = storageVersion(crd);
    if (!spec.group || !names.plural || !version) return 0;
    const resource = client.resource(spec.group, names.plural, version);
    const first = await resource.list('');
    const namespaces = new Set(first.items.map((o) => o.metadata.namespace ?? ''));
    for (const ns of namespaces) await resource.deleteCollection(ns);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const left = (await resource.list('')).items.length;
      if (left === 0 || Date.now() >= deadline) return left;
      await new Promise((r) => setTimeout(r, 500));
    }
  };
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Undefined when the scheme does not serve CRDs. */
export function crdStatusController(d: { scheme: ResourceScheme; informers: InformerSource; client: Client; log: Logger }): Controller | undefined {
  if (!d.scheme.resource(apiextensionsGroup, 'v1', 'customresourcedefinitions')) return undefined;
  return new CRDStatusController(d.informers.informerFor(apiextensionsGroup, 'customresourcedefinitions'),
    d.client.resource(apiextensionsGroup, 'customresourcedefinitions', 'v1'), d.log, apiInstanceDeleter(d.client));
}

/** Undefined when the scheme does not serve both CRDs and APIServices. */
export function crdRegistrationController(d: { scheme: ResourceScheme; informers: InformerSource; client: Client; log: Logger }): Controller | undefined {
  if (!d.scheme.resource(apiextensionsGroup, 'v1', 'customresourcedefinitions')) return undefined;
  if (!d.scheme.resource('apiregistration.k8s.io', 'v1', 'apiservices')) return undefined;
  return new CRDRegistrationController(d.informers.informerFor(apiextensionsGroup, 'customresourcedefinitions'),
    d.client.resource('apiregistration.k8s.io', 'apiservices', 'v1'), d.log);
}
