// The one generic registry Store. Every persisted resource is served by an instance of
// this class; what differs between resources lives in its ResourceDef and Strategy.
// Registry operations are storage transactions; admission is called at upstream's
// points (mutating before validation, validating after it).
import { randomUUID } from 'node:crypto';
import type { Admission, AdmissionAttributes, Operation } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import { errors, StatusError, type FieldError } from '../../runtime/errors.js';
import type { KubeList, KubeObject } from '../../runtime/object.js';
import { apiVersionOf, storageSegment, type ResourceDef } from '../../runtime/scheme.js';
import {
  StorageError, type ListOptions, type Preconditions, type ResourceVersionMatch, type Storage, type WatchStream,
} from '../../storage/interfaces.js';
import type { StrategyContext } from './strategy.js';
import { generateName, nowTimestamp } from './names.js';
import { isFiltering, matcherFor, type SelectionPredicate } from './predicate.js';
import { toStatusError } from './storage-errors.js';

export interface RequestScope {
  user: UserInfo;
  dryRun: boolean;
  admission: Admission;
  subresource?: string;
}

export interface ListParams extends SelectionPredicate {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
}

export interface DeleteOptions {
  preconditions?: Preconditions;
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
}

/** Computes the desired object from the current one (null when it does not exist). */
export type UpdatedObjectInfo = (current: KubeObject | null) => Promise<KubeObject>;

export interface UpdateResult { object: KubeObject; created: boolean }
export interface DeleteResult { object: KubeObject; deleted: boolean }

const maxGenerateNameAttempts = 8;

export class GenericStore {
  readonly keyRoot: string;

  constructor(readonly def: ResourceDef, private readonly storage: Storage, prefix: string) {
    this.keyRoot = `${prefix.replace(/\/+$/, '')}/${storageSegment(def)}`;
  }

  get groupResource() {
    return { group: this.def.group, resource: this.def.plural };
  }

  key(namespace: string, name: string): string {
    return this.def.namespaced ? `${this.keyRoot}/${namespace}/${name}` : `${this.keyRoot}/${name}`;
  }

  /** Prefix for lists and watches: one namespace, or every namespace when empty. */
  collectionKey(namespace: string): string {
    return this.def.namespaced && namespace ? `${this.keyRoot}/${namespace}/` : `${this.keyRoot}/`;
  }

  // ---- reads ----

  async get(namespace: string, name: string, resourceVersion?: string): Promise<KubeObject> {
    try {
      return this.decorate(await this.storage.get(this.key(namespace, name), { resourceVersion }));
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  async list(namespace: string, params: ListParams): Promise<KubeList> {
    const opts: ListOptions = {
      limit: params.limit, continue: params.continue, resourceVersion: params.resourceVersion,
      resourceVersionMatch: params.resourceVersionMatch, filtered: isFiltering(params),
    };
    const matches = matcherFor(this.def, params);
    opts.predicate = (obj) => matches(this.fromStorage(obj));
    try {
      const res = await this.storage.list(this.collectionKey(namespace), opts);
      const list: KubeList = {
        apiVersion: apiVersionOf(this.def.group, this.def.version),
        kind: `${this.def.kind}List`,
        metadata: { resourceVersion: res.resourceVersion },
        items: res.items.map((o) => this.decorate(o)),
      };
      if (res.continue) list.metadata.continue = res.continue;
      if (res.remainingItemCount !== undefined) list.metadata.remainingItemCount = res.remainingItemCount;
      return list;
    } catch (err) {
      throw this.mapError(err, '');
    }
  }

  async watch(namespace: string, name: string, resourceVersion: string | undefined,
    sendInitialEvents: boolean): Promise<WatchStream> {
    try {
      const key = name ? this.key(namespace, name) : this.collectionKey(namespace);
      return await this.storage.watch(key, { resourceVersion, sendInitialEvents, recursive: !name });
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  /** Converts a stored object to this endpoint's group/version and sets apiVersion/kind. */
  decorate(obj: KubeObject): KubeObject {
    const converted = this.fromStorage(obj);
    return { apiVersion: apiVersionOf(this.def.group, this.def.version), kind: this.def.kind, ...withoutTypeMeta(converted) };
  }

  // ---- writes ----

  async create(namespace: string, body: KubeObject, scope: RequestScope): Promise<KubeObject> {
    const obj = structuredClone(body);
    this.bindNamespace(obj, namespace);
    const useGenerateName = !obj.metadata.name && !!obj.metadata.generateName;
    for (let attempt = 0; ; attempt++) {
      if (useGenerateName) obj.metadata.name = generateName(obj.metadata.generateName!);
      const prepared = await this.prepareCreate(structuredClone(obj), scope);
      if (scope.dryRun) return this.decorate(prepared);
      try {
        const stored = await this.storage.create(this.key(namespace, prepared.metadata.name!), this.toStorage(prepared));
        return this.decorate(stored);
      } catch (err) {
        const collided = err instanceof StorageError && err.code === 'KeyExists';
        if (collided && useGenerateName && attempt < maxGenerateNameAttempts) continue;
        throw this.mapError(err, prepared.metadata.name ?? '');
      }
    }
  }

  /** Runs everything a create does except persisting: system fields, strategy, admission. */
  private async prepareCreate(obj: KubeObject, scope: RequestScope): Promise<KubeObject> {
    const meta = obj.metadata;
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    const sctx = this.strategyContext(scope, meta.namespace);
    this.def.strategy.prepareForCreate(obj, sctx);
    await scope.admission.admit(this.admissionAttrs('CREATE', obj, undefined, scope));
    this.assertValid(obj, this.def.strategy.validate(obj, sctx));
    this.def.strategy.canonicalize(obj);
    await scope.admission.validate(this.admissionAttrs('CREATE', obj, undefined, scope));
    return obj;
  }

  async update(namespace: string, name: string, objInfo: UpdatedObjectInfo, scope: RequestScope,
    forceAllowCreate = false): Promise<UpdateResult> {
    const key = this.key(namespace, name);
    const allowCreate = forceAllowCreate || this.def.strategy.allowCreateOnUpdate;
    const compute = async (stored: KubeObject | null): Promise<{ obj: KubeObject | null; created: boolean }> => {
      const current = stored ? this.decorate(stored) : null;
      const desired = structuredClone(await objInfo(current));
      desired.metadata ??= {};
      this.bindNamespace(desired, namespace);
      if (desired.metadata.name !== name) {
        throw errors.badRequest('the name of the object does not match the name on the URL');
      }
      if (!current) {
        if (!allowCreate) throw errors.notFound(this.groupResource, name);
        if (desired.metadata.resourceVersion) {
          // Upstream treats an rv on a missing object as a conflict with a deleted object.
          throw errors.conflict(this.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
        }
        return { obj: await this.prepareCreate(desired, scope), created: true };
      }
      const prepared = await this.prepareUpdate(desired, current, scope);
      if (sameContent(prepared, current)) return { obj: null, created: false };
      return { obj: prepared, created: false };
    };
    try {
      if (scope.dryRun) {
        const stored = await this.storage.get(key).catch((err) => {
          if (err instanceof StorageError && err.code === 'KeyNotFound') return null;
          throw err;
        });
        const res = await compute(stored);
        return { object: res.obj ? this.decorate(res.obj) : this.decorate(stored!), created: res.created };
      }
      let created = false;
      const res = await this.storage.guaranteedUpdate(key, undefined, async (stored) => {
        const exists = Boolean(stored.metadata?.uid);
        const r = await compute(exists ? stored : null);
        created = r.created;
        return r.obj ? this.toStorage(r.obj) : null;
      }, allowCreate);
      const object = this.decorate(res.object);
      if (object.metadata.deletionTimestamp && !(object.metadata.finalizers?.length)) {
        // The last finalizer is gone: finish the deletion that was waiting for it.
        await this.storage.delete(key, { resourceVersion: object.metadata.resourceVersion }).catch(() => undefined);
      }
      return { object, created: created || res.created };
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  private async prepareUpdate(obj: KubeObject, old: KubeObject, scope: RequestScope): Promise<KubeObject> {
    const meta = obj.metadata;
    const oldMeta = old.metadata;
    if (!meta.resourceVersion) {
      if (!this.def.strategy.allowUnconditionalUpdate) {
        throw errors.invalid(this.def.group, this.def.kind, meta.name ?? '', [{
          type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: 0, detail: 'must be specified for an update',
        }]);
      }
    } else if (meta.resourceVersion !== oldMeta.resourceVersion) {
      throw errors.conflict(this.groupResource, meta.name ?? '', 'the object has been modified; please apply your changes to the latest version and try again');
    }
    if (meta.uid && meta.uid !== oldMeta.uid) {
      throw errors.conflict(this.groupResource, meta.name ?? '',
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${oldMeta.uid}`);
    }
    meta.uid ??= oldMeta.uid;
    meta.creationTimestamp = oldMeta.creationTimestamp;
    meta.generation = oldMeta.generation;
    meta.resourceVersion = oldMeta.resourceVersion;
    if (oldMeta.deletionTimestamp) {
      meta.deletionTimestamp = oldMeta.deletionTimestamp;
      meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    } else {
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
    }
    const sctx = this.strategyContext(scope, meta.namespace);
    this.def.strategy.prepareForUpdate(obj, old, sctx);
    await scope.admission.admit(this.admissionAttrs('UPDATE', obj, old, scope));
    const fieldErrors = this.def.strategy.validateUpdate(obj, old, sctx);
    this.assertValid(obj, fieldErrors);
    this.def.strategy.canonicalize(obj);
    await scope.admission.validate(this.admissionAttrs('UPDATE', obj, old, scope));
    return obj;
  }

  async delete(namespace: string, name: string, options: DeleteOptions, scope: RequestScope): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    try {
      const current = this.decorate(await this.storage.get(key));
      checkPreconditions(this, current, options.preconditions);
      await scope.admission.validate(this.admissionAttrs('DELETE', undefined, current, scope));
      const finalizers = current.metadata.finalizers ?? [];
      if (finalizers.length > 0) {
        // Two-phase deletion: mark the object and let the finalizers' owners finish.
        if (current.metadata.deletionTimestamp) return { object: current, deleted: false };
        const marked = structuredClone(current);
        marked.metadata.deletionTimestamp = nowTimestamp();
        marked.metadata.deletionGracePeriodSeconds = 0;
        if (scope.dryRun) return { object: marked, deleted: false };
        const res = await this.storage.guaranteedUpdate(key, options.preconditions, async (stored) => {
          if (stored.metadata.deletionTimestamp) return null;
          const next = structuredClone(stored);
          next.metadata.deletionTimestamp = marked.metadata.deletionTimestamp;
          next.metadata.deletionGracePeriodSeconds = 0;
          return next;
        });
        return { object: this.decorate(res.object), deleted: false };
      }
      if (scope.dryRun) return { object: current, deleted: true };
      const deleted = await this.storage.delete(key, options.preconditions ?? { resourceVersion: current.metadata.resourceVersion });
      return { object: this.decorate(deleted), deleted: true };
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  async deleteCollection(namespace: string, params: ListParams, options: DeleteOptions, scope: RequestScope): Promise<KubeList> {
    const list = await this.list(namespace, params);
    const removed: KubeObject[] = [];
    for (const item of list.items) {
      try {
        const res = await this.delete(item.metadata.namespace ?? '', item.metadata.name ?? '', options, scope);
        removed.push(res.object);
      } catch (err) {
        // Objects deleted concurrently are simply gone; anything else stops the sweep.
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    return { ...list, items: removed };
  }

  // ---- helpers ----

  private bindNamespace(obj: KubeObject, namespace: string): void {
    obj.metadata ??= {};
    if (!this.def.namespaced) {
      // Cluster-scoped objects carry no namespace; upstream clears it silently.
      delete obj.metadata.namespace;
      return;
    }
    if (!obj.metadata.namespace) obj.metadata.namespace = namespace;
    else if (namespace && obj.metadata.namespace !== namespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
  }

  private strategyContext(scope: RequestScope, namespace?: string): StrategyContext {
    return { user: scope.user, namespace, subresource: scope.subresource };
  }

  private admissionAttrs(operation: Operation, obj: KubeObject | undefined, old: KubeObject | undefined,
    scope: RequestScope): AdmissionAttributes {
    const meta = (obj ?? old)!.metadata;
    return {
      operation, group: this.def.group, version: this.def.version, kind: this.def.kind, resource: this.def.plural,
      subresource: scope.subresource ?? '', namespace: meta.namespace ?? '', name: meta.name ?? '',
      object: obj, oldObject: old, user: scope.user, dryRun: scope.dryRun,
    };
  }

  private assertValid(obj: KubeObject, fieldErrors: FieldError[]): void {
    if (fieldErrors.length > 0) {
      throw errors.invalid(this.def.group, this.def.kind, obj.metadata.name ?? obj.metadata.generateName ?? '', fieldErrors);
    }
  }

  private toStorage(obj: KubeObject): KubeObject {
    return this.def.conversion ? this.def.conversion.toStorage(obj) : obj;
  }

  private fromStorage(obj: KubeObject): KubeObject {
    return this.def.conversion ? this.def.conversion.fromStorage(obj) : obj;
  }

  mapError(err: unknown, name: string): Error {
    return toStatusError(err, this.groupResource, name);
  }
}

function withoutTypeMeta(obj: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return rest as KubeObject;
}

function checkPreconditions(store: GenericStore, obj: KubeObject, p?: Preconditions): void {
  if (!p) return;
  const name = obj.metadata.name ?? '';
  if (p.uid && p.uid !== obj.metadata.uid) {
    throw errors.conflict(store.groupResource, name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  }
  if (p.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw errors.conflict(store.groupResource, name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}

/** An update that changes nothing is not written (upstream skips no-op writes). */
function sameContent(a: KubeObject, b: KubeObject): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && !Array.isArray(val)
    ? Object.fromEntries(Object.entries(val).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : val));
}
