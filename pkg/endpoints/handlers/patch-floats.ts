// Where a JSON or merge patch's float-written numbers (`3.0`) land in the patched object:
// upstream's patch libraries keep a patch value's raw JSON, so the typed decode of the
// result meets `3.0` as written and refuses it for an integer field.
import { applyJsonPatch } from '../../apis/meta/patch/index.js';
import type { FloatLiteral } from '../../openapi/float-literals.js';
import { isPlainObject } from '../../runtime/object.js';
import { floatLiterals } from '../fieldvalidation/index.js';

/** The float literals of the patched object, for a current object; `patch` is read once. */
export type PatchResultFloats = (current: Record<string, unknown>) => FloatLiteral[];

export function patchResultFloats(patchType: 'json' | 'merge', patch: string): PatchResultFloats {
  const floats = floatLiterals(patch);
  // A merge patch's literal sits in the result where it sits in the patch.
  if (patchType === 'merge' || floats.length === 0) return () => floats;
  let ops: unknown[] | undefined;
  return (current) => {
    ops ??= markedOperations(patch, floats);
    return ops.length === 0 ? [] : whereMarksLand(current, ops, floats);
  };
}

/**
 * The JSON patch's operations with a marker object in place of each literal an add or a
 * replace puts (a test's value puts nothing), so applying them shows where every literal
 * ends up: under an append (`-`), shifted by later inserts, moved or copied.
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
  floats.forEach((f, n) => {
    const [index, field, ...rest] = f.path;
    const op: unknown = ops[index as number];
    if (field !== 'value' || !isPlainObject(op) || (op.op !== 'add' && op.op !== 'replace')) return;
    if (rest.length === 0) {
      op.value = marker(n);
      placed++;
      return;
    }
    let holder: unknown = op.value;
    for (const key of rest.slice(0, -1)) holder = isObject(holder) ? holder[key] : undefined;
    if (!isObject(holder)) return;
    holder[rest[rest.length - 1]] = marker(n);
    placed++;
  });
  return placed > 0 ? ops : [];
}

const markerKey = '\u0000float literal';

function marker(n: number): Record<string, number> {
  return { [markerKey]: n };
}

function isObject(v: unknown): v is Record<string | number, unknown> {
  return typeof v === 'object' && v !== null;
}

function whereMarksLand(current: Record<string, unknown>, ops: unknown[], floats: FloatLiteral[]): FloatLiteral[] {
  let result: unknown;
  try {
    result = applyJsonPatch(current, ops);
  } catch {
    // Only a test meeting a marker fails where the patch itself applied: its literals go unmarked.
    return [];
  }
  const out: FloatLiteral[] = [];
  const walk = (v: unknown, path: Array<string | number>): void => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i]));
    } else if (isPlainObject(v)) {
      const n = v[markerKey];
      if (typeof n === 'number' && Object.keys(v).length === 1) out.push({ path, text: floats[n].text });
      else for (const key of Object.keys(v)) walk(v[key], [...path, key]);
    }
  };
  walk(result, []);
  return out;
}
