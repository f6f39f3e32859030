// The one generic registry Store. Every persisted resource is served by an instance of
// this class; what differs between resources lives in its ResourceDef and Strategy.
// Registry operations are storage transactions; admission is called at upstream's
// points (mutating before the strategy, validating after validation), ownership of
// fields is recorded on every write, and dry run runs everything but the storage write.
import { randomUUID } from 'node:crypto';
import type { Admission, AdmissionAttributes, Operation } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import { errors, StatusError, type FieldError } from '../../runtime/errors.js';
import type { KubeList, KubeObject } from '../../runtime/object.js';
import { GoLiteral } from '../../runtime/gofmt.js';
import { apiVersionOf, storageSegment, type ResourceDef } from '../../runtime/scheme.js';
import {
  StorageError, type ListOptions, type Preconditions, type ResourceVersionMatch, type Storage, type WriteOptions, type WatchStream,
} from '../../storage/interfaces.js';
import type { StrategyContext } from './strategy.js';
import type { FinishFunc } from './hooks.js';
import { generateName, nowTimestamp } from './names.js';
import { indexedFieldFor, isFiltering, matcherFor, objectFields, type SelectionPredicate } from './predicate.js';
import { toStatusError } from './storage-errors.js';
import {
  checkDeletePreconditions, finalizersForDeletion, markAsDeleting, shouldDeleteDuringUpdate, type DeleteOptions,
} from './deletion.js';
import { recordView } from '../../runtime/serializer/shared-encodings.js';
import { FieldManager } from './managedfields/manager.js';
import { field, type Path } from './managedfields/path.js';

export type { DeleteOptions } from './deletion.js';

export interface RequestScope {
  user: UserInfo;
  dryRun: boolean;
  admission: Admission;
  subresource?: string;
  /**
   * Who the write is recorded as in metadata.managedFields (an Update entry). Unset:
   * ownership is not tracked for this write.
   */
  fieldManager?: string;
  /** The desired object already carries its managedFields (server-side apply). */
  managedFieldsRecorded?: boolean;
  /** Collects warnings for the response (strategy and admission warnings). */
  warnings?: string[];
  /** Collects audit annotations (admission plugins and webhooks add them). */
  auditAnnotations?: Record<string, string>;
  /** The write options as the client sent them, for admission (webhooks receive them). */
  admissionOptions?: Record<string, unknown>;
}

export interface ListParams extends SelectionPredicate {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
}

/** Computes the desired object from the current one (null when it does not exist). */
export type UpdatedObjectInfo = (current: KubeObject | null) => Promise<KubeObject>;

export interface UpdateResult { object: KubeObject; created: boolean }
export interface DeleteResult { object: KubeObject; deleted: boolean }

const maxGenerateNameAttempts = 8;

/** What one pass of an update decided. */
type UpdatePlan =
  | { kind: 'write'; obj: KubeObject; created: boolean }
  | { kind: 'unchanged' }
  | { kind: 'delete'; obj: KubeObject; uid: string };

/** What one pass of a delete decided. */
type DeletePlan = { kind: 'mark'; obj: KubeObject } | { kind: 'keep'; obj: KubeObject } | { kind: 'deleteNow' };

/** Stored objects decorate() has already run through their resource's defaults. */
const defaulted = new WeakSet<object>();

export class GenericStore {
  readonly keyRoot: string;
  private readonly fieldManagers = new Map<string, FieldManager>();

  /** Every write carries these; a TTL must ride on each put, or the key would lose its lease. */
  private readonly writeOptions: WriteOptions;

  constructor(readonly def: ResourceDef, private readonly storage: Storage, prefix: string, opts: WriteOptions = {}) {
    this.keyRoot = `${prefix.replace(/\/+$/, '')}/${storageSegment(def)}`;
    this.writeOptions = opts;
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

  /** The field manager of this resource's endpoint (or one of its subresources). */
  fieldManager(subresource = ''): FieldManager {
    let fm = this.fieldManagers.get(subresource);
    if (!fm) {
      fm = new FieldManager({
        group: this.def.group, version: this.def.version, kind: this.def.kind, subresource,
        ignored: this.resetPaths(subresource), schema: this.def.customResource?.patchSchema,
      });
      this.fieldManagers.set(subresource, fm);
    }
    return fm;
  }

  private resetPaths(subresource: string): Path[] {
    const declared = this.def.strategy.resetFields?.(subresource);
    if (declared) return declared.map((p) => p.map(field));
    const hasStatus = this.def.subresources?.some((s) => s.name === 'status' && s.kind === this.def.kind);
    if (!hasStatus) return [];
    if (subresource === '') return [[field('status')]];
    if (subresource === 'status') return [[field('spec')]];
    return [];
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
      index: this.indexedField(params),
    };
    const matches = matcherFor(this.def, params);
    opts.predicate = (obj) => matches(this.fromStorage(obj));
    try {
      const res = await this.storage.list(this.collectionKey(namespace), opts);
      const list: KubeList = {
        apiVersion: apiVersionOf(this.def.group, this.def.version),
        kind: this.def.listKind ?? `${this.def.kind}List`,
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

  /**
   * `selection`: what the caller will filter the events by; a field it pins to one value
   * lets the watch cache send only the events of objects that have or had that value.
   */
  async watch(namespace: string, name: string, resourceVersion: string | undefined,
    sendInitialEvents: boolean, selection?: SelectionPredicate): Promise<WatchStream> {
    try {
      const key = name ? this.key(namespace, name) : this.collectionKey(namespace);
      const trigger = !name && selection ? this.indexedField(selection) : undefined;
      return await this.storage.watch(key, { resourceVersion, sendInitialEvents, recursive: !name, trigger });
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  private indexedField(p: SelectionPredicate) {
    return indexedFieldFor(this.def, p, (field) => (obj) => objectFields(this.def, this.fromStorage(obj))[field] ?? '');
  }

  /** Converts a stored object to this endpoint's group/version and sets apiVersion/kind. */
  decorate(obj: KubeObject): KubeObject {
    const converted = this.fromStorage(obj);
    // Upstream decodes stored objects through its defaulting functions, so an object
    // written by another server (or an older version) reads with today's defaults.
    // Defaults are idempotent: on an object written here they change nothing. An object
    // the watch cache shares is defaulted once, not once per watcher and per read.
    if (!defaulted.has(converted)) {
      this.def.strategy.applyDefaults(converted);
      defaulted.add(converted);
    }
    const view = { apiVersion: apiVersionOf(this.def.group, this.def.version), kind: this.def.kind, ...withoutTypeMeta(converted) };
    recordView(view, converted);
    return view;
  }

  // ---- writes ----

  async create(namespace: string, body: KubeObject, scope: RequestScope): Promise<KubeObject> {
    let obj = structuredClone(body);
    this.bindNamespace(obj, namespace);
    if (scope.fieldManager !== undefined && !scope.managedFieldsRecorded) {
      obj = this.fieldManager(scope.subresource ?? '').update(null, obj, scope.fieldManager);
    }
    await scope.admission.admit(this.admissionAttrs('CREATE', obj, undefined, scope));
    const useGenerateName = !obj.metadata.name && !!obj.metadata.generateName;
    for (let attempt = 0; ; attempt++) {
      // Only a generated name is retried (on a collision), from the object as admitted;
      // otherwise this is the one attempt and the object needs no copy.
      const candidate = useGenerateName ? structuredClone(obj) : obj;
      if (useGenerateName) candidate.metadata.name = generateName(candidate.metadata.generateName!);
      const prepared = await this.prepareCreate(candidate, scope);
      const finish = await this.beginCreate(prepared, scope);
      if (scope.dryRun) {
        await finish(false);
        return this.decorate(prepared);
      }
      let written = false;
      try {
        const stored = await this.storage.create(this.key(namespace, prepared.metadata.name!), this.toStorage(prepared), this.writeOptions);
        written = true;
        return this.decorate(stored);
      } catch (err) {
        const collided = err instanceof StorageError && err.code === 'KeyExists';
        if (collided && useGenerateName && attempt < maxGenerateNameAttempts) continue;
        throw this.mapError(err, prepared.metadata.name ?? '');
      } finally {
        await finish(written);
      }
    }
  }

  /** Everything a create does after mutating admission, except persisting. */
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
    this.assertValid(obj, this.def.strategy.validate(obj, sctx));
    this.collectWarnings(scope, obj);
    this.def.strategy.canonicalize(obj);
    await scope.admission.validate(this.admissionAttrs('CREATE', obj, undefined, scope));
    return obj;
  }

  async update(namespace: string, name: string, objInfo: UpdatedObjectInfo, scope: RequestScope,
    forceAllowCreate = false): Promise<UpdateResult> {
    const key = this.key(namespace, name);
    const allowCreate = forceAllowCreate || this.def.strategy.allowCreateOnUpdate;
    // The write hooks' work for the latest pass; a retried pass undoes the previous one's.
    let pending: FinishFunc | undefined;
    const settle = async (success: boolean): Promise<void> => {
      const f = pending;
      pending = undefined;
      await f?.(success);
    };
    const plan = async (stored: KubeObject | null): Promise<UpdatePlan> => {
      await settle(false);
      const current = stored ? this.decorate(stored) : null;
      let desired = structuredClone(await objInfo(current));
      desired.metadata ??= {};
      this.bindNamespace(desired, namespace);
      if (desired.metadata.name !== name) {
        throw errors.badRequest('the name of the object does not match the name on the URL');
      }
      if (scope.fieldManager !== undefined && !scope.managedFieldsRecorded) {
        desired = this.fieldManager(scope.subresource ?? '').update(current, desired, scope.fieldManager);
      }
      if (!current) {
        if (!allowCreate) throw errors.notFound(this.groupResource, name);
        if (desired.metadata.resourceVersion) {
          // Upstream treats an rv on a missing object as a conflict with a deleted object.
          throw errors.conflict(this.groupResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
        }
        await scope.admission.admit(this.admissionAttrs('CREATE', desired, undefined, scope));
        const created = await this.prepareCreate(desired, scope);
        pending = await this.beginCreate(created, scope);
        return { kind: 'write', obj: created, created: true };
      }
      const prepared = await this.prepareUpdate(desired, current, scope);
      if (shouldDeleteDuringUpdate(prepared, current) && !this.def.strategy.finalization?.pending(prepared)) {
        return { kind: 'delete', obj: prepared, uid: current.metadata.uid ?? '' };
      }
      const beginUpdate = this.def.hooks?.beginUpdate;
      if (beginUpdate && !scope.subresource) pending = await beginUpdate(prepared, current, scope.dryRun);
      if (sameContent(prepared, current)) return { kind: 'unchanged' };
      return { kind: 'write', obj: prepared, created: false };
    };
    try {
      if (scope.dryRun) {
        const stored = await this.storage.get(key).catch((err) => {
          if (err instanceof StorageError && err.code === 'KeyNotFound') return null;
          throw err;
        });
        const p = await plan(stored);
        await settle(false);
        if (p.kind === 'unchanged') return { object: this.decorate(stored!), created: false };
        return { object: this.decorate(p.obj), created: p.kind === 'write' && p.created };
      }
      let decided: UpdatePlan = { kind: 'unchanged' };
      const res = await this.storage.guaranteedUpdate(key, undefined, async (stored) => {
        const exists = Boolean(stored.metadata?.uid);
        decided = await plan(exists ? stored : null);
        return decided.kind === 'write' ? this.toStorage(decided.obj) : null;
      }, allowCreate, this.writeOptions);
      const final = decided as UpdatePlan;
      await settle(final.kind === 'write');
      if (final.kind === 'delete') {
        // The update emptied the finalizers of a terminating object: it is removed
        // instead, and the client gets the object of its update.
        const gone = await this.storage.delete(key, { uid: final.uid }).catch((err) => {
          if (!(err instanceof StorageError && err.code === 'KeyNotFound')) throw err;
          return undefined;
        });
        if (gone) await this.def.hooks?.afterDelete?.(this.decorate(gone));
        return { object: this.decorate(final.obj), created: false };
      }
      return { object: this.decorate(res.object), created: final.kind === 'write' && final.created };
    } catch (err) {
      await settle(false);
      throw this.mapError(err, name);
    }
  }

  private async prepareUpdate(obj: KubeObject, old: KubeObject, scope: RequestScope): Promise<KubeObject> {
    const meta = obj.metadata;
    const oldMeta = old.metadata;
    if (!meta.resourceVersion) {
      if (!this.def.strategy.allowUnconditionalUpdate) {
        // Upstream names the resource (not the kind) here and prints the uint64 zero as %#v does.
        throw errors.invalid(this.def.group, this.def.plural, meta.name ?? '', [{
          type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: new GoLiteral('0x0'), detail: 'must be specified for an update',
        }]);
      }
    } else if (meta.resourceVersion !== oldMeta.resourceVersion) {
      throw errors.conflict(this.groupResource, meta.name ?? '', 'the object has been modified; please apply your changes to the latest version and try again');
    }
    if (meta.uid && meta.uid !== oldMeta.uid) {
      throw errors.conflict(this.groupResource, meta.name ?? '',
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${oldMeta.uid}`);
    }
    await scope.admission.admit(this.admissionAttrs('UPDATE', obj, old, scope));
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
    const sctx = this.strategyContext(scope, meta.namespace);
    this.def.strategy.prepareForUpdate(obj, old, sctx);
    this.assertValid(obj, this.def.strategy.validateUpdate(obj, old, sctx));
    this.collectWarnings(scope, obj, old);
    this.def.strategy.canonicalize(obj);
    await scope.admission.validate(this.admissionAttrs('UPDATE', obj, old, scope));
    return obj;
  }

  async delete(namespace: string, name: string, options: DeleteOptions, scope: RequestScope): Promise<DeleteResult> {
    this.def.strategy.checkDelete?.(namespace, name);
    const key = this.key(namespace, name);
    try {
      const current = this.decorate(await this.storage.get(key));
      const grace = this.def.strategy.gracePeriod?.(current, options.gracePeriodSeconds) ?? 0;
      if (grace > 0) return await this.beginGracefulDeletion(key, current, grace, options, scope);
      const finalization = this.def.strategy.finalization;
      if (finalization) {
        const res = await this.beginFinalizedDeletion(key, current, options, scope);
        if (res) return res;
      } else {
        checkDeletePreconditions(this.def, current, options.preconditions);
      }
      const admitDelete = async (existing: KubeObject): Promise<void> => {
        const attrs = this.admissionAttrs('DELETE', undefined, existing, scope);
        await scope.admission.admit(attrs);
        await scope.admission.validate(attrs);
      };
      const pendingFinalizers = (current.metadata.finalizers ?? []).length > 0;
      if (pendingFinalizers || finalizersForDeletion(current.metadata.finalizers, options)) {
        // Two-phase deletion: mark the object and let the finalizers' owners finish.
        const plan = async (existing: KubeObject): Promise<DeletePlan> => {
          await admitDelete(existing);
          const next = structuredClone(existing);
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
        const res = await this.storage.guaranteedUpdate(key, options.preconditions, async (stored) => {
          decided = await plan(this.decorate(stored));
          return decided.kind === 'mark' ? this.toStorage(decided.obj) : null;
        }, false, this.writeOptions);
        if ((decided as DeletePlan).kind !== 'deleteNow') return { object: this.decorate(res.object), deleted: false };
      }
      if (scope.dryRun) {
        await admitDelete(current);
        return { object: current, deleted: true };
      }
      const deleted = this.decorate(await this.storage.delete(key, options.preconditions,
        async (existing) => admitDelete(this.decorate(existing))));
      await this.def.hooks?.afterDelete?.(deleted);
      return { object: deleted, deleted: true };
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  /**
   * Graceful deletion (pods on a node): mark with deletionTimestamp = now + grace and
   * keep; a later delete with a shorter grace shortens it, with 0 removes the object.
   */
  private async beginGracefulDeletion(key: string, current: KubeObject, grace: number, options: DeleteOptions,
    scope: RequestScope): Promise<DeleteResult> {
    checkDeletePreconditions(this.def, current, options.preconditions);
    const m = current.metadata;
    if (m.deletionTimestamp && m.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds <= grace) {
      return { object: current, deleted: false };
    }
    const mark = async (existing: KubeObject): Promise<KubeObject> => {
      const attrs = this.admissionAttrs('DELETE', undefined, existing, scope);
      await scope.admission.admit(attrs);
      await scope.admission.validate(attrs);
      const next = structuredClone(existing);
      const finalizers = finalizersForDeletion(next.metadata.finalizers, options);
      if (finalizers) next.metadata.finalizers = finalizers;
      if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
      if ((next.metadata.generation ?? 0) > 0) next.metadata.generation = (next.metadata.generation ?? 0) + 1;
      next.metadata.deletionTimestamp = new Date(Math.floor(Date.now() / 1000) * 1000 + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      next.metadata.deletionGracePeriodSeconds = grace;
      return next;
    };
    if (scope.dryRun) return { object: await mark(current), deleted: false };
    const res = await this.storage.guaranteedUpdate(key, options.preconditions,
      async (stored) => this.toStorage(await mark(this.decorate(stored))), false, this.writeOptions);
    return { object: this.decorate(res.object), deleted: false };
  }

  /**
   * The first phase for kinds whose deletion waits on the strategy (Namespace): mark
   * and keep on the first request, keep while pending. Undefined: delete generically.
   */
  private async beginFinalizedDeletion(key: string, current: KubeObject, options: DeleteOptions,
    scope: RequestScope): Promise<DeleteResult | undefined> {
    const finalization = this.def.strategy.finalization!;
    const p = options.preconditions;
    const name = current.metadata.name ?? '';
    if (p?.uid && p.uid !== current.metadata.uid) {
      throw errors.conflict(this.groupResource, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
    }
    if (p?.resourceVersion && p.resourceVersion !== current.metadata.resourceVersion) {
      throw errors.conflict(this.groupResource, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
    }
    if (current.metadata.deletionTimestamp) {
      return finalization.pending(current) ? { object: current, deleted: false } : undefined;
    }
    const mark = async (existing: KubeObject): Promise<KubeObject> => {
      const attrs = this.admissionAttrs('DELETE', undefined, existing, scope);
      await scope.admission.admit(attrs);
      await scope.admission.validate(attrs);
      const next = structuredClone(existing);
      next.metadata.deletionTimestamp ??= nowTimestamp();
      finalization.beginDeletion(next);
      const finalizers = finalizersForDeletion(next.metadata.finalizers, options);
      if (finalizers) next.metadata.finalizers = finalizers;
      if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
      return next;
    };
    if (scope.dryRun) return { object: await mark(current), deleted: false };
    const res = await this.storage.guaranteedUpdate(key, { uid: current.metadata.uid, resourceVersion: p?.resourceVersion },
      async (stored) => this.toStorage(await mark(this.decorate(stored))), false, this.writeOptions);
    return { object: this.decorate(res.object), deleted: false };
  }

  /**
   * Deletes what a list selects, page by page. With a limit, one page is deleted and
   * returned with its continue token; without, everything, returned as one list.
   */
  async deleteCollection(namespace: string, params: ListParams, options: DeleteOptions, scope: RequestScope): Promise<KubeList> {
    const pageSize = 500;
    const hasLimit = (params.limit ?? 0) > 0;
    let query: ListParams = { ...params, limit: hasLimit ? params.limit : pageSize };
    let first: KubeList | undefined;
    const items: KubeObject[] = [];
    for (;;) {
      const page = await this.list(namespace, query);
      for (const item of page.items) {
        try {
          await this.delete(item.metadata.namespace ?? '', item.metadata.name ?? '', structuredClone(options), scope);
        } catch (err) {
          // Objects deleted concurrently are simply gone; anything else stops the sweep.
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        }
      }
      if (hasLimit) return page;
      first ??= page;
      items.push(...page.items);
      if (!page.metadata.continue) break;
      query = { ...params, limit: pageSize, continue: page.metadata.continue, resourceVersion: undefined, resourceVersionMatch: undefined };
    }
    return { ...first, metadata: { resourceVersion: first.metadata.resourceVersion }, items };
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

  /** The create hook's work for this object, or nothing to finish. */
  private async beginCreate(obj: KubeObject, scope: RequestScope): Promise<FinishFunc> {
    const begin = this.def.hooks?.beginCreate;
    if (!begin || scope.subresource) return async () => undefined;
    return begin(obj, scope.dryRun);
  }

  private strategyContext(scope: RequestScope, namespace?: string): StrategyContext {
    return { user: scope.user, namespace, subresource: scope.subresource };
  }

  private collectWarnings(scope: RequestScope, obj: KubeObject, old?: KubeObject): void {
    if (!scope.warnings || !this.def.strategy.warnings) return;
    scope.warnings.push(...this.def.strategy.warnings(obj, old));
  }

  private admissionAttrs(operation: Operation, obj: KubeObject | undefined, old: KubeObject | undefined,
    scope: RequestScope): AdmissionAttributes {
    const meta = (obj ?? old)!.metadata;
    return {
      operation, group: this.def.group, version: this.def.version, kind: this.def.kind, resource: this.def.plural,
      subresource: scope.subresource ?? '', namespace: meta.namespace ?? '', name: meta.name ?? '',
      object: obj, oldObject: old, user: scope.user, dryRun: scope.dryRun,
      warnings: scope.warnings, auditAnnotations: scope.auditAnnotations, options: scope.admissionOptions,
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

/** An update that changes nothing is not written (upstream skips no-op writes). */
function sameContent(a: KubeObject, b: KubeObject): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && !Array.isArray(val)
    ? Object.fromEntries(Object.entries(val).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : val));
}

export type { Preconditions };
