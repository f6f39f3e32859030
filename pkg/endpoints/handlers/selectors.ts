// Builds the selection predicate of a list/watch/deletecollection from its query.
import { parseFieldSelector, validateFieldSelector } from '../../apis/meta/fields.js';
import { parseLabelSelector } from '../../apis/meta/labels.js';
import type { SelectionPredicate } from '../../registry/generic/predicate.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { ListQuery } from './query.js';

export function selectionFor(def: ResourceDef, q: ListQuery, name?: string): SelectionPredicate {
  let fieldSel = q.fieldSelector;
  if (name) fieldSel = fieldSel ? `${fieldSel},metadata.name=${name}` : `metadata.name=${name}`;
  const field = validateFieldSelector(parseFieldSelector(fieldSel), def.fieldLabels);
  return { label: parseLabelSelector(q.labelSelector), field };
}
