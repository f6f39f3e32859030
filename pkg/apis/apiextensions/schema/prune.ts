// Pruning of fields a structural schema does not declare (upstream: apiextensions
// schema/pruning PruneWithOptions). x-kubernetes-preserve-unknown-fields keeps unknown
// fields of a node but still prunes inside the fields it declares; an embedded resource,
// and the resource root, keep apiVersion, kind and metadata untouched (metadata is
// coerced separately). The pruned paths are returned sorted, as fieldValidation reports them.
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';
import { asResourceRoot, compile, type Schema } from './compiled.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** Prunes obj in place against the root schema; returns the paths it removed. */
export function pruneCustomResource(obj: unknown, schema: JSONSchemaProps): string[] {
  return pruneValue(obj, asResourceRoot(compile(schema)), '');
}

/** Prunes a value below the root (isResourceRoot=false); paths are relative to `path`. */
export function pruneValue(x: unknown, s: Schema | undefined, path: string): string[] {
  const pruned: string[] = [];
  prune(x, s, path, pruned);
  return pruned.sort();
}

const keyPath = (parent: string, k: string) => (parent ? `${parent}.${k}` : k);

function prune(x: unknown, s: Schema | undefined, path: string, pruned: string[]): void {
  if (s?.preserveUnknownFields) {
    skipPrune(x, s, path, pruned);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => prune(v, s?.items, `${path}[${i}]`, pruned));
    return;
  }
  if (!isPlainObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s?.embeddedResource && metaFields.has(k)) continue;
    const prop = s?.properties.get(k);
    if (prop) prune(x[k], prop, keyPath(path, k), pruned);
    else if (s?.additionalProperties) prune(x[k], s.additionalProperties.schema, keyPath(path, k), pruned);
    else {
      // Upstream does not report apiVersion/kind/metadata dropped at the very top.
      if (!metaFields.has(k) || path !== '') pruned.push(keyPath(path, k));
      delete x[k];
    }
  }
}

/** Below x-kubernetes-preserve-unknown-fields: keep unknown fields, prune declared ones. */
function skipPrune(x: unknown, s: Schema, path: string, pruned: string[]): void {
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      if (s.items) skipPrune(v, s.items, `${path}[${i}]`, pruned);
    });
    return;
  }
  if (!isPlainObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s.embeddedResource && metaFields.has(k)) continue;
    const prop = s.properties.get(k);
    if (prop) prune(x[k], prop, keyPath(path, k), pruned);
    else if (s.additionalProperties) prune(x[k], s.additionalProperties.schema, keyPath(path, k), pruned);
  }
}
