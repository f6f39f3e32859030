// Where a JSON or merge patch's float-written numbers (`3.0`) land in the patched object:
// upstream's patch libraries keep a patch value's raw JSON, so the typed decode of the
// result meets `3.0` as written and refuses it for an integer field. A JSON patch's `test`
// compares a number as written too (evanphx/json-patch v4 compares scalars' compacted
// bytes): `3.0` is not the stored `3`, but is the `3.0` an earlier operation put.
import { applyJsonPatch, writtenNumber as marker, writtenNumberKey as markerKey } from '../../apis/meta/patch/index.js';
import type { FloatLiteral } from '../../openapi/float-literals.js';
import { isPlainObject } from '../../runtime/object.js';
import { floatLiterals } from '../fieldvalidation/index.js';

/**
 * The float literals of the patched object, for a current object; `patch` is read once.
 * Throws the patch's 422 when a JSON patch's test fails on a literal's text.
 */
export type PatchResultFloats = (current: Record<string, unknown>) => FloatLiteral[];

export function patchResultFloats(patchType: 'json' | 'merge', patch: string): PatchResultFloats {
  const floats = floatLiterals(patch);
  // A merge patch's literal sits in the result where it sits in the patch.
  if (patchType === 'merge' || floats.length === 0) return () => floats;
  let ops: unknown[] | undefined;
  return (current) => {
    ops ??= markedOperations(patch, floats);
    return ops.length === 0 ? [] : whereMarksLand(current, ops);
  };
}

/**
 * The JSON patch's operations with a marker object in place of each literal an add, a
 * replace or a test carries, so applying them shows where every literal ends up: under an
 * append (`-`), shifted by later inserts, moved or copied; and a test compares a literal
 * by its text, equal only to a marker of the same text.
 */
function markedOperations(patch: string, floats: FloatLiteral[]): unknown[] {
  let ops: unknown;
  try {
    ops = JSON.parse(patch);
  } catch {
    return [];
  }
  if (!Array.isArray(ops)) return [];
  let placed = 0;
  for (const f of floats) {
    const [index, field, ...rest] = f.path;
    const op: unknown = ops[index as number];
    if (field !== 'value' || !isPlainObject(op) || (op.op !== 'add' && op.op !== 'replace' && op.op !== 'test')) continue;
    // A long integer's text is the stored number's own (Go writes an int64 so): compared as a number.
    if (op.op === 'test' && !/[.eE]/.test(f.text)) continue;
    if (rest.length === 0) {
      op.value = marker(f.text);
      placed++;
      continue;
    }
    let holder: unknown = op.value;
    for (const key of rest.slice(0, -1)) holder = isObject(holder) ? holder[key] : undefined;
    if (!isObject(holder)) continue;
    holder[rest[rest.length - 1]] = marker(f.text);
    placed++;
  }
  return placed > 0 ? ops : [];
}

function isObject(v: unknown): v is Record<string | number, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Only a test can fail here where the patch itself applied: one that meets a literal of another text, as upstream's does. */
function whereMarksLand(current: Record<string, unknown>, ops: unknown[]): FloatLiteral[] {
  const result = applyJsonPatch(current, ops);
  const out: FloatLiteral[] = [];
  const walk = (v: unknown, path: Array<string | number>): void => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i]));
    } else if (isPlainObject(v)) {
      const text = v[markerKey];
      if (typeof text === 'string' && Object.keys(v).length === 1) out.push({ path, text });
      else for (const key of Object.keys(v)) walk(v[key], [...path, key]);
    }
  };
  walk(result, []);
  return out;
}
