// The generic store's update path: one plan per storage pass (create when allowed, no-op
// when nothing changed, delete when the update emptied a terminating object's finalizers),
// the write hooks' work undone for a retried pass, dry run planned but not written.
import { deepCopy, type KubeObject } from '../../runtime/object.js';
import { errors } from '../../runtime/errors.js';
import { GoLiteral } from '../../runtime/gofmt.js';
import { StorageError } from '../../storage/interfaces.js';
import type { FinishFunc } from './hooks.js';
import { onlyTimesDiffer, withTimesOf } from './managedfields/timestamps.js';
import { shouldDeleteDuringUpdate } from './deletion.js';
import { prepareCreate } from './create.js';
import type { RequestScope, StoreCore, UpdatedObjectInfo, UpdateResult } from './store-interfaces.js';
import {
  admissionAttrs, assertValid, beginCreate, bindNamespace, collectWarnings, sameContent, strategyContext,
} from './write-steps.js';

/** What one pass of an update decided. */
type UpdatePlan =
  | { kind: 'write'; obj: KubeObject; created: boolean }
  | { kind: 'unchanged' }
  | { kind: 'delete'; obj: KubeObject; uid: string };

export async function updateObject(store: StoreCore, namespace: string, name: string, objInfo: UpdatedObjectInfo,
  scope: RequestScope, forceAllowCreate = false): Promise<UpdateResult> {
  const { def } = store;
  const key = store.key(namespace, name);
  const allowCreate = forceAllowCreate || def.strategy.allowCreateOnUpdate;
  // The write hooks' work for the latest pass; a retried pass undoes the previous one's.
  let pending: FinishFunc | undefined;
  const settle = async (success: boolean): Promise<void> => {
    const f = pending;
    pending = undefined;
    await f?.(success);
  };
  let decided: UpdatePlan = { kind: 'unchanged' };
  /**
   * One pass over the stored object (null: none): its plan goes to `decided`, and what it
   * returns is what storage writes (null: nothing). It is storage's callback itself, and
   * admission (and objInfo's promise, if it returns one) is awaited here, not in async
   * layers of its own: each is a promise and a turn of the microtask queue per update.
   */
  const plan = async (stored: KubeObject | null): Promise<KubeObject | null> => {
    if (pending) await settle(false);
    const current = stored ? store.decorate(stored) : null;
    const computed = objInfo(current);
    const result = computed instanceof Promise ? await computed : computed;
    // A retried pass must start from what the caller computes, not from the last pass's changes.
    let desired = objInfo.ownsResult ? result : deepCopy(result);
    desired.metadata ??= {};
    bindNamespace(def, desired, namespace);
    if (desired.metadata.name !== name) {
      throw errors.badRequest('the name of the object does not match the name on the URL');
    }
    if (scope.fieldManager !== undefined && !scope.managedFieldsRecorded) {
      desired = store.fieldManager(scope.subresource ?? '').updateNoErrors(current, desired, scope.fieldManager);
    }
    if (!current) {
      if (!allowCreate) throw errors.notFound(store.groupResource, name);
      if (desired.metadata.resourceVersion) {
        // Upstream treats an rv on a missing object as a conflict with a deleted object.
        throw errors.conflict(store.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
      }
      await scope.admission.admit(admissionAttrs(def, 'CREATE', desired, undefined, scope));
      const created = await prepareCreate(store, desired, scope);
      pending = await beginCreate(def, created, scope);
      return decide({ kind: 'write', obj: created, created: true });
    }
    checkUpdatePreconditions(store, desired, current);
    await scope.admission.admit(admissionAttrs(def, 'UPDATE', desired, current, scope));
    keepTimesOfTimestampOnlyChange(desired, current, !def.customResource);
    const prepared = prepareAdmittedUpdate(store, desired, current, scope);
    await scope.admission.validate(admissionAttrs(def, 'UPDATE', prepared, current, scope));
    if (shouldDeleteDuringUpdate(prepared, current) && !def.strategy.finalization?.pending(prepared)) {
      return decide({ kind: 'delete', obj: prepared, uid: current.metadata.uid ?? '' });
    }
    const beginUpdate = def.hooks?.beginUpdate;
    if (beginUpdate && !scope.subresource) pending = await beginUpdate(prepared, current, scope.dryRun);
    return decide(sameContent(prepared, current) ? { kind: 'unchanged' } : { kind: 'write', obj: prepared, created: false });
  };
  const decide = (p: UpdatePlan): KubeObject | null => {
    decided = p;
    return p.kind === 'write' ? store.toStorage(p.obj) : null;
  };
  try {
    if (scope.dryRun) {
      const stored = await store.storage.get(key).catch((err) => {
        if (err instanceof StorageError && err.code === 'KeyNotFound') return null;
        throw err;
      });
      await plan(stored);
      const p = decided as UpdatePlan;
      await settle(false);
      if (p.kind === 'unchanged') return { object: store.decorate(stored!), created: false };
      return { object: store.decorate(p.obj), created: p.kind === 'write' && p.created };
    }
    const res = await store.storage.guaranteedUpdate(key, undefined,
      (stored) => plan(stored.metadata?.uid ? stored : null), allowCreate, store.writeOptions);
    const final = decided as UpdatePlan;
    if (pending) await settle(final.kind === 'write');
    if (final.kind === 'delete') {
      // The update emptied the finalizers of a terminating object: it is removed
      // instead, and the client gets the object of its update.
      const gone = await store.storage.delete(key, { uid: final.uid }).catch((err) => {
        if (!(err instanceof StorageError && err.code === 'KeyNotFound')) throw err;
        return undefined;
      });
      if (gone) await def.hooks?.afterDelete?.(store.decorate(gone));
      return { object: store.decorate(final.obj), created: false };
    }
    return { object: store.decorate(res.object), created: final.kind === 'write' && final.created };
  } catch (err) {
    await settle(false);
    throw store.mapError(err, name);
  }
}

/** The resourceVersion and uid the update names must be the stored object's. */
function checkUpdatePreconditions(store: StoreCore, obj: KubeObject, old: KubeObject): void {
  const { def } = store;
  const meta = obj.metadata;
  const oldMeta = old.metadata;
  if (!meta.resourceVersion) {
    if (!def.strategy.allowUnconditionalUpdate) {
      // Upstream names the resource (not the kind) here and prints the uint64 zero as %#v does.
      throw errors.invalid(def.group, def.plural, meta.name ?? '', [{
        type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: new GoLiteral('0x0'), detail: 'must be specified for an update',
      }]);
    }
  } else if (meta.resourceVersion !== oldMeta.resourceVersion) {
    throw errors.conflict(store.groupResource, meta.name ?? '', 'the object has been modified; please apply your changes to the latest version and try again');
  }
  if (meta.uid && meta.uid !== oldMeta.uid) {
    throw errors.conflict(store.groupResource, meta.name ?? '',
      `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${oldMeta.uid}`);
  }
}

/**
 * An update whose object, after the field manager and mutating admission, is the stored
 * one but for managedFields times (a value the client changed and a webhook set back, say)
 * keeps the stored times, so that it writes nothing: no new resourceVersion, no event.
 * Upstream's IgnoreManagedFieldsTimestampsTransformer, at the same point of the update.
 * `typed`: a built-in kind, which upstream compares as Go values, where a field sent as
 * null is the absent one (the field manager counts null over absent as a change and stamps
 * a new time, so a PUT of what was read, with a null, was written only in a later second).
 */
function keepTimesOfTimestampOnlyChange(desired: KubeObject, current: KubeObject, typed: boolean): void {
  const next = desired.metadata.managedFields;
  const old = current.metadata.managedFields;
  if (!onlyTimesDiffer(next, old)) return;
  // The rest is compared with the stored entries in place (the same entries, other times).
  desired.metadata.managedFields = old;
  desired.metadata.managedFields = sameContent(desired, current, typed) ? withTimesOf(next!, old!) : next;
}

/** What an update does between mutating and validating admission: system metadata, the strategy, validation. */
function prepareAdmittedUpdate(store: StoreCore, obj: KubeObject, old: KubeObject, scope: RequestScope): KubeObject {
  const { def } = store;
  const meta = obj.metadata;
  const oldMeta = old.metadata;
  meta.uid ??= oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  meta.generation = oldMeta.generation;
  if (meta.generation === undefined) delete meta.generation;
  meta.resourceVersion = oldMeta.resourceVersion;
  if (oldMeta.deletionTimestamp) {
    meta.deletionTimestamp = oldMeta.deletionTimestamp;
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    if (meta.deletionGracePeriodSeconds === undefined) delete meta.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  const sctx = strategyContext(scope, meta.namespace);
  def.strategy.prepareForUpdate(obj, old, sctx);
  assertValid(def, obj, def.strategy.validateUpdate(obj, old, sctx));
  collectWarnings(def, scope, obj, old);
  def.strategy.canonicalize(obj);
  return obj;
}
