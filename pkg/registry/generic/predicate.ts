// What a list, watch or deletecollection selects: label and field selectors matched
// against an object's labels and its selectable fields.
import { objectMetaFields } from '../../apis/meta/fields.js';
import type { KubeObject } from '../../runtime/object.js';
import type { StoreDef } from './store-def.js';
import type { IndexedField } from '../../storage/interfaces.js';

export interface LabelMatcher { matches(labels: Record<string, string> | undefined): boolean; empty(): boolean }
export interface FieldMatcher {
  matches(fields: Record<string, string>): boolean;
  empty(): boolean;
  /** The value the selector demands for `field` with `=`, if any. */
  requiresExactMatch?(field: string): string | undefined;
}

export interface SelectionPredicate {
  label?: LabelMatcher;
  field?: FieldMatcher;
}

export function objectFields(def: StoreDef, obj: KubeObject): Record<string, string> {
  const fields = objectMetaFields(obj, def.namespaced);
  return def.selectableFields ? { ...fields, ...def.selectableFields(obj) } : fields;
}

export function isFiltering(p: SelectionPredicate): boolean {
  return Boolean((p.label && !p.label.empty()) || (p.field && !p.field.empty()));
}

/**
 * The indexed field a selection pins to one value, for the watch cache: metadata.name
 * (every resource, read from the key), else the first of the kind's indexFields.
 * `valueOf` reads a field of a stored object.
 */
export function indexedFieldFor(def: StoreDef, p: SelectionPredicate,
  valueOf: (field: string) => (obj: KubeObject) => string): IndexedField | undefined {
  if (!p.field?.requiresExactMatch) return undefined;
  const name = p.field.requiresExactMatch('metadata.name');
  if (name !== undefined) return { field: 'metadata.name', value: name };
  for (const field of def.indexFields ?? []) {
    const value = p.field.requiresExactMatch(field);
    if (value !== undefined) return { field, value, extract: valueOf(field) };
  }
  return undefined;
}

export function matcherFor(def: StoreDef, p: SelectionPredicate): (obj: KubeObject) => boolean {
  if (!isFiltering(p)) return () => true;
  // An empty selector matches everything: a label-only selection (a kube-proxy's, a
  // cluster-wide pod list by label) builds no field set per object, about 10 us a pod.
  const label = p.label && !p.label.empty() ? p.label : undefined;
  const field = p.field && !p.field.empty() ? p.field : undefined;
  if (!field) return (obj) => label!.matches(obj.metadata.labels);
  if (!label) return (obj) => field.matches(objectFields(def, obj));
  return (obj) => label.matches(obj.metadata.labels) && field.matches(objectFields(def, obj));
}
