// metav1.LabelSelector validation (upstream: apimachinery apis/meta/v1/validation).
import type { FieldError } from '../../runtime/errors.js';
import { child, forbidden, index, invalid, required } from './field.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { validateLabelName, validateLabels } from './objectmeta.js';

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface LabelSelectorValidationOptions {
  /** Lets objects stored before values were checked keep validating on update. */
  allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelector(sel: LabelSelector | null | undefined, opts: LabelSelectorValidationOptions,
  fieldPath: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, child(fieldPath, 'matchLabels'));
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, opts, index(child(fieldPath, 'matchExpressions'), i)));
  });
  return errs;
}

export function validateLabelSelectorRequirement(req: LabelSelectorRequirement, opts: LabelSelectorValidationOptions,
  fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errs.push(required(child(fieldPath, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(forbidden(child(fieldPath, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      break;
    default:
      errs.push(invalid(child(fieldPath, 'operator'), req.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(req.key ?? '', child(fieldPath, 'key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalid(index(child(fieldPath, 'values'), i), v, msg));
    });
  }
  return errs;
}

/** Whether upstream's LabelSelectorAsSelector would refuse this selector. */
export function labelSelectorConvertible(sel: LabelSelector): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    if (isQualifiedName(k).length > 0 || isValidLabelValue(v).length > 0) return false;
  }
  for (const expr of sel.matchExpressions ?? []) {
    const values = expr.values ?? [];
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(expr.operator)) return false;
    if (isQualifiedName(expr.key ?? '').length > 0) return false;
    if ((expr.operator === 'In' || expr.operator === 'NotIn') && values.length === 0) return false;
    if ((expr.operator === 'Exists' || expr.operator === 'DoesNotExist') && values.length > 0) return false;
    if (values.some((v) => isValidLabelValue(v).length > 0)) return false;
  }
  return true;
}

/** True when any selector value fails label-value rules (grandfathering on update). */
export function hasInvalidLabelValueInSelector(sel: LabelSelector | null | undefined): boolean {
  return (sel?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => isValidLabelValue(v).length > 0));
}
