// What a list, watch or deletecollection selects: label and field selectors matched
// against an object's labels and its selectable fields.
import { objectMetaFields } from '../../apis/meta/fields.js';
import type { KubeObject } from '../../runtime/object.js';
import type { ResourceDef } from '../../runtime/scheme.js';

export interface LabelMatcher { matches(labels: Record<string, string> | undefined): boolean; empty(): boolean }
export interface FieldMatcher { matches(fields: Record<string, string>): boolean; empty(): boolean }

export interface SelectionPredicate {
  label?: LabelMatcher;
  field?: FieldMatcher;
}

export function objectFields(def: ResourceDef, obj: KubeObject): Record<string, string> {
  const fields = objectMetaFields(obj, def.namespaced);
  return def.selectableFields ? { ...fields, ...def.selectableFields(obj) } : fields;
}

export function isFiltering(p: SelectionPredicate): boolean {
  return Boolean((p.label && !p.label.empty()) || (p.field && !p.field.empty()));
}

export function matcherFor(def: ResourceDef, p: SelectionPredicate): (obj: KubeObject) => boolean {
  if (!isFiltering(p)) return () => true;
  return (obj) => (!p.label || p.label.matches(obj.metadata.labels)) && (!p.field || p.field.matches(objectFields(def, obj)));
}
