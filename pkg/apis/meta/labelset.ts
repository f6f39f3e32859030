// Plain label sets (apimachinery labels.Set): the `k=v,k2=v2` form that namespace
// annotations and plugin configuration use for node selectors, and the set algebra
// the node-selector admission plugin needs.
import { fieldErrorMessage } from '../../runtime/errors.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';

export type LabelSet = Record<string, string>;

/**
 * labels.ConvertSelectorToLabelsMap: only equality terms, no operators. The error text
 * is upstream's, including Go's rendering of the split term and of a nil field path.
 */
export function convertSelectorToLabelsMap(selector: string): LabelSet {
  const out: LabelSet = {};
  if (selector.length === 0) return out;
  for (const term of selector.split(',')) {
    const parts = term.split('=');
    if (parts.length !== 2) throw new Error(`invalid selector: [${parts.join(' ')}]`);
    const key = parts[0].trim();
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) {
      throw new Error(fieldErrorMessage({ type: 'FieldValueInvalid', field: '<nil>', value: key, detail: keyErrs.join('; ') }));
    }
    const value = parts[1].trim();
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) {
      throw new Error(fieldErrorMessage({ type: 'FieldValueInvalid', field: `[${key}]`, value, detail: valueErrs.join('; ') }));
    }
    out[key] = value;
  }
  return out;
}

/** True when a key is in both sets with different values. */
export function labelsConflict(a: LabelSet, b: LabelSet): boolean {
  return Object.entries(a).some(([k, v]) => k in b && b[k] !== v);
}

/** Union of both; on a shared key the second set's value wins. */
export function mergeLabels(a: LabelSet, b: LabelSet): LabelSet {
  return { ...a, ...b };
}

/** Every label appears in the whitelist with the same value; an empty whitelist allows all. */
export function labelsInWhitelist(labels: LabelSet, whitelist: LabelSet): boolean {
  if (Object.keys(whitelist).length === 0) return true;
  return Object.entries(labels).every(([k, v]) => k in whitelist && whitelist[k] === v);
}
