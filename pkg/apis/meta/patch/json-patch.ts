// JSON patch (RFC 6902) with the rules of upstream's library (evanphx/json-patch v4):
// every parent on a path must exist, arrays accept negative indices, replace/remove need
// an existing target, `test` treats a missing value as null, a missing `value` means
// null. Pointer tokens are decoded by the rfc6902 package; `test` compares as the library
// does (see testEqual), strings as written (written-strings.ts).
// Any failure to apply is upstream's opaque 422; a body that is not a list of
// operations is a 400; more than 10,000 operations is a 413.

import { unescapeToken } from 'rfc6902/pointer.js';
import { decodePatchValue, unmarshalTypeMessage } from './go-json.js';
import { type JsonMap, deepClone, getOwn, hasOwn, isMap, setOwn } from './json-value.js';
import { maxJSONPatchOperations, notAnObjectDetail, patchErrors } from './errors.js';
import { goJsonString, testValuesAsWritten, WrittenString } from './written-strings.js';

class ApplyFailure extends Error {}

class DocumentNotObject extends Error {
  constructor(readonly document: unknown) {
    super('patched document is not an object');
  }
}

/** Decodes and checks the body: a JSON array of objects (or null, meaning no operations). */
function decodeOperations(patch: unknown): Array<JsonMap | null> {
  const value = decodePatchValue(patch, (m) => patchErrors.badRequest(m));
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw patchErrors.badRequest(unmarshalTypeMessage(value, 'jsonpatch.Patch'));
  for (const op of value) {
    if (op !== null && !isMap(op)) throw patchErrors.badRequest(unmarshalTypeMessage(op, 'jsonpatch.Operation'));
  }
  return value as Array<JsonMap | null>;
}

type Container = JsonMap | unknown[];

function isContainer(v: unknown): v is Container {
  return Array.isArray(v) || isMap(v);
}

/** An array index as Go's strconv.Atoi reads it; negative indices count from the end. */
function arrayIndex(key: string, length: number, forInsert: boolean): number {
  if (!/^[+-]?[0-9]+$/.test(key)) throw new ApplyFailure(`value was not a proper array index: '${key}'`);
  let idx = Number(key);
  const size = forInsert ? length + 1 : length;
  if (idx >= size || idx < -size) throw new ApplyFailure(`Unable to access invalid index: ${idx}`);
  if (idx < 0) idx += size;
  return idx;
}

interface Target {
  parent: Container;
  key: string;
}

function pathOf(op: JsonMap, field: 'path' | 'from'): string {
  const v = getOwn(op, field);
  if (typeof v !== 'string') throw new ApplyFailure(`operation missing ${field} field`);
  return v;
}

/**
 * Walks to the container holding the last token; every step must exist. Like upstream,
 * the text before the first `/` is ignored and a path without `/` matches nothing.
 */
function findParent(doc: Container, path: string): Target {
  const tokens = path.split('/').map(unescapeToken);
  if (tokens.length < 2) throw new ApplyFailure(`doc is missing path: ${path}`);
  let cur: Container = doc;
  for (const token of tokens.slice(1, -1)) {
    const next: unknown = Array.isArray(cur) ? cur[arrayIndex(token, cur.length, false)] : getOwn(cur, token);
    if (!isContainer(next)) throw new ApplyFailure(`doc is missing path: ${path}`);
    cur = next;
  }
  return { parent: cur, key: tokens[tokens.length - 1] };
}

function read(t: Target): { found: boolean; value: unknown } {
  if (Array.isArray(t.parent)) return { found: true, value: t.parent[arrayIndex(t.key, t.parent.length, false)] };
  return { found: hasOwn(t.parent, t.key), value: getOwn(t.parent, t.key) };
}

function add(t: Target, value: unknown): void {
  if (!Array.isArray(t.parent)) setOwn(t.parent, t.key, value);
  else if (t.key === '-') t.parent.push(value);
  else t.parent.splice(arrayIndex(t.key, t.parent.length, true), 0, value);
}

function remove(t: Target): unknown {
  if (Array.isArray(t.parent)) return t.parent.splice(arrayIndex(t.key, t.parent.length, false), 1)[0];
  if (!hasOwn(t.parent, t.key)) throw new ApplyFailure(`Unable to remove nonexistent key: ${t.key}`);
  const v = t.parent[t.key];
  delete t.parent[t.key];
  return v;
}

function valueOf(op: JsonMap): unknown {
  return hasOwn(op, 'value') ? deepClone(op.value) : null;
}

/**
 * The key of a test value standing for a number as the patch wrote it (`{[writtenNumberKey]: "2.0"}`):
 * see testEqual. A key no JSON object from a client can hold ahead of it (a NUL first).
 */
export const writtenNumberKey = '\u0000float literal';

/** A test value (or an added one) standing for the number literal `text` as written. */
export function writtenNumber(text: string): Record<string, string> {
  return { [writtenNumberKey]: text };
}

/**
 * The library's equality of the document's value and a test's: an object matches when each
 * of the document's keys is in the test's value with an equal value (both null counts), so
 * keys only the test's value has are not looked at; a list item by item; a scalar by value.
 */
function testEqual(actual: unknown, want: unknown): boolean {
  // The stored string's text is Go's encoding of it. (One an earlier operation of the
  // patch added is compared by Go's text too, not by how that operation wrote it.)
  if (want instanceof WrittenString) return typeof actual === 'string' && goJsonString(actual) === want.text;
  if (typeof actual === 'number' && isMap(want) && typeof want[writtenNumberKey] === 'string') {
    // A number the test wrote as text (writtenNumber): the library compares raw JSON, and a
    // stored number's is what Go's encoder writes, which is JavaScript's shortest form
    // (1.5, 2, 1e-7, 1e+21): 1.5 passes against 1.5, 2.0 fails against 2.
    return String(actual) === want[writtenNumberKey];
  }
  if (isMap(actual)) {
    if (!isMap(want)) return false;
    for (const key of Object.keys(actual)) {
      if (!hasOwn(want, key)) return false;
      const a = actual[key];
      const w = want[key];
      if (a === null && w === null) continue;
      // One side null: the library dereferences a nil node and panics; no match here.
      if (a === null || w === null || !testEqual(a, w)) return false;
    }
    return true;
  }
  if (Array.isArray(actual)) {
    if (!Array.isArray(want) || want.length !== actual.length) return false;
    return actual.every((item, i) => testEqual(item, want[i]));
  }
  return actual === want;
}

/** `written`: a test's value with its strings as written (testValuesAsWritten), when any differs. */
function applyOne(doc: JsonMap, op: JsonMap | null, written: unknown): JsonMap {
  const kind = op !== null && typeof op.op === 'string' ? op.op : 'unknown';
  if (op === null) throw new ApplyFailure(`Unexpected kind: ${kind}`);
  switch (kind) {
    case 'add':
      add(findParent(doc, pathOf(op, 'path')), valueOf(op));
      return doc;
    case 'remove':
      remove(findParent(doc, pathOf(op, 'path')));
      return doc;
    case 'replace': {
      const path = pathOf(op, 'path');
      if (path === '') {
        const v = valueOf(op);
        if (!isContainer(v)) throw new ApplyFailure('replace operation value must be object or array');
        if (!isMap(v)) throw new DocumentNotObject(v);
        return v;
      }
      const t = findParent(doc, path);
      if (!read(t).found) throw new ApplyFailure(`replace operation does not apply: doc is missing key: ${path}`);
      if (Array.isArray(t.parent)) t.parent[arrayIndex(t.key, t.parent.length, false)] = valueOf(op);
      else setOwn(t.parent, t.key, valueOf(op));
      return doc;
    }
    case 'move': {
      const value = remove(findParent(doc, pathOf(op, 'from')));
      // The destination is resolved in the document as it is after the removal.
      add(findParent(doc, pathOf(op, 'path')), value);
      return doc;
    }
    case 'copy': {
      const src = read(findParent(doc, pathOf(op, 'from')));
      if (!src.found) throw new ApplyFailure('copy operation does not apply: doc is missing from path');
      add(findParent(doc, pathOf(op, 'path')), deepClone(src.value));
      return doc;
    }
    case 'test': {
      const path = pathOf(op, 'path');
      // A test changes nothing: its value is not copied.
      const want = written !== undefined ? written : valueOf(op);
      if (path === '') {
        if (!testEqual(doc, want)) throw new ApplyFailure(`testing value ${path} failed`);
        return doc;
      }
      const got = read(findParent(doc, path));
      const actual = got.found ? got.value : null;
      if (actual === null || want === null ? actual !== want : !testEqual(actual, want)) {
        throw new ApplyFailure(`testing value ${path} failed`);
      }
      return doc;
    }
    default:
      throw new ApplyFailure(`Unexpected kind: ${kind}`);
  }
}

/**
 * Applies a JSON patch. `patch` is the raw request body (string or bytes) or the decoded
 * operation list. Neither input is modified.
 */
export function applyJsonPatch(original: JsonMap, patch: unknown): JsonMap {
  const ops = decodeOperations(patch);
  if (ops.length > maxJSONPatchOperations) throw patchErrors.tooManyOperations(ops.length);
  let doc = deepClone(original);
  const text = typeof patch === 'string' ? patch : patch instanceof Uint8Array ? Buffer.from(patch).toString('utf8') : undefined;
  const written = text !== undefined ? testValuesAsWritten(text, ops) : undefined;
  try {
    ops.forEach((op, i) => { doc = applyOne(doc, op, written?.[i]); });
  } catch (e) {
    if (e instanceof ApplyFailure) throw patchErrors.unprocessable();
    if (e instanceof DocumentNotObject) throw patchErrors.undecodable(JSON.stringify(e.document), notAnObjectDetail('array'));
    throw e;
  }
  return doc;
}
