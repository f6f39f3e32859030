// What callers hand the generic store and get back, and what its write paths (create.ts,
// update.ts, delete.ts) use of it: one seam, so the paths live beside the store, not in it.
import type { Admission } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import type { GroupResource } from '../../runtime/errors.js';
import type { KubeList, KubeObject } from '../../runtime/object.js';
import type { ResourceVersionMatch, Storage, WriteOptions } from '../../storage/interfaces.js';
import type { StoreDef } from './store-def.js';
import type { SelectionPredicate } from './predicate.js';
import type { FieldManager } from './managedfields/manager.js';

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
  /** A create may share its etcd transaction with others pending (storage WriteOptions.coalesce). */
  coalesceCreates?: boolean;
}

export interface ListParams extends SelectionPredicate {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
}

/**
 * Computes the desired object from the current one (null when it does not exist); a
 * value, not a promise, when it waits for nothing (an await is a microtask turn).
 * `ownsResult`: every call returns a new object that shares nothing with `current`, an
 * earlier result or anything the caller keeps, so the store changes it without copying it.
 */
export type UpdatedObjectInfo = ((current: KubeObject | null) => KubeObject | Promise<KubeObject>) & { readonly ownsResult?: boolean };

/** `compute` as an UpdatedObjectInfo whose results are the store's own (see ownsResult). */
export function ownedResults(compute: (current: KubeObject | null) => KubeObject | Promise<KubeObject>): UpdatedObjectInfo {
  return Object.assign(compute, { ownsResult: true });
}

export interface UpdateResult { object: KubeObject; created: boolean }
export interface DeleteResult { object: KubeObject; deleted: boolean }

/** The store as its write paths see it: declaration, storage, keys and conversions. */
export interface StoreCore {
  readonly def: StoreDef;
  readonly storage: Storage;
  /** Every write carries these; a TTL must ride on each put, or the key would lose its lease. */
  readonly writeOptions: WriteOptions;
  /** How many items of one DeleteCollection are deleted at a time (--delete-collection-workers). */
  readonly deleteCollectionWorkers: number;
  readonly groupResource: GroupResource;
  key(namespace: string, name: string): string;
  list(namespace: string, params: ListParams): Promise<KubeList>;
  /** A stored object as this endpoint serves it (converted, defaulted, typed). */
  decorate(obj: KubeObject): KubeObject;
  toStorage(obj: KubeObject): KubeObject;
  fieldManager(subresource?: string): FieldManager;
  mapError(err: unknown, name: string): Error;
}
