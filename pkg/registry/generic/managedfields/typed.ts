// Schema-aware operations on object values, as structured-merge-diff performs them:
// the field set a value sets, the comparison of two values (added, modified, removed
// paths), the merge of an applied configuration into a live object, removal of items
// named by a set, and the checks an applied configuration must pass.
import type { PatchSchema } from '../../../apis/meta/patch-schema.js';
import { isPlainObject } from '../../../runtime/object.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { elementKey, field, keyElement, pathString, type Path, type PathElement } from './path.js';
import { FieldSet } from './set.js';
import { childSchema, isGranular, isNamedField, shapeOf, type Shape } from './shape.js';

type Obj = Record<string, unknown>;

/** A value that does not fit the schema; `path` in smd's form (`.spec.ports`). */
export class TypedValueError extends Error {
  constructor(readonly path: string, readonly detail: string) {
    super(`${path}: ${detail}`);
  }
}

/** The element naming item `i` of a granular list. */
export function itemElement(sh: Extract<Shape, { k: 'list' }>, item: unknown, i: number, path: Path): PathElement {
  if (sh.rel === 'map') {
    if (item === null) throw new TypedValueError(pathString(path), `element ${i}: associative list with keys may not have a null element`);
    if (!isPlainObject(item)) throw new TypedValueError(pathString(path), `element ${i}: associative list with keys may not have non-map elements`);
    const fields: Array<[string, unknown]> = [];
    for (const k of sh.keys) {
      if (!Object.prototype.hasOwnProperty.call(item, k)) {
        throw new TypedValueError(pathString(path),
          `element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
      }
      fields.push([k, item[k]]);
    }
    return keyElement(fields);
  }
  if (sh.rel === 'set') {
    if (item === null) throw new TypedValueError(pathString(path), `element ${i}: associative list without keys has an element that's an explicit null`);
    if (isPlainObject(item)) throw new TypedValueError(pathString(path), `element ${i}: associative list without keys has an element that's a map type`);
    return { kind: 'value', value: item };
  }
  return { kind: 'index', index: i };
}

function isContainerFor(sh: Shape, v: unknown): boolean {
  if (sh.k === 'list') return Array.isArray(v);
  if (sh.k === 'struct' || sh.k === 'map') return isPlainObject(v);
  return false;
}

// ---- field sets ----

/** The paths a value sets (smd's ToFieldSet): leaves, list items, and map keys. */
export function toFieldSet(v: unknown, schema: PatchSchema | undefined): FieldSet {
  const set = new FieldSet();
  collect(v, schema, [], set);
  return set;
}

function collect(v: unknown, schema: PatchSchema | undefined, path: Path, set: FieldSet): void {
  const sh = shapeOf(schema, v);
  if (!isGranular(sh) || !isContainerFor(sh, v)) {
    set.insert(path);
    return;
  }
  if (sh.k === 'list') {
    (v as unknown[]).forEach((item, i) => {
      const p = [...path, itemElement(sh, item, i, path)];
      collect(item, sh.item, p, set);
      set.insert(p);
    });
    return;
  }
  for (const [k, child] of Object.entries(v as Obj)) {
    const p = [...path, field(k)];
    collect(child, childSchema(sh, k), p, set);
    if (child === null || (isPlainObject(child) && Object.keys(child).length === 0) || !isNamedField(sh, k)) set.insert(p);
  }
}

// ---- comparison ----

const hasOwn = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Absent, null, or an empty list or object: smd compares two such values as leaves. */
function isEmptyOrAbsent(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);
}

export interface Comparison { added: FieldSet; modified: FieldSet; removed: FieldSet }

/** What changes from `lhs` to `rhs` (smd's Compare). */
export function compare(lhs: unknown, rhs: unknown, schema: PatchSchema | undefined): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareAt(lhs, rhs, schema, [], out);
  return out;
}

function indexItems(sh: Extract<Shape, { k: 'list' }>, list: unknown[], path: Path): Map<string, { pe: PathElement; item: unknown }> {
  const m = new Map<string, { pe: PathElement; item: unknown }>();
  list.forEach((item, i) => {
    const pe = itemElement(sh, item, i, path);
    const k = elementKey(pe);
    // Duplicates in a live object: the first one stands for the key.
    if (!m.has(k)) m.set(k, { pe, item });
  });
  return m;
}

function compareAt(l: unknown, r: unknown, schema: PatchSchema | undefined, path: Path, out: Comparison): void {
  const sh = shapeOf(schema, r !== undefined ? r : l);
  // A null container (a nil slice or map of the Go zero value) compares as an empty one.
  const lOk = l === undefined || l === null || isContainerFor(sh, l);
  const rOk = r === undefined || r === null || isContainerFor(sh, r);
  if (!isGranular(sh) || !lOk || !rOk || (isEmptyOrAbsent(l) && isEmptyOrAbsent(r))) {
    if (l === undefined) out.added.insert(path);
    else if (r === undefined) out.removed.insert(path);
    else if (!deepEqual(l, r)) out.modified.insert(path);
    return;
  }
  if (sh.k === 'list') {
    const li = indexItems(sh, (l as unknown[] | null | undefined) ?? [], path);
    const ri = indexItems(sh, (r as unknown[] | null | undefined) ?? [], path);
    const keys = new Set([...li.keys(), ...ri.keys()]);
    for (const k of keys) {
      const pe = (li.get(k) ?? ri.get(k))!.pe;
      path.push(pe);
      compareAt(li.get(k)?.item, ri.get(k)?.item, sh.item, path, out);
      path.pop();
    }
  } else {
    // Every write compares its whole object (a create with the kind's zero value): the
    // keys of both sides are walked without building their union, left's first, on one
    // path array (a set keeps a path's elements, not the array).
    const lo = (l as Obj | null | undefined) ?? {};
    const ro = (r as Obj | null | undefined) ?? {};
    for (const k of Object.keys(lo)) {
      const rv = hasOwn(ro, k) ? ro[k] : undefined;
      path.push(field(k));
      compareAt(lo[k], rv, childSchema(sh, k), path, out);
      path.pop();
    }
    for (const k of Object.keys(ro)) {
      if (hasOwn(lo, k)) continue;
      path.push(field(k));
      compareAt(undefined, ro[k], childSchema(sh, k), path, out);
      path.pop();
    }
  }
  if (path.length === 0) return;
  if (l === undefined) out.added.insert(path);
  else if (r === undefined) out.removed.insert(path);
}

// ---- merge ----

/** Merges an applied configuration into a live value (smd's Merge). Inputs are not modified. */
export function merge(live: unknown, config: unknown, schema: PatchSchema | undefined, path: Path = []): unknown {
  if (config === undefined) return structuredClone(live);
  if (live === undefined) return structuredClone(config);
  const sh = shapeOf(schema, config);
  if (!isGranular(sh) || !isContainerFor(sh, live) || !isContainerFor(sh, config)) return structuredClone(config);
  if (sh.k === 'list') return mergeLists(sh, live as unknown[], config as unknown[], path);
  const out: Obj = structuredClone(live as Obj);
  for (const [k, v] of Object.entries(config as Obj)) {
    const cur = Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined;
    out[k] = merge(cur, v, childSchema(sh, k), [...path, field(k)]);
  }
  return out;
}

/**
 * Items are matched by their key; the result keeps the configuration's order for its
 * items, and live-only items where they stood relative to the shared ones.
 */
function mergeLists(sh: Extract<Shape, { k: 'list' }>, live: unknown[], config: unknown[], path: Path): unknown[] {
  const lpe = live.map((item, i) => elementKey(itemElement(sh, item, i, path)));
  const rpe = config.map((item, i) => itemElement(sh, item, i, path));
  const rkeys = rpe.map(elementKey);
  const liveByKey = new Map<string, unknown>();
  lpe.forEach((k, i) => { if (!liveByKey.has(k)) liveByKey.set(k, live[i]); });
  const inConfig = new Set(rkeys);
  const inLive = new Set(lpe);
  const shared = rkeys.filter((k) => inLive.has(k));
  const out: unknown[] = [];
  const emitted = new Set<string>();
  const emitConfig = (ri: number): void => {
    const k = rkeys[ri];
    if (emitted.has(k)) return;
    emitted.add(k);
    out.push(merge(liveByKey.get(k), config[ri], sh.item, [...path, rpe[ri]]));
  };
  let li = 0;
  let ri = 0;
  let nextShared = 0;
  while (li < lpe.length || ri < rkeys.length) {
    if (li < lpe.length) {
      const k = lpe[li];
      if (emitted.has(k)) { li++; continue; }
      if (!inConfig.has(k)) {
        emitted.add(k);
        out.push(structuredClone(live[li]));
        li++;
        continue;
      }
      // A shared item waits until the configuration reaches it, in the configuration's order.
      if (ri < rkeys.length && rkeys[ri] === k) {
        emitConfig(ri);
        ri++;
        li++;
        if (shared[nextShared] === k) nextShared++;
        continue;
      }
      if (shared[nextShared] !== k) { li++; continue; }
    }
    if (ri < rkeys.length) {
      const k = rkeys[ri];
      emitConfig(ri);
      if (shared[nextShared] === k) nextShared++;
      ri++;
      continue;
    }
    li++;
  }
  return out;
}

// ---- removal ----

/** Removes the items and fields named as members of `set`; containers emptied by it go too. */
export function removeItems(v: unknown, set: FieldSet, schema: PatchSchema | undefined, path: Path = []): unknown {
  if (set.isEmpty()) return v;
  const sh = shapeOf(schema, v);
  if (!isGranular(sh) || !isContainerFor(sh, v)) return v;
  if (sh.k === 'list') {
    const out: unknown[] = [];
    (v as unknown[]).forEach((item, i) => {
      const pe = itemElement(sh, item, i, path);
      if (set.hasMember(pe)) return;
      const sub = set.child(pe);
      out.push(sub ? removeItems(item, sub, sh.item, [...path, pe]) : item);
    });
    return out;
  }
  const out: Obj = {};
  for (const [k, child] of Object.entries(v as Obj)) {
    const pe = field(k);
    if (set.hasMember(pe)) continue;
    const sub = set.child(pe);
    if (!sub) { out[k] = child; continue; }
    const next = removeItems(child, sub, childSchema(sh, k), [...path, pe]);
    // Go omits empty maps and lists on output; structs stay.
    const csh = shapeOf(childSchema(sh, k), child);
    const emptied = (Array.isArray(next) && next.length === 0 && !(Array.isArray(child) && child.length === 0))
      || (csh.k === 'map' && isPlainObject(next) && Object.keys(next).length === 0 && Object.keys(child as Obj).length > 0);
    if (!emptied) out[k] = next;
  }
  return out;
}

/** Adds, as members, the struct fields under which `set` has children (smd's EnsureNamedFieldsAreMembers). */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: PatchSchema | undefined): FieldSet {
  const out = new FieldSet();
  for (const pe of set.memberElements()) out.addMember(pe);
  const sh = schema ? shapeOf(schema, undefined) : undefined;
  for (const pe of set.childElements()) {
    let cs: PatchSchema | undefined;
    if (pe.kind === 'field') {
      if (sh && isNamedField(sh, pe.name)) out.addMember(pe);
      cs = sh ? childSchema(sh, pe.name) : undefined;
    } else {
      cs = sh?.k === 'list' ? sh.item : undefined;
    }
    out.setChild(pe, ensureNamedFieldsAreMembers(set.child(pe)!, cs));
  }
  return out;
}

// ---- checks on an applied configuration ----

/** The smd errors a configuration raises when typed: undeclared fields, bad list items. */
export function validateTyped(v: unknown, schema: PatchSchema | undefined): string[] {
  const errs: string[] = [];
  check(v, schema, [], errs);
  return errs;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return `&value.valueUnstructured{Value:${JSON.stringify(v)}}`;
  if (v === null) return '&value.valueUnstructured{Value:interface {}(nil)}';
  if (isPlainObject(v)) return '&value.valueUnstructured{Value:map[string]interface {}{...}}';
  if (Array.isArray(v)) return '&value.valueUnstructured{Value:[]interface {}{...}}';
  return `&value.valueUnstructured{Value:${String(v)}}`;
}

function check(v: unknown, schema: PatchSchema | undefined, path: Path, errs: string[]): void {
  if (v === null || v === undefined || !schema) return;
  const sh = shapeOf(schema, v);
  const at = pathString(path);
  if (sh.k === 'scalar') {
    const t = schema.type;
    if (isPlainObject(v) || Array.isArray(v)) {
      if (t === 'string') errs.push(`${at}: expected string, got ${describe(v)}`);
      else if (t === 'integer' || t === 'number') errs.push(`${at}: expected numeric (int or float), got ${describe(v)}`);
      else if (t === 'boolean') errs.push(`${at}: expected boolean, got ${describe(v)}`);
    }
    return;
  }
  if (sh.k === 'list') {
    if (!Array.isArray(v)) { errs.push(`${at}: expected list, got ${describe(v)}`); return; }
    const seen = new Set<string>();
    v.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = itemElement(sh.rel === 'atomic' ? { ...sh, rel: 'atomic' } : sh, item, i, path);
      } catch (err) {
        errs.push((err as Error).message);
        return;
      }
      const k = elementKey(pe);
      if (sh.rel !== 'atomic') {
        if (seen.has(k)) errs.push(`${at}: duplicate entries for key ${pathString([pe])}`);
        seen.add(k);
      }
      check(item, sh.item, [...path, pe], errs);
    });
    return;
  }
  if (!isPlainObject(v)) { errs.push(`${at}: expected map, got ${describe(v)}`); return; }
  for (const [k, child] of Object.entries(v)) {
    if (sh.k === 'struct' && !isNamedField(sh, k)) {
      errs.push(`${pathString([...path, field(k)])}: field not declared in schema`);
      continue;
    }
    check(child, childSchema(sh, k), [...path, field(k)], errs);
  }
}

export { keyElement };
