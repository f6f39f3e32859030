// The strategy seam: everything that makes one resource differ from another on the
// write path. The generic Store calls these hooks in upstream's order:
// create: prepareForCreate -> validate -> canonicalize; update: prepareForUpdate ->
// validateUpdate -> canonicalize.
import type { FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { UserInfo } from '../../authentication/user.js';

export interface StrategyContext {
  user?: UserInfo;
  namespace?: string;
  /** Set when the write comes through a subresource such as "status". */
  subresource?: string;
}

export interface Strategy {
  /** PUT of a missing object creates it (upstream: AllowCreateOnUpdate). */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is accepted (upstream: AllowUnconditionalUpdate). */
  allowUnconditionalUpdate: boolean;
  /** Clears fields the caller may not set on create (status, for resources with one). */
  prepareForCreate(obj: KubeObject, ctx: StrategyContext): void;
  /** Carries over fields the caller may not change on this endpoint. */
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  validate(obj: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /** Normalizes the stored form (e.g. sorts); no validation. */
  canonicalize(obj: KubeObject): void;
  /** Default values applied to every decoded body (upstream: defaulting funcs). */
  applyDefaults(obj: KubeObject): void;
  /** Warnings returned to the client on create/update. */
  warnings?(obj: KubeObject, old?: KubeObject): string[];
  /**
   * Fields this endpoint resets whatever the client sends (upstream: GetResetFields), as
   * paths; nobody writing through `subresource` ('' for the resource itself) owns them.
   * Without it, a kind with a status subresource resets status on the resource and spec
   * on status.
   */
  resetFields?(subresource: string): string[][];
  /**
   * Deletion that waits on more than metadata.finalizers (upstream: the namespace
   * registry's own Delete). The first delete request marks the object with
   * `beginDeletion` and keeps it; it goes once `pending` is false and no
   * metadata.finalizers remain (on a later delete, or the update that empties them).
   */
  finalization?: DeletionFinalization;
  /**
   * Graceful deletion (upstream: CheckGracefulDelete): the seconds a delete with these
   * options waits before the object goes; 0 or undefined deletes at once. While waiting
   * the object carries deletionTimestamp (now + grace) and deletionGracePeriodSeconds.
   */
  gracePeriod?(obj: KubeObject, requested: number | undefined): number;
  /**
   * Refuses the delete of one object by name before it is read (upstream: a registry's
   * own Delete, e.g. system PriorityClasses). Throws a StatusError to refuse.
   */
  checkDelete?(namespace: string, name: string): void;
}

export interface DeletionFinalization {
  beginDeletion(obj: KubeObject): void;
  pending(obj: KubeObject): boolean;
}
