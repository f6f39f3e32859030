// objectSelector and namespaceSelector (upstream's object and namespace matchers). The
// selectors are compiled once per configuration; an empty selector is `null` so the
// common case costs one comparison.
import { labelSelectorFromObject, type LabelSelector } from '../../../apis/meta/labels.js';
import { errors } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { LabelSelectorSpec } from './types.js';

/** Namespace labels: the informer cache first, storage when the cache has not seen it yet. */
export interface NamespaceLabelSource {
  cached(name: string): KubeObject | undefined;
  live(name: string): Promise<KubeObject | undefined>;
}

export function compileSelector(spec: LabelSelectorSpec | undefined): LabelSelector | null {
  if (!spec) return null;
  const sel = labelSelectorFromObject(spec);
  return sel.empty() ? null : sel;
}

function labelsOf(obj: KubeObject | undefined): Record<string, string> | undefined {
  return obj?.metadata?.labels as Record<string, string> | undefined;
}

/** Either the new or the old object may carry the labels (a DELETE has only the old one). */
export function objectSelectorMatches(sel: LabelSelector | null, attrs: AdmissionAttributes): boolean {
  if (!sel) return true;
  if (attrs.object && sel.matches(labelsOf(attrs.object))) return true;
  if (attrs.oldObject && sel.matches(labelsOf(attrs.oldObject))) return true;
  return false;
}

export async function namespaceSelectorMatches(sel: LabelSelector | null, attrs: AdmissionAttributes,
  namespaces: NamespaceLabelSource): Promise<boolean> {
  if (!sel) return true;
  const isNamespace = attrs.group === '' && attrs.resource === 'namespaces';
  // Other cluster-scoped resources have no namespace to select on.
  if (!isNamespace && attrs.namespace === '') return true;
  // A namespace being created or updated is judged by the labels it is about to have.
  if (isNamespace && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    return sel.matches(labelsOf(attrs.object));
  }
  const name = isNamespace ? attrs.name : attrs.namespace;
  const ns = namespaces.cached(name) ?? await namespaces.live(name);
  if (!ns) throw errors.internal(new Error(`namespaces "${name}" not found`));
  return sel.matches(labelsOf(ns));
}
