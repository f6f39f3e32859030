// The one generic registry Store. Every persisted resource is served by an instance of
// this class; what differs between resources lives in its StoreDef and Strategy.
// Registry operations are storage transactions; admission is called at upstream's
// points (mutating before the strategy, validating after validation), ownership of
// fields is recorded on every write, and dry run runs everything but the storage write.
import type { KubeList, KubeObject } from '../../runtime/object.js';
import { apiVersionOf, storageSegment } from '../../runtime/scheme.js';
import type { ListOptions, ListResult, Preconditions, Storage, WriteOptions, WatchStream } from '../../storage/interfaces.js';
import type { DeleteOptions } from './deletion.js';
import { indexedFieldFor, isFiltering, matcherFor, objectFields, type SelectionPredicate } from './predicate.js';
import { toStatusError } from './storage-errors.js';
import { forgetEncodings, isShared, recordView } from '../../runtime/serializer/shared-encodings.js';
import { FieldManager } from './managedfields/manager.js';
import { field, type Path } from './managedfields/path.js';
import type {
  DeleteResult, ListParams, RequestScope, StoreCore, UpdatedObjectInfo, UpdateResult,
} from './store-interfaces.js';
import type { StoreDef } from './store-def.js';
import { createObject } from './create.js';
import { updateObject } from './update.js';
import { deleteCollection, deleteObject } from './delete.js';

export type { DeleteOptions } from './deletion.js';
export type { StoreDef } from './store-def.js';
export type {
  DeleteResult, ListParams, RequestScope, UpdatedObjectInfo, UpdateResult,
} from './store-interfaces.js';

/**
 * Shared stored objects decorate() has run through a resource's defaults, each with the
 * strategy that applied them: a custom resource declared anew (its CRD changed) has a new
 * strategy, whose defaults the objects cached before it must get as well, as upstream's
 * storage rebuilt for the new schema decodes them with.
 */
const defaultedBy = new WeakMap<object, object>();

export class GenericStore implements StoreCore {
  readonly keyRoot: string;
  private readonly fieldManagers = new Map<string, FieldManager>();

  /** Every write carries these; a TTL must ride on each put, or the key would lose its lease. */
  readonly writeOptions: WriteOptions;

  /** `deleteCollectionWorkers`: items of one DeleteCollection deleted in parallel (--delete-collection-workers). */
  constructor(readonly def: StoreDef, readonly storage: Storage, prefix: string, opts: WriteOptions = {}, readonly deleteCollectionWorkers = 1) {
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

  /** `readOnly`: the caller never changes the object (GetOptions.readOnly), a GET's answer. */
  async get(namespace: string, name: string, resourceVersion?: string, readOnly = false): Promise<KubeObject> {
    try {
      return this.decorate(await this.storage.get(this.key(namespace, name), readOnly ? { resourceVersion, readOnly } : { resourceVersion }));
    } catch (err) {
      throw this.mapError(err, name);
    }
  }

  async list(namespace: string, params: ListParams): Promise<KubeList> {
    const { list, confirmed } = await this.listPending(namespace, params);
    await confirmed;
    return list;
  }

  /**
   * list(), but the list may still wait for etcd's word on it (a continue page from the
   * watch cache waits for the compaction check, a first page for the freshness probe): the
   * caller may encode it meanwhile, and must await `confirmed` before answering with it,
   * answering its error instead. `confirmed` resolves true when etcd's word changed the
   * list (refilled in place): what was encoded of it is then stale.
   */
  async listPending(namespace: string, params: ListParams): Promise<{ list: KubeList; confirmed?: Promise<boolean> }> {
    const opts = this.listOptions(params);
    try {
      const res = await this.storage.list(this.collectionKey(namespace), opts);
      const list = this.toList(res);
      const confirmed = res.confirmed?.then(async (other) => {
        if (!other) return false;
        await other.confirmed;
        const next = this.toList(other);
        list.metadata = next.metadata;
        list.items = next.items;
        return true;
      }).catch((err: unknown) => { throw this.mapError(err, ''); });
      // Handled here too: a caller that fails before awaiting it leaves no unhandled rejection.
      confirmed?.catch(() => undefined);
      return { list, confirmed };
    } catch (err) {
      throw this.mapError(err, '');
    }
  }

  /**
   * The page `params.continue` names, read ahead from memory while the client reads the
   * page before (Storage.pageAhead), or undefined. `confirm()`, once the client asks for
   * it, settles as listPending's `confirmed` would.
   */
  async listAhead(namespace: string, params: ListParams): Promise<{ list: KubeList; confirm: () => Promise<void>; confirmAsks: () => boolean } | undefined> {
    const res = await this.storage.pageAhead?.(this.collectionKey(namespace), this.listOptions(params));
    if (!res) return undefined;
    return {
      list: this.toList(res),
      confirm: () => res.confirm().catch((err: unknown) => { throw this.mapError(err, ''); }),
      confirmAsks: () => res.confirmAsks(),
    };
  }

  private listOptions(params: ListParams): ListOptions {
    const matches = matcherFor(this.def, params);
    return {
      limit: params.limit, continue: params.continue, resourceVersion: params.resourceVersion,
      resourceVersionMatch: params.resourceVersionMatch, filtered: isFiltering(params),
      index: this.indexedField(params), deferConfirmation: true,
      predicate: (obj) => matches(this.fromStorage(obj)),
    };
  }

  private toList(res: ListResult): KubeList {
    const list: KubeList = {
      apiVersion: apiVersionOf(this.def.group, this.def.version),
      kind: this.def.listKind ?? `${this.def.kind}List`,
      metadata: { resourceVersion: res.resourceVersion },
      items: res.items.map((o) => this.decorate(o)),
    };
    if (res.continue) list.metadata.continue = res.continue;
    if (res.remainingItemCount !== undefined) list.metadata.remainingItemCount = res.remainingItemCount;
    return list;
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
    // the watch cache shares is defaulted once, not once per watcher and per read; any
    // other is this read's or write's own, decorated once.
    const strategy = this.def.strategy;
    if (!isShared(converted)) strategy.applyDefaults(converted);
    else if (defaultedBy.get(converted) !== strategy) {
      // Bytes encoded under another declaration's defaults may lack this one's.
      if (defaultedBy.has(converted)) forgetEncodings(converted);
      strategy.applyDefaults(converted);
      defaultedBy.set(converted, strategy);
    }
    // One copy: apiVersion and kind keep the first two places, whatever the object's own
    // (spread in after them) held is overwritten.
    const apiVersion = apiVersionOf(this.def.group, this.def.version);
    const view: KubeObject = { apiVersion, kind: this.def.kind, ...converted };
    view.apiVersion = apiVersion;
    view.kind = this.def.kind;
    recordView(view, converted);
    return view;
  }

  // ---- writes (each path in its own file) ----

  create(namespace: string, body: KubeObject, scope: RequestScope): Promise<KubeObject> {
    return createObject(this, namespace, body, scope);
  }

  update(namespace: string, name: string, objInfo: UpdatedObjectInfo, scope: RequestScope,
    forceAllowCreate = false): Promise<UpdateResult> {
    return updateObject(this, namespace, name, objInfo, scope, forceAllowCreate);
  }

  delete(namespace: string, name: string, options: DeleteOptions, scope: RequestScope): Promise<DeleteResult> {
    return deleteObject(this, namespace, name, options, scope);
  }

  deleteCollection(namespace: string, params: ListParams, options: DeleteOptions, scope: RequestScope): Promise<KubeList> {
    return deleteCollection(this, namespace, params, options, scope);
  }

  // ---- conversions ----

  toStorage(obj: KubeObject): KubeObject {
    return this.def.conversion ? this.def.conversion.toStorage(obj) : obj;
  }

  private fromStorage(obj: KubeObject): KubeObject {
    return this.def.conversion ? this.def.conversion.fromStorage(obj) : obj;
  }

  mapError(err: unknown, name: string): Error {
    return toStatusError(err, this.groupResource, name);
  }
}

export type { Preconditions };
