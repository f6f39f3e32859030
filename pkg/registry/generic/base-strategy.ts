// The shared part of every resource's strategy: ObjectMeta rules for the declared scope
// and name format, metadata immutables, status-subresource separation and generation.
// A resource extends BaseStrategy and overrides the protected hooks for its own fields.
import type { FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { dedupe } from '../../apis/validation/field.js';
import { validatePathSegmentName, type NameValidator } from '../../apis/validation/names.js';
import { validateObjectMeta, validateObjectMetaChange } from '../../apis/validation/objectmeta.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { Strategy, StrategyContext } from './strategy.js';

export interface BaseStrategyOptions {
  namespaced: boolean;
  /** Format rule for metadata.name (and generateName). */
  nameValidator: NameValidator;
  /** PUT of a missing object creates it. Default false. */
  allowCreateOnUpdate?: boolean;
  /** PUT without resourceVersion is accepted. Default true. */
  allowUnconditionalUpdate?: boolean;
  /**
   * The kind has a `status` subresource: create drops client status, the main endpoint
   * keeps the stored status, and the status endpoint keeps everything else.
   */
  hasStatus?: boolean;
  /**
   * On the status endpoint, metadata other than labels and annotations comes from the
   * stored object. Default true; a kind whose upstream status endpoint lets all metadata
   * through (Namespace) sets false.
   */
  statusKeepsMetadata?: boolean;
  /** metadata.generation is 1 on create and grows when anything but metadata/status changes. */
  tracksGeneration?: boolean;
  /** Core-group finalizer rule (unqualified names must be standard). Default true. */
  standardFinalizers?: boolean;
  /**
   * Run ObjectMeta validation with nameValidator. Default true; kinds whose upstream
   * validation handles metadata itself (Event) set false.
   */
  validateMetadata?: boolean;
}

/** Top-level fields that are not the object's desired state. */
const nonSpecFields = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export class BaseStrategy implements Strategy {
  readonly allowCreateOnUpdate: boolean;
  readonly allowUnconditionalUpdate: boolean;

  constructor(protected readonly options: BaseStrategyOptions) {
    this.allowCreateOnUpdate = options.allowCreateOnUpdate ?? false;
    this.allowUnconditionalUpdate = options.allowUnconditionalUpdate ?? true;
  }

  prepareForCreate(obj: KubeObject, ctx: StrategyContext): void {
    if (this.options.hasStatus) delete obj.status;
    if (this.options.tracksGeneration) obj.metadata.generation = 1;
    this.prepareObjectForCreate(obj, ctx);
  }

  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    keepSystemMetadata(obj, old);
    if (this.options.hasStatus) {
      if (ctx.subresource === 'status') this.keepAllButStatus(obj, old);
      else if (!ctx.subresource) copyField(obj, old, 'status');
    }
    // Writes through scale change the spec too (upstream's scale REST updates the parent).
    const specEndpoint = !ctx.subresource || ctx.subresource === 'scale';
    if (this.options.tracksGeneration && specEndpoint && specChanged(obj, old)) {
      obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    }
    this.prepareObjectForUpdate(obj, old, ctx);
  }

  validate(obj: KubeObject, ctx: StrategyContext): FieldError[] {
    const errs = [...this.metadataErrors(obj), ...this.validateObject(obj, ctx)];
    if (errs.length > 0) return errs;
    // Upstream runs the generic ObjectMeta check after the kind's own, so the kind's
    // more specific messages win when both would complain.
    return validateObjectMeta(obj.metadata, { namespaced: this.options.namespaced, nameValidator: validatePathSegmentName });
  }

  validateUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    return dedupe([
      ...validateObjectMeta(obj.metadata, { namespaced: this.options.namespaced, nameValidator: validatePathSegmentName }),
      ...validateObjectMetaChange(obj.metadata, old.metadata),
      ...this.metadataErrors(obj),
      ...this.validateObjectUpdate(obj, old, ctx),
    ]);
  }

  canonicalize(_obj: KubeObject): void {}

  applyDefaults(_obj: KubeObject): void {}

  // ---- hooks for resources ----

  protected prepareObjectForCreate(_obj: KubeObject, _ctx: StrategyContext): void {}

  protected prepareObjectForUpdate(_obj: KubeObject, _old: KubeObject, _ctx: StrategyContext): void {}

  /** The kind's own field checks on create (metadata is already covered). */
  protected validateObject(_obj: KubeObject, _ctx: StrategyContext): FieldError[] {
    return [];
  }

  /** The kind's checks on update; by default its create checks on the new object. */
  protected validateObjectUpdate(obj: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    return this.validateObject(obj, ctx);
  }

  // ---- helpers ----

  protected metadataErrors(obj: KubeObject): FieldError[] {
    if (this.options.validateMetadata === false) return [];
    return validateObjectMeta(obj.metadata, {
      namespaced: this.options.namespaced,
      nameValidator: this.options.nameValidator,
      standardFinalizers: this.options.standardFinalizers ?? true,
    });
  }

  private keepAllButStatus(obj: KubeObject, old: KubeObject): void {
    for (const k of new Set([...Object.keys(obj), ...Object.keys(old)])) {
      if (!nonSpecFields.has(k) && !isEqualCopy(obj[k], old[k])) copyField(obj, old, k);
    }
    if (this.options.statusKeepsMetadata === false) return;
    const { labels, annotations, resourceVersion, managedFields } = obj.metadata;
    // The fields set below are not cloned (managedFields are most of a pod's metadata);
    // each keeps its place among the keys.
    const meta: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(old.metadata)) meta[k] = replacedMetadata.has(k) ? undefined : structuredClone(v);
    obj.metadata = meta as KubeObject['metadata'];
    setOrDelete(obj.metadata, 'labels', labels);
    setOrDelete(obj.metadata, 'annotations', annotations);
    setOrDelete(obj.metadata, 'resourceVersion', resourceVersion);
    setOrDelete(obj.metadata, 'managedFields', managedFields);
  }
}

const replacedMetadata = new Set(['labels', 'annotations', 'resourceVersion', 'managedFields']);

/**
 * Whether `a` is already what structuredClone(b) would give: equal, keys in the same order,
 * and sharing no object with `b` (a write built by spreading the old object keeps the clone).
 */
function isEqualCopy(a: unknown, b: unknown): boolean {
  if (a === b) return a === undefined || typeof a !== 'object' || a === null ? a !== undefined : false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!isEqualCopy(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  for (let i = 0; i < ak.length; i++) {
    if (ak[i] !== bk[i] || !isEqualCopy((a as Record<string, unknown>)[ak[i]!], (b as Record<string, unknown>)[bk[i]!])) return false;
  }
  return true;
}

/** Fields only the server sets survive an update unchanged (upstream: BeforeUpdate). */
function keepSystemMetadata(obj: KubeObject, old: KubeObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  m.generation = o.generation;
  if (m.generation === undefined) delete m.generation;
  if (!m.uid && o.uid) m.uid = o.uid;
  if (o.creationTimestamp) m.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds === undefined) {
    m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  }
}

/** Whether anything outside metadata and status differs. */
export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  for (const k of new Set([...Object.keys(obj), ...Object.keys(old)])) {
    if (nonSpecFields.has(k)) continue;
    if (!deepEqual(obj[k], old[k])) return true;
  }
  return false;
}

/** obj[k] becomes a copy of old[k], or is removed when old has none. */
export function copyField(obj: Record<string, unknown>, old: Record<string, unknown>, k: string): void {
  if (old[k] === undefined) delete obj[k];
  else obj[k] = structuredClone(old[k]);
}

function setOrDelete<T extends object, K extends keyof T>(target: T, k: K, v: T[K] | undefined): void {
  if (v === undefined) delete target[k];
  else target[k] = v;
}
