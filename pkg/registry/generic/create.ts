// The generic store's create path: mutating admission, a generated name retried on a
// collision, the strategy's preparation and validation, validating admission, the write.
import { randomUUID } from 'node:crypto';
import { deepCopy, type KubeObject } from '../../runtime/object.js';
import { StorageError } from '../../storage/interfaces.js';
import { generateName, nowTimestamp } from './names.js';
import type { RequestScope, StoreCore } from './store-interfaces.js';
import {
  admissionAttrs, assertValid, beginCreate, bindNamespace, collectWarnings, nothingToFinish, strategyContext,
} from './write-steps.js';

const maxGenerateNameAttempts = 8;

export async function createObject(store: StoreCore, namespace: string, body: KubeObject, scope: RequestScope): Promise<KubeObject> {
  const { def } = store;
  let obj = deepCopy(body);
  bindNamespace(def, obj, namespace);
  if (scope.fieldManager !== undefined && !scope.managedFieldsRecorded) {
    obj = store.fieldManager(scope.subresource ?? '').updateNoErrors(null, obj, scope.fieldManager);
  }
  await scope.admission.admit(admissionAttrs(def, 'CREATE', obj, undefined, scope));
  const useGenerateName = !obj.metadata.name && !!obj.metadata.generateName;
  for (let attempt = 0; ; attempt++) {
    // Only a generated name is retried (on a collision), from the object as admitted;
    // otherwise this is the one attempt and the object needs no copy.
    const candidate = useGenerateName ? deepCopy(obj) : obj;
    if (useGenerateName) candidate.metadata.name = generateName(candidate.metadata.generateName!);
    const prepared = await prepareCreate(store, candidate, scope);
    const begun = beginCreate(def, prepared, scope);
    const finish = begun instanceof Promise ? await begun : begun;
    if (scope.dryRun) {
      await finish(false);
      return store.decorate(prepared);
    }
    let written = false;
    try {
      const stored = await write(store, namespace, store.toStorage(prepared), scope);
      written = true;
      return store.decorate(stored);
    } catch (err) {
      const collided = err instanceof StorageError && err.code === 'KeyExists';
      if (collided && useGenerateName && attempt < maxGenerateNameAttempts) continue;
      throw store.mapError(err, prepared.metadata.name ?? '');
    } finally {
      if (finish !== nothingToFinish) await finish(written);
    }
  }
}

function write(store: StoreCore, namespace: string, obj: KubeObject, scope: RequestScope): Promise<KubeObject> {
  return store.storage.create(store.key(namespace, obj.metadata.name!), obj,
    scope.coalesceCreates ? { ...store.writeOptions, coalesce: true } : store.writeOptions);
}

/**
 * A create of an object made ahead as it would be stored (a start's bootstrap objects:
 * pkg/server/bootstrap-objects.ts, which may include what its creator writes next, such
 * as a status): only admission and the write run, no defaulting, validation or
 * managedFields. Its uid and creationTimestamp keys, if present, stay where they are
 * (their values are set); mutating admission sees it without them, as it sees a create
 * before prepareCreate. Undefined, with nothing written, when mutating admission changed
 * it (the caller then creates it the full way, admission again included) or when the
 * resource has a create hook or converts for storage.
 */
export async function createPrepared(store: StoreCore, namespace: string, obj: KubeObject, scope: RequestScope): Promise<KubeObject | undefined> {
  const { def } = store;
  if (def.hooks?.beginCreate || def.conversion || scope.dryRun) return undefined;
  const { uid: _uid, creationTimestamp: _created, ...meta } = obj.metadata;
  const admitted = { ...obj, metadata: meta };
  const before = JSON.stringify(admitted);
  await scope.admission.admit(admissionAttrs(def, 'CREATE', admitted, undefined, scope));
  if (JSON.stringify(admitted) !== before) return undefined;
  obj.metadata.uid = randomUUID();
  obj.metadata.creationTimestamp = nowTimestamp();
  await scope.admission.validate(admissionAttrs(def, 'CREATE', obj, undefined, scope));
  try {
    return store.decorate(await write(store, namespace, obj, scope));
  } catch (err) {
    throw store.mapError(err, obj.metadata.name ?? '');
  }
}

/** Everything a create does after mutating admission, except persisting. */
export async function prepareCreate(store: StoreCore, obj: KubeObject, scope: RequestScope): Promise<KubeObject> {
  const { def } = store;
  const meta = obj.metadata;
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  const sctx = strategyContext(scope, meta.namespace);
  def.strategy.prepareForCreate(obj, sctx);
  assertValid(def, obj, def.strategy.validate(obj, sctx));
  collectWarnings(def, scope, obj);
  def.strategy.canonicalize(obj);
  await scope.admission.validate(admissionAttrs(def, 'CREATE', obj, undefined, scope));
  return obj;
}
