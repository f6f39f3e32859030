// Core-group helpers shared by the volume and quota kinds: quantities in resource lists,
// access modes, and their printing.
import type { FieldError } from '../../runtime/errors.js';
import { quantityError } from '../../runtime/literal-decoders.js';
import { invalid } from '../validation/field.js';
import { isPlainObject } from '../../runtime/object.js';

/** -1, 0 or 1 for a quantity string ("500m", "-1", "0Gi"); NaN when it does not parse. */
export function quantitySign(q: unknown): number {
  const s = typeof q === 'number' ? String(q) : q;
  if (typeof s !== 'string' || quantityError(s) !== undefined) return NaN;
  const n = Number.parseFloat(/^[+-]?[0-9.]+(?:[eE][-+]?[0-9]+)?/.exec(s)?.[0] ?? '');
  return Number.isNaN(n) ? NaN : Math.sign(n);
}

export function validateNonNegativeQuantity(q: unknown, path: string): FieldError[] {
  return quantitySign(q) < 0 ? [invalid(path, q, 'must be greater than or equal to 0')] : [];
}

export function validatePositiveQuantity(q: unknown, path: string): FieldError[] {
  return quantitySign(q) <= 0 ? [invalid(path, q, 'must be greater than zero')] : [];
}

export function resourceList(v: unknown): Record<string, string> {
  return isPlainObject(v) ? (v as Record<string, string>) : {};
}

export const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
export const supportedVolumeModes = ['Block', 'Filesystem'];

/** kubectl's short access-mode list (RWO,ROX,RWX,RWOP), in that fixed order. */
export function accessModesAsString(modes: unknown): string {
  const list = Array.isArray(modes) ? modes : [];
  const out: string[] = [];
  for (const [mode, short] of [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']]) {
    if (list.includes(mode)) out.push(short);
  }
  return out.join(',');
}

/** storageClassName, or the beta annotation that preceded it. */
export function storageClassOf(obj: { metadata: { annotations?: Record<string, string> }; spec?: unknown }): string {
  const ann = obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (ann !== undefined) return ann;
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  return typeof spec.storageClassName === 'string' ? spec.storageClassName : '';
}
