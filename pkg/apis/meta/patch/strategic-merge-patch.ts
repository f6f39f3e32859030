// Strategic merge patch, the Kubernetes variant of JSON merge patch whose list handling
// follows each field's patch strategy and merge key (from a PatchSchema). See
// ./strategic/ for the algorithm; this file decodes the body the way upstream does.

import type { PatchSchema } from '../patch-schema.js';
import { decodePatchValue, unmarshalTypeMessage } from './go-json.js';
import { type JsonMap, deepClone, isMap } from './json-value.js';
import { patchErrors } from './errors.js';
import { mergeMap } from './strategic/merge.js';

/**
 * Applies a strategic merge patch. `patch` is the raw request body (string or bytes) or
 * the decoded value; a JSON null patch changes nothing. Without a schema no list merges:
 * maps merge recursively and lists are replaced. Neither input is modified.
 */
export function applyStrategicMergePatch(original: JsonMap, patch: unknown, schema?: PatchSchema): JsonMap {
  const value = decodePatchValue(patch, (m) => patchErrors.badRequest(m));
  if (value === null || value === undefined) return deepClone(original);
  if (!isMap(value)) throw patchErrors.badRequest(unmarshalTypeMessage(value, 'map[string]interface {}'));
  return mergeMap(deepClone(original), deepClone(value), schema);
}
