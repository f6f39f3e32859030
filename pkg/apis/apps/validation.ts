// Shared rules of the apps/v1 workloads: selector presence and shape, the template
// matched by it, immutable selectors, and intOrString percentages.
import type { FieldError } from '../../runtime/errors.js';
import { labelSelectorFromObject, type LabelSelector, type LabelSelectorObject } from '../meta/labels.js';
import { child, invalid, notSupported, required } from '../validation/field.js';
import { validateLabelSelector, type LabelSelector as MetaLabelSelector } from '../validation/labelselector.js';
import { FieldImmutableErrorMsg, IsNegativeErrorMsg } from '../validation/objectmeta.js';
import { deepEqual } from '../../util/deep-equal.js';
import { goLabelSelector } from '../core/gofmt.js';
import { obj, type Obj } from '../core/types.js';

export function int(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

export function nonNegative(v: unknown, path: string): FieldError[] {
  return typeof v === 'number' && v < 0 ? [invalid(path, v, IsNegativeErrorMsg)] : [];
}

/**
 * spec.selector checks and the selector they leave (nil selects nothing).
 * `requireSelector`: a missing selector is "Required value".
 */
export function validateSelector(spec: Obj, path: string, kindWord: string, requireSelector = true): { errs: FieldError[]; selector: LabelSelector } {
  const errs: FieldError[] = [];
  const sel = obj(spec.selector);
  const selPath = child(path, 'selector');
  if (!sel) {
    if (requireSelector) errs.push(required(selPath));
  } else {
    errs.push(...validateLabelSelector(sel as MetaLabelSelector, {}, selPath));
    const n = Object.keys(obj(sel.matchLabels) ?? {}).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0);
    if (n === 0) errs.push(invalid(selPath, goLabelSelector(sel), `empty selector is invalid for ${kindWord}`));
  }
  return { errs, selector: labelSelectorFromObject(sel as LabelSelectorObject | undefined) };
}

export function validateSelectorImmutable(spec: Obj, old: Obj, path: string): FieldError[] {
  const sel = obj(spec.selector);
  const oldSel = obj(old.selector);
  return deepEqual(sel ?? null, oldSel ?? null) ? [] : [invalid(child(path, 'selector'), goLabelSelector(sel), FieldImmutableErrorMsg)];
}

const percentRe = /^[0-9]+%$/;

/** An IntOrString that must be a non-negative number or percentage. */
export function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    if (!percentRe.test(v)) return [invalid(path, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
    return [];
  }
  return nonNegative(v, path);
}

export function isNotMoreThan100Percent(v: unknown, path: string): FieldError[] {
  if (typeof v !== 'string' || !percentRe.test(v)) return [];
  return Number(v.slice(0, -1)) > 100 ? [invalid(path, v, 'must not be greater than 100%')] : [];
}

/** Zero as an int or "0%". */
export function isZero(v: unknown): boolean {
  return v === 0 || v === '0%' || v === undefined || v === null;
}

export function validateEnum(v: unknown, path: string, allowed: string[]): FieldError[] {
  if (typeof v !== 'string' || v === '') return [required(path)];
  return allowed.includes(v) ? [] : [notSupported(path, v, allowed)];
}
