// The PATCH body algorithms behind one entry point. The handler picks the algorithm from
// the Content-Type (see patchTypeForContentType) and gets the patched object or a
// StatusError shaped as upstream's.

import type { PatchSchema } from '../patch-schema.js';
import type { JsonMap } from './json-value.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch, decodeMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

export type PatchType = 'json' | 'merge' | 'strategic';

const contentTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

/** The patch type for a Content-Type header (parameters ignored), or undefined. */
export function patchTypeForContentType(contentType: string | undefined): PatchType | undefined {
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(contentTypes, base) ? contentTypes[base] : undefined;
}

/**
 * Applies `patch` to `original` and returns the new object; `original` is not modified.
 * `patch` is the raw request body (string or Buffer/Uint8Array) or its decoded JSON.
 * `schema` drives strategic merge (ignored by the other types).
 * Throws StatusError: 400 for a malformed body, 413 for over 10,000 JSON patch operations,
 * 422 when a JSON patch does not apply, and upstream's codes for strategic merge failures.
 */
export function applyPatch(patchType: PatchType, original: Record<string, unknown>, patch: unknown, schema?: PatchSchema): Record<string, unknown> {
  switch (patchType) {
    case 'json': return applyJsonPatch(original, patch);
    case 'merge': return applyMergePatch(original, patch);
    case 'strategic': return applyStrategicMergePatch(original, patch, schema);
  }
}

export { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, decodeMergePatch };
export { writtenNumber, writtenNumberKey } from './json-patch.js';
export type { JsonMap };
