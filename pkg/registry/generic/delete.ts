// The generic store's delete paths: immediate, graceful (pods), finalized by the strategy
// (namespaces), two-phase while finalizers remain, and the collection sweep. The rules
// they apply (preconditions, which finalizers a propagation policy adds) are deletion.ts.
import { errors, StatusError } from '../../runtime/errors.js';
import { deepCopy, type KubeList, type KubeObject } from '../../runtime/object.js';
import {
  checkDeletePreconditions, finalizersForDeletion, markAsDeleting, type DeleteOptions,
} from './deletion.js';
import { nowTimestamp } from './names.js';
import type { DeleteResult, ListParams, RequestScope, StoreCore } from './store-interfaces.js';
import { admissionAttrs, sameContent } from './write-steps.js';

/** What one pass of a delete decided. */
type DeletePlan = { kind: 'mark'; obj: KubeObject } | { kind: 'keep'; obj: KubeObject } | { kind: 'deleteNow' };

export async function deleteObject(store: StoreCore, namespace: string, name: string, options: DeleteOptions,
  scope: RequestScope): Promise<DeleteResult> {
  const { def } = store;
  def.strategy.checkDelete?.(namespace, name);
  const key = store.key(namespace, name);
  try {
    // Outside a dry run `current` is only read (what a delete changes is a copy the
    // storage's update or delete makes), so the watch cache's copy serves as it is.
    const stored = await store.storage.get(key, { readOnly: !scope.dryRun });
    const current = store.decorate(stored);
    const grace = def.strategy.gracePeriod?.(current, options.gracePeriodSeconds) ?? 0;
    if (grace > 0) return await beginGracefulDeletion(store, key, current, grace, options, scope);
    const finalization = def.strategy.finalization;
    if (finalization) {
      const res = await beginFinalizedDeletion(store, key, current, options, scope);
      if (res) return res;
    } else {
      checkDeletePreconditions(def, current, options.preconditions);
    }
    const admitDelete = async (existing: KubeObject): Promise<void> => {
      const attrs = admissionAttrs(def, 'DELETE', undefined, existing, scope);
      await scope.admission.admit(attrs);
      await scope.admission.validate(attrs);
    };
    const pendingFinalizers = (current.metadata.finalizers ?? []).length > 0;
    if (pendingFinalizers || finalizersForDeletion(current.metadata.finalizers, options)) {
      // Two-phase deletion: mark the object and let the finalizers' owners finish.
      const plan = async (existing: KubeObject): Promise<DeletePlan> => {
        await admitDelete(existing);
        const next = deepCopy(existing);
        const finalizers = finalizersForDeletion(next.metadata.finalizers, options);
        if (finalizers) next.metadata.finalizers = finalizers;
        if ((next.metadata.finalizers ?? []).length === 0) return { kind: 'deleteNow' };
        markAsDeleting(next, nowTimestamp());
        return sameContent(next, existing) ? { kind: 'keep', obj: existing } : { kind: 'mark', obj: next };
      };
      if (scope.dryRun) {
        const p = await plan(current);
        if (p.kind !== 'deleteNow') return { object: p.obj, deleted: false };
        return { object: current, deleted: true };
      }
      let decided: DeletePlan = { kind: 'deleteNow' };
      const res = await store.storage.guaranteedUpdate(key, options.preconditions, async (stored) => {
        decided = await plan(store.decorate(stored));
        return decided.kind === 'mark' ? store.toStorage(decided.obj) : null;
      }, false, store.writeOptions);
      if ((decided as DeletePlan).kind !== 'deleteNow') return { object: store.decorate(res.object), deleted: false };
    }
    if (scope.dryRun) {
      await admitDelete(current);
      return { object: current, deleted: true };
    }
    // The object just read starts the delete, as a cached copy would: etcd's revision
    // check on the delete decides, and a failed check reads again. Without it the storage
    // read the same key a second time (the watch cache holds no copy of a resource nobody
    // lists or watches).
    const deleted = store.decorate(await store.storage.delete(key, options.preconditions,
      async (existing) => admitDelete(store.decorate(existing)), stored));
    await def.hooks?.afterDelete?.(deleted);
    return { object: deleted, deleted: true };
  } catch (err) {
    throw store.mapError(err, name);
  }
}

/**
 * Graceful deletion (pods on a node): mark with deletionTimestamp = now + grace and
 * keep; a later delete with a shorter grace shortens it, with 0 removes the object.
 */
async function beginGracefulDeletion(store: StoreCore, key: string, current: KubeObject, grace: number,
  options: DeleteOptions, scope: RequestScope): Promise<DeleteResult> {
  checkDeletePreconditions(store.def, current, options.preconditions);
  const m = current.metadata;
  if (m.deletionTimestamp && m.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds <= grace) {
    return { object: current, deleted: false };
  }
  const mark = async (existing: KubeObject): Promise<KubeObject> => {
    const attrs = admissionAttrs(store.def, 'DELETE', undefined, existing, scope);
    await scope.admission.admit(attrs);
    await scope.admission.validate(attrs);
    const next = deepCopy(existing);
    const finalizers = finalizersForDeletion(next.metadata.finalizers, options);
    if (finalizers) next.metadata.finalizers = finalizers;
    if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
    if ((next.metadata.generation ?? 0) > 0) next.metadata.generation = (next.metadata.generation ?? 0) + 1;
    next.metadata.deletionTimestamp = new Date(Math.floor(Date.now() / 1000) * 1000 + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    next.metadata.deletionGracePeriodSeconds = grace;
    return next;
  };
  if (scope.dryRun) return { object: await mark(current), deleted: false };
  const res = await store.storage.guaranteedUpdate(key, options.preconditions,
    async (stored) => store.toStorage(await mark(store.decorate(stored))), false, store.writeOptions);
  return { object: store.decorate(res.object), deleted: false };
}

/**
 * The first phase for kinds whose deletion waits on the strategy (Namespace): mark
 * and keep on the first request, keep while pending. Undefined: delete generically.
 */
async function beginFinalizedDeletion(store: StoreCore, key: string, current: KubeObject, options: DeleteOptions,
  scope: RequestScope): Promise<DeleteResult | undefined> {
  const finalization = store.def.strategy.finalization!;
  const p = options.preconditions;
  const name = current.metadata.name ?? '';
  if (p?.uid && p.uid !== current.metadata.uid) {
    throw errors.conflict(store.groupResource, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
  }
  if (p?.resourceVersion && p.resourceVersion !== current.metadata.resourceVersion) {
    throw errors.conflict(store.groupResource, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
  }
  if (current.metadata.deletionTimestamp) {
    return finalization.pending(current) ? { object: current, deleted: false } : undefined;
  }
  const mark = async (existing: KubeObject): Promise<KubeObject> => {
    const attrs = admissionAttrs(store.def, 'DELETE', undefined, existing, scope);
    await scope.admission.admit(attrs);
    await scope.admission.validate(attrs);
    const next = deepCopy(existing);
    next.metadata.deletionTimestamp ??= nowTimestamp();
    finalization.beginDeletion(next);
    const finalizers = finalizersForDeletion(next.metadata.finalizers, options);
    if (finalizers) next.metadata.finalizers = finalizers;
    if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
    return next;
  };
  if (scope.dryRun) return { object: await mark(current), deleted: false };
  const res = await store.storage.guaranteedUpdate(key, { uid: current.metadata.uid, resourceVersion: p?.resourceVersion },
    async (stored) => store.toStorage(await mark(store.decorate(stored))), false, store.writeOptions);
  return { object: store.decorate(res.object), deleted: false };
}

/**
 * Deletes what a list selects, page by page, each page's items by
 * store.deleteCollectionWorkers deletes at a time (upstream's workers). With a limit, one
 * page is deleted and returned with its continue token; without, everything, returned as
 * one list.
 */
export async function deleteCollection(store: StoreCore, namespace: string, params: ListParams, options: DeleteOptions,
  scope: RequestScope): Promise<KubeList> {
  const pageSize = 500;
  const hasLimit = (params.limit ?? 0) > 0;
  let query: ListParams = { ...params, limit: hasLimit ? params.limit : pageSize };
  let first: KubeList | undefined;
  const items: KubeObject[] = [];
  for (;;) {
    const page = await store.list(namespace, query);
    await inParallel(page.items, store.deleteCollectionWorkers, async (item) => {
      try {
        await deleteObject(store, item.metadata.namespace ?? '', item.metadata.name ?? '', deepCopy(options), scope);
      } catch (err) {
        // Objects deleted concurrently are simply gone; anything else stops the sweep.
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    });
    if (hasLimit) return page;
    first ??= page;
    items.push(...page.items);
    if (!page.metadata.continue) break;
    query = { ...params, limit: pageSize, continue: page.metadata.continue, resourceVersion: undefined, resourceVersionMatch: undefined };
  }
  return { ...first, metadata: { resourceVersion: first.metadata.resourceVersion }, items };
}

/**
 * Runs `work` on every item, `workers` at a time; the first failure stops the workers
 * from taking more items and is thrown once the running ones are done.
 */
async function inParallel<T>(items: T[], workers: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, worker));
  if (failure) throw failure.err;
}
