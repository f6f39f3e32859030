// What happens to patch content that is taken as-is rather than merged. Upstream decodes
// the merged map into the typed object, which drops nulls and unknown keys such as
// leftover directives; with no typed decode here, these helpers do that dropping.

import { type JsonMap, isMap, setOwn } from '../json-value.js';

export const directiveMarker = '$patch';
export const retainKeysDirective = '$retainKeys';
export const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
export const setElementOrderPrefix = '$setElementOrder';

function isDirectiveKey(k: string): boolean {
  return k === directiveMarker || k === retainKeysDirective
    || k.startsWith(`${deleteFromPrimitiveListPrefix}/`) || k.startsWith(`${setElementOrderPrefix}/`);
}

/** Drops null map entries and directive keys at every depth (null list items stay). */
export function decodeLike(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeLike);
  if (!isMap(v)) return v;
  const out: JsonMap = {};
  for (const k of Object.keys(v)) {
    if (v[k] === null || isDirectiveKey(k)) continue;
    setOwn(out, k, decodeLike(v[k]));
  }
  return out;
}

/**
 * Upstream's removeDirectives for a value added where nothing existed: any map carrying
 * `$patch` is dropped (as a field or as a list item); the rest is decoded as above.
 * Returns undefined when the value itself is dropped.
 */
export function takeNewValue(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const item of v) {
      const kept = takeNewValue(item);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  if (!isMap(v)) return v;
  if (Object.prototype.hasOwnProperty.call(v, directiveMarker)) return undefined;
  const out: JsonMap = {};
  for (const k of Object.keys(v)) {
    if (v[k] === null || isDirectiveKey(k)) continue;
    const kept = takeNewValue(v[k]);
    if (kept !== undefined) setOwn(out, k, kept);
  }
  return out;
}
