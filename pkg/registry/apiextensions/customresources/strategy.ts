// The strategy of every custom resource (upstream: apiextensions-apiserver
// registry/customresource). Generation grows with any change outside metadata (and
// outside status when status is a subresource); the status endpoint changes status
// alone; the schema validates, the scale paths hold an int32 replica count.
import { StatusError, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ScaleDef } from '../../rest/resource.js';
import { invalid } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy, copyField, specChanged } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';
import type { CustomResourceSchema } from './validation.js';

export interface CustomResourceStrategyOptions {
  namespaced: boolean;
  hasStatus: boolean;
  scale?: ScaleDef;
  schema: CustomResourceSchema;
  /** The CRD is being deleted: its objects may be read and deleted, not created. */
  terminating: boolean;
  group: string;
  plural: string;
}

const maxInt32 = 2147483647;

export class CustomResourceStrategy extends BaseStrategy {
  constructor(private readonly cr: CustomResourceStrategyOptions) {
    super({ namespaced: cr.namespaced, nameValidator: nameIsDNSSubdomain, hasStatus: cr.hasStatus, standardFinalizers: true });
  }

  override applyDefaults(obj: KubeObject): void {
    this.cr.schema.applyDefaults(obj);
  }

  protected override prepareObjectForCreate(obj: KubeObject): void {
    if (this.cr.terminating) {
      throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating',
        { group: this.cr.group, kind: this.cr.plural });
    }
    obj.metadata.generation = 1;
  }

  protected override prepareObjectForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource === 'status') {
      // Upstream's status strategy starts from the stored object: only status (and the
      // field manager's record) come from the request.
      for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
        copyField(obj.metadata as Record<string, unknown>, old.metadata as Record<string, unknown>, k);
      }
      return;
    }
    // Without a status endpoint, status is content like spec (upstream's CR strategy).
    const changed = specChanged(obj, old) || (!this.cr.hasStatus && !deepEqual(obj.status, old.status));
    if (changed) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return [...this.cr.schema.validate(obj, undefined), ...this.scaleErrors(obj)];
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    return [...this.cr.schema.validate(obj, old), ...this.scaleErrors(obj)];
  }

  /** Upstream's ValidateScaleSpec and ValidateScaleStatus. */
  private scaleErrors(obj: KubeObject): FieldError[] {
    const s = this.cr.scale;
    if (!s) return [];
    return [replicasError(obj, s.specReplicasPath), replicasError(obj, s.statusReplicasPath)].filter((e): e is FieldError => e !== undefined);
  }
}

function replicasError(obj: KubeObject, path: string[]): FieldError | undefined {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  if (cur === undefined) return undefined;
  const field = path.join('.');
  if (typeof cur !== 'number' || !Number.isInteger(cur)) {
    return invalid(field, cur, `.${field} accessor error: ${String(cur)} is of the type ${goKind(cur)}, expected int64`);
  }
  if (cur < 0) return invalid(field, cur, 'should be a non-negative integer');
  if (cur > maxInt32) return invalid(field, cur, `should be less than or equal to ${maxInt32}`);
  return undefined;
}

function goKind(v: unknown): string {
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return v === null ? '<nil>' : 'map[string]interface {}';
}
