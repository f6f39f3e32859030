// The garbage collector: objects whose owners (metadata.ownerReferences) are gone are
// deleted; an owner deleted with propagationPolicy=Foreground waits (finalizer
// foregroundDeletion) until its dependents that set blockOwnerDeletion are gone; one
// deleted with Orphan (finalizer orphan) first has its references removed from its
// dependents. Fed by informers over every stored resource; owners are checked against
// storage before anything is deleted, so a stale cache never deletes a live object.
import type { Client, ResourceClient } from '../../client/interfaces.js';
import { isNotFound, updateWithRetry } from '../../client/retry.js';
import { StatusError } from '../../runtime/errors.js';
import type { KubeObject, OwnerReference } from '../../runtime/object.js';
import { parseApiVersion } from '../../runtime/scheme.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import {
  FinalizerDeleteDependents, FinalizerOrphanDependents, noDependents, OwnershipGraph, type GraphNode, type ObjectRef,
} from './graph.js';
import { KeyedQueue, type RetryPolicy } from '../workqueue.js';

/** Deletion work is retried until it succeeds, as upstream's controllers do. */
const retryForever: RetryPolicy = { maxRetries: Infinity, baseDelayMs: 10 };

export const controllerName = 'garbagecollector';

const hasFinalizer = (o: KubeObject, f: string): boolean => (o.metadata.finalizers ?? []).includes(f);

/** The stored resource that serves a kind named by apiVersion and kind. */
export function resourceForKind(scheme: ResourceScheme, apiVersion: string, kind: string): ResourceDef | undefined {
  const { group, version } = parseApiVersion(apiVersion);
  const exact = scheme.kind(group, version, kind);
  if (exact && !exact.virtual) return exact;
  for (const v of scheme.versionsOf(group)) {
    const def = scheme.kind(group, v, kind);
    if (def && !def.virtual) return def;
  }
  return undefined;
}

export class GarbageCollector implements Controller {
  readonly name = controllerName;
  private readonly graph = new OwnershipGraph();
  private deleteQueue: KeyedQueue | undefined;
  private orphanQueue: KeyedQueue | undefined;
  private handlersAdded = false;

  private readonly client: Client;

  constructor(private readonly d: Pick<ControllerContext, 'scheme' | 'informers' | 'log' | 'client'>) {
    this.client = d.client('generic-garbage-collector');
  }

  start(): () => void {
    const log = (what: string) => (uid: string, err: unknown) =>
      this.d.log.warn({ controller: this.name, uid, err: (err as Error).message }, what);
    const del = new KeyedQueue((uid) => this.attemptToDelete(uid), log('attempt to delete failed'), retryForever);
    const orphan = new KeyedQueue((uid) => this.attemptToOrphan(uid), log('attempt to orphan failed'), retryForever);
    this.deleteQueue = del;
    this.orphanQueue = orphan;
    const informers = this.d.scheme.storedResources().map((def) => ({ informer: this.d.informers.informerFor(def.group, def.plural) }));
    if (!this.handlersAdded) {
      this.handlersAdded = true;
      for (const { informer } of informers) {
        informer.addHandlers({
          add: (o) => this.observe(o, true),
          update: (o, old) => this.observe(o, ownersChanged(o, old)),
          delete: (o) => this.forget(o),
        });
      }
    } else {
      // Leadership came back: look at everything again.
      for (const { informer } of informers) for (const o of informer.list()) this.observe(o, true);
    }
    return () => {
      del.stop();
      orphan.stop();
      if (this.deleteQueue === del) this.deleteQueue = undefined;
      if (this.orphanQueue === orphan) this.orphanQueue = undefined;
    };
  }

  // ---- graph maintenance from informer events ----

  private observe(obj: KubeObject, checkOwners: boolean): void {
    const uid = obj.metadata.uid;
    if (!uid) return;
    const owners = obj.metadata.ownerReferences ?? [];
    let node = this.graph.get(uid);
    const previous = node?.owners ?? [];
    if (!node) {
      node = { ref: refOf(obj), owners: [], dependents: noDependents, virtual: false, beingDeleted: false, deletingDependents: false };
      this.graph.put(node);
    } else if (node.virtual) {
      node.virtual = false;
      node.ref = refOf(obj);
    }
    node.owners = owners;
    for (const old of previous) {
      const now = owners.find((r) => r.uid === old.uid);
      const ownerNode = this.graph.get(old.uid);
      if (!now) ownerNode?.dependents.delete(uid);
      // A dependent that stopped blocking (or left) may let a foreground deletion finish.
      if (ownerNode?.deletingDependents && (!now || (old.blockOwnerDeletion && !now.blockOwnerDeletion))) this.deleteQueue?.add(old.uid);
    }
    for (const ref of owners) {
      const ownerDef = resourceForKind(this.d.scheme, ref.apiVersion, ref.kind);
      const { node: ownerNode, created } = this.graph.ownerNode(ref, obj.metadata.namespace ?? '', ownerDef?.namespaced ?? true);
      this.graph.addDependent(ownerNode, uid);
      if (created) this.deleteQueue?.add(ref.uid);
      if (ownerNode.deletingDependents) this.deleteQueue?.add(uid);
    }
    node.beingDeleted = Boolean(obj.metadata.deletionTimestamp);
    const wasDeletingDependents = node.deletingDependents;
    node.deletingDependents = node.beingDeleted && hasFinalizer(obj, FinalizerDeleteDependents);
    if (node.beingDeleted && hasFinalizer(obj, FinalizerOrphanDependents)) this.orphanQueue?.add(uid);
    if (node.deletingDependents) {
      if (!wasDeletingDependents) for (const dep of node.dependents) this.deleteQueue?.add(dep);
      this.deleteQueue?.add(uid);
    }
    if (checkOwners && owners.length > 0) this.deleteQueue?.add(uid);
  }

  private forget(obj: KubeObject): void {
    const uid = obj.metadata.uid;
    const node = uid ? this.graph.get(uid) : undefined;
    if (!node) return;
    this.graph.remove(node.ref.uid);
    for (const ref of node.owners) {
      const owner = this.graph.get(ref.uid);
      owner?.dependents.delete(node.ref.uid);
      if (owner?.deletingDependents) this.deleteQueue?.add(ref.uid);
    }
    for (const dep of node.dependents) this.deleteQueue?.add(dep);
  }

  // ---- work ----

  /** The client of the resource serving a kind, and the namespace its objects are addressed in. */
  private target(ref: ObjectRef): { rc: ResourceClient; namespace: string } | undefined {
    const def = resourceForKind(this.d.scheme, ref.apiVersion, ref.kind);
    return def ? { rc: this.client.resource(def.group, def.plural, def.version), namespace: def.namespaced ? ref.namespace : '' } : undefined;
  }

  /** The object as storage has it now, if it is still the one with this uid. */
  private async live(ref: ObjectRef): Promise<KubeObject | undefined> {
    const t = this.target(ref);
    if (!t) return undefined;
    try {
      const obj = await t.rc.get(t.namespace, ref.name);
      return obj.metadata.uid === ref.uid ? obj : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async attemptToDelete(uid: string): Promise<void> {
    const node = this.graph.get(uid);
    if (!node) return;
    if (node.virtual) {
      if (!resourceForKind(this.d.scheme, node.ref.apiVersion, node.ref.kind)) return;
      if (await this.live(node.ref)) return; // exists: its informer will introduce it
      // The owner is gone: its dependents are orphans of a deleted owner.
      this.graph.remove(uid);
      for (const dep of node.dependents) this.deleteQueue?.add(dep);
      return;
    }
    const latest = await this.live(node.ref);
    if (!latest) return;
    if (latest.metadata.deletionTimestamp) {
      if (hasFinalizer(latest, FinalizerDeleteDependents)) await this.processDeletingDependents(node);
      return;
    }
    const owners = latest.metadata.ownerReferences ?? [];
    if (owners.length === 0) return;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of owners) {
      const def = resourceForKind(this.d.scheme, ref.apiVersion, ref.kind);
      if (!def) { solid.push(ref); continue; } // unknown kinds are never taken as gone
      const owner = await this.live({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid,
        namespace: def.namespaced ? latest.metadata.namespace ?? '' : '' });
      if (!owner) dangling.push(ref);
      else if (owner.metadata.deletionTimestamp && hasFinalizer(owner, FinalizerDeleteDependents)) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length + waiting.length > 0) {
        const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
        await this.updateObject(node.ref, (o) => {
          o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => !drop.has(r.uid));
          if (o.metadata.ownerReferences.length === 0) delete o.metadata.ownerReferences;
        });
      }
      return;
    }
    if (waiting.length > 0 && node.dependents.size > 0) {
      const cycle = [...node.dependents].some((d) => this.graph.get(d)?.deletingDependents);
      if (cycle) {
        // Owners and dependents both waiting in the foreground: stop blocking to break the cycle.
        await this.updateObject(node.ref, (o) => {
          o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).map((r) => ({ ...r, blockOwnerDeletion: false }));
        });
      }
      await this.deleteObject(node.ref, 'Foreground');
      return;
    }
    const policy = hasFinalizer(latest, FinalizerOrphanDependents) ? 'Orphan'
      : hasFinalizer(latest, FinalizerDeleteDependents) ? 'Foreground' : 'Background';
    await this.deleteObject(node.ref, policy);
  }

  /** A foreground deletion finishes when no blocking dependent is left. */
  private async processDeletingDependents(node: GraphNode): Promise<void> {
    const blocking = this.graph.blockingDependents(node);
    if (blocking.length === 0) {
      await this.removeFinalizer(node.ref, FinalizerDeleteDependents);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.deleteQueue?.add(dep.ref.uid);
  }

  private async attemptToOrphan(uid: string): Promise<void> {
    const node = this.graph.get(uid);
    if (!node) return;
    for (const depUid of [...node.dependents]) {
      const dep = this.graph.get(depUid);
      if (!dep || dep.virtual) continue;
      await this.updateObject(dep.ref, (o) => {
        const refs = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (refs.length > 0) o.metadata.ownerReferences = refs;
        else delete o.metadata.ownerReferences;
      });
    }
    await this.removeFinalizer(node.ref, FinalizerOrphanDependents);
  }

  private async removeFinalizer(ref: ObjectRef, finalizer: string): Promise<void> {
    await this.updateObject(ref, (o) => {
      const rest = (o.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      if (rest.length > 0) o.metadata.finalizers = rest;
      else delete o.metadata.finalizers;
    });
  }

  /** Changes the object with this uid; one that is gone (or was replaced) is left alone. */
  private async updateObject(ref: ObjectRef, change: (o: KubeObject) => void): Promise<void> {
    const t = this.target(ref);
    if (!t) return;
    try {
      await updateWithRetry(t.rc, t.namespace, ref.name, (current) => {
        if (current.metadata.uid !== ref.uid) throw new StatusError(404, 'NotFound', 'gone');
        change(current);
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async deleteObject(ref: ObjectRef, policy: 'Orphan' | 'Background' | 'Foreground'): Promise<void> {
    const t = this.target(ref);
    if (!t) return;
    try {
      await t.rc.delete(t.namespace, ref.name, { preconditions: { uid: ref.uid }, propagationPolicy: policy });
    } catch (err) {
      // Gone already, or replaced by a new object of the same name.
      if (isNotFound(err) || (err instanceof StatusError && err.code === 409)) return;
      throw err;
    }
  }
}

function refOf(obj: KubeObject): ObjectRef {
  return {
    apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '', namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '',
  };
}

function ownersChanged(obj: KubeObject, old: KubeObject): boolean {
  const now = obj.metadata.ownerReferences;
  const before = old.metadata.ownerReferences;
  // Most objects have none, before and after: no need to print two empty lists.
  if ((now === undefined || now.length === 0) && (before === undefined || before.length === 0)) return false;
  return JSON.stringify(now ?? []) !== JSON.stringify(before ?? []);
}

export function garbageCollector(d: ControllerContext): Controller {
  return new GarbageCollector(d);
}
