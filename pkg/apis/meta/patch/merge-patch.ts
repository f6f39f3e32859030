// JSON merge patch (RFC 7386) as upstream applies it (evanphx/json-patch v4 MergePatch):
// null deletes, objects merge recursively, everything else replaces. Nulls inside
// values that are added rather than merged are pruned from objects (not from arrays).

import { decodePatchValue, jsonKindWord } from './go-json.js';
import { type JsonMap, deepClone, getOwn, hasOwn, isMap, setOwn } from './json-value.js';
import { notAnObjectDetail, patchErrors } from './errors.js';

const badPatch = 'Invalid JSON Patch';

function pruneNulls(v: unknown): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else pruneNulls(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) if (x !== null) pruneNulls(x);
  }
}

function mergeValue(cur: unknown, patch: unknown): unknown {
  if (!isMap(cur)) {
    pruneNulls(patch);
    return patch;
  }
  if (!isMap(patch)) return patch;
  mergeDocs(cur, patch);
  return cur;
}

function mergeDocs(doc: JsonMap, patch: JsonMap): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = getOwn(doc, k);
    if (!hasOwn(doc, k) || cur === null) {
      pruneNulls(v);
      setOwn(doc, k, v);
    } else {
      setOwn(doc, k, mergeValue(cur, v));
    }
  }
}

/** A merge patch's body (string or bytes) as JSON; 400 for a syntax error, as applyMergePatch. */
export function decodeMergePatch(patch: string | Uint8Array): unknown {
  return decodePatchValue(patch, () => patchErrors.badRequest(badPatch));
}

/**
 * Applies a merge patch. `patch` is either the raw request body (string or bytes) or the
 * already-decoded JSON value. Neither input is modified.
 */
export function applyMergePatch(original: JsonMap, patch: unknown): JsonMap {
  const value = decodePatchValue(patch, () => patchErrors.badRequest(badPatch));
  if (Array.isArray(value)) {
    // Upstream returns the (pruned) array as the new document, which then cannot be
    // decoded into an object.
    const doc = deepClone(value);
    pruneNulls(doc);
    throw patchErrors.undecodable(JSON.stringify(doc), notAnObjectDetail(jsonKindWord(doc)));
  }
  if (!isMap(value)) throw patchErrors.badRequest(badPatch);
  const doc = deepClone(original);
  mergeDocs(doc, deepClone(value));
  return doc;
}
