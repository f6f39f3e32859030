// CustomResourceDefinition (upstream: apiextensions-apiserver registry/customresourcedefinition).
// Create starts an empty status that records the storage version; the status endpoint
// may change finalizers (the cleanup controller removes its own there) but not labels,
// annotations or owners. Deleting first marks the CRD Terminating and adds the cleanup
// finalizer, so the custom resources can be removed before the definition goes.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { defaultCustomResourceDefinition } from '../../../apis/apiextensions/defaults.js';
import { CustomResourceCleanupFinalizer, setCondition, storageVersion, type CRDStatus } from '../../../apis/apiextensions/types.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate } from '../../../apis/apiextensions/validation.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy, copyField } from '../../generic/base-strategy.js';
import type { DeletionFinalization, StrategyContext } from '../../generic/strategy.js';

export class CustomResourceDefinitionStrategy extends BaseStrategy {
  constructor() {
    // ObjectMeta is checked by the CRD validation itself: the name must be <plural>.<group>.
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true,
      statusKeepsMetadata: false, validateMetadata: false });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultCustomResourceDefinition(obj);
  }

  /** The Go zero status (acceptedNames' plural and kind are not omitempty) plus the storage version. */
  protected override prepareObjectForCreate(obj: KubeObject): void {
    const status: CRDStatus = { conditions: null, acceptedNames: { plural: '', kind: '' } };
    const v = storageVersion(obj);
    if (v !== undefined) status.storedVersions = [v];
    obj.status = status;
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'status') {
      for (const k of ['labels', 'annotations', 'ownerReferences'] as const) copyField(obj.metadata as Record<string, unknown>, old.metadata as Record<string, unknown>, k);
      return;
    }
    const v = storageVersion(obj);
    if (v === undefined) return;
    const status = isPlainObject(obj.status) ? (obj.status as CRDStatus) : (obj.status = {} as CRDStatus) as CRDStatus;
    const stored = Array.isArray(status.storedVersions) ? status.storedVersions : [];
    if (!stored.includes(v)) status.storedVersions = [...stored, v];
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateCustomResourceDefinition(obj);
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === 'status') return validateCustomResourceDefinitionStatusUpdate(obj, old);
    return validateCustomResourceDefinitionUpdate(obj, old);
  }

  readonly finalization: DeletionFinalization = {
    beginDeletion: (obj) => {
      const finalizers = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(CustomResourceCleanupFinalizer)) obj.metadata.finalizers = [...finalizers, CustomResourceCleanupFinalizer];
      setCondition(obj, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, obj.metadata.deletionTimestamp ?? '');
    },
    // Once marked, the generic finalizer handling takes over.
    pending: () => false,
  };
}
