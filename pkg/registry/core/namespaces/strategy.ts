// Namespace: upstream's namespace strategy plus its status and finalize variants, chosen
// by the subresource the write came through.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { index, invalid } from '../../../apis/validation/field.js';
import { nameIsDNSLabel } from '../../../apis/validation/names.js';
import { validateFinalizerName, validateKubeFinalizerName } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy, copyField } from '../../generic/base-strategy.js';
import type { DeletionFinalization, StrategyContext } from '../../generic/strategy.js';

export const FinalizerKubernetes = 'kubernetes';
/** Label the server keeps equal to the namespace's name, so selectors can match it. */
export const LabelMetadataName = 'kubernetes.io/metadata.name';

interface NamespaceSpec { finalizers?: string[] }
interface NamespaceStatus { phase?: string; conditions?: unknown[] }

export function namespaceSpec(obj: KubeObject): NamespaceSpec {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  return obj.spec as NamespaceSpec;
}

export function namespaceStatus(obj: KubeObject): NamespaceStatus {
  if (!isPlainObject(obj.status)) obj.status = {};
  return obj.status as NamespaceStatus;
}

export class NamespaceStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: nameIsDNSLabel, hasStatus: true, statusKeepsMetadata: false });
  }

  override applyDefaults(obj: KubeObject): void {
    namespaceSpec(obj);
    const status = namespaceStatus(obj);
    if (!status.phase) status.phase = 'Active';
    if (obj.metadata.name) setNameLabel(obj);
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    obj.status = { phase: 'Active' };
    // Required on create; later removed by the namespace controller when it is done.
    const spec = namespaceSpec(obj);
    if (!(spec.finalizers ?? []).includes(FinalizerKubernetes)) {
      spec.finalizers = [...(spec.finalizers ?? []), FinalizerKubernetes];
    }
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'finalize') {
      copyField(obj, old, 'status');
    } else if (!ctx.subresource) {
      // Finalizers change only through the finalize subresource.
      const spec = namespaceSpec(obj);
      const oldSpec = isPlainObject(old.spec) ? (old.spec as NamespaceSpec) : {};
      copyField(spec as Record<string, unknown>, oldSpec as Record<string, unknown>, 'finalizers');
    }
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    // Upstream reports create-time finalizer problems without an index.
    return specFinalizers(obj).flatMap((f) => finalizerErrors(f, 'spec.finalizers'));
  }

  protected override validateObjectUpdate(obj: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === 'status') return validatePhase(obj);
    if (ctx.subresource === 'finalize') {
      return specFinalizers(obj).flatMap((f, i) => finalizerErrors(f, index('spec.finalizers', i)));
    }
    return this.validateObject(obj);
  }

  /** Status is the namespace controller's on the resource and finalize endpoints; spec stays on status. */
  resetFields(subresource: string): string[][] {
    return subresource === 'status' ? [['spec']] : [['status']];
  }

  /**
   * Deleting a namespace makes it Terminating and keeps it until spec.finalizers is
   * empty: the namespace controller removes "kubernetes" once the content is gone.
   */
  readonly finalization: DeletionFinalization = {
    beginDeletion: (obj) => { namespaceStatus(obj).phase = 'Terminating'; },
    pending: (obj) => specFinalizers(obj).length > 0,
  };

  /** Namespaces created with generateName learn their name only after defaulting. */
  override canonicalize(obj: KubeObject): void {
    setNameLabel(obj);
  }
}

/** Read-only view (validation must not change the object). */
function specFinalizers(obj: KubeObject): string[] {
  const spec = isPlainObject(obj.spec) ? (obj.spec as NamespaceSpec) : {};
  return Array.isArray(spec.finalizers) ? spec.finalizers : [];
}

function setNameLabel(obj: KubeObject): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [LabelMetadataName]: obj.metadata.name ?? '' };
}

function finalizerErrors(name: string, path: string): FieldError[] {
  return [...validateFinalizerName(name, path), ...validateKubeFinalizerName(name, path)];
}

/** The phase follows deletion; upstream's path really says "Phase". */
function validatePhase(obj: KubeObject): FieldError[] {
  const status = isPlainObject(obj.status) ? (obj.status as NamespaceStatus) : {};
  const phase = status.phase ?? '';
  if (!obj.metadata.deletionTimestamp) {
    return phase === 'Active' ? [] : [invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? []
    : [invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}
