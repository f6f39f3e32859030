// Whether two JSON-form objects of one message certainly encode to different bytes, found
// without encoding either. An update compares what it would write with the stored object's
// bytes (a no-op is not written); when the stored object is the watch cache's copy, which
// keeps no bytes, that meant encoding the copy again on every update. Equal bytes decode to
// equal fields, so a string both objects set, at the same place, to different values
// (well-formed UTF-16: a lone surrogate encodes as U+FFFD) proves the bytes differ. Only
// what the encoder writes as it is counts: strings of plain, nested, repeated and
// string-keyed map fields. Anything else (numbers, bytes, times, absent fields) says
// nothing, and the caller encodes.
import { planOf, type Field } from './plan.js';
import { isObj } from './values.js';

type WellFormed = string & { isWellFormed(): boolean };

/** Fields not looked at, by message name: JSON names. */
export type IgnoredFields = ReadonlyMap<string, ReadonlySet<string>>;

/** True only when the encoder would write `a` and `b` (JSON of message `type`) differently. */
export function encodingsSurelyDiffer(type: string, a: unknown, b: unknown, ignored: IgnoredFields = new Map()): boolean {
  return messagesDiffer(type, a, b, ignored);
}

function messagesDiffer(type: string, a: unknown, b: unknown, ignored: IgnoredFields): boolean {
  if (a === b || !isObj(a) || !isObj(b)) return false;
  const plan = planOf(type);
  if (plan.special) return false;
  const fields = plan.wire;
  const skip = ignored.get(type);
  // Last field first: the metadata, first, is seldom what an update changes.
  for (let i = fields.length - 1; i >= 0; i--) {
    const f = fields[i]!;
    if (skip !== undefined && skip.has(f.j)) continue;
    if (f.i) {
      if (messagesDiffer(f.m!, a, b, ignored)) return true;
      continue;
    }
    const x = a[f.j];
    const y = b[f.j];
    if (x !== y && fieldDiffers(f, x, y, ignored)) return true;
  }
  return false;
}

function fieldDiffers(f: Field, x: unknown, y: unknown, ignored: IgnoredFields): boolean {
  if (f.r === 2) {
    if (f.k !== 'string' || !isObj(x) || !isObj(y)) return false;
    for (const key of Object.keys(x)) {
      if (!Object.prototype.hasOwnProperty.call(y, key)) continue;
      if (f.t === 'msg' ? messagesDiffer(f.m!, x[key], y[key], ignored) : f.t === 'string' && stringsDiffer(x[key], y[key])) return true;
    }
    return false;
  }
  if (f.r === 1) {
    if (!Array.isArray(x) || !Array.isArray(y)) return false;
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) {
      if (f.t === 'msg' ? messagesDiffer(f.m!, x[i], y[i], ignored) : f.t === 'string' && stringsDiffer(x[i], y[i])) return true;
    }
    return false;
  }
  if (f.t === 'msg') return messagesDiffer(f.m!, x, y, ignored);
  return f.t === 'string' && stringsDiffer(x, y);
}

function stringsDiffer(x: unknown, y: unknown): boolean {
  return typeof x === 'string' && typeof y === 'string' && x !== y
    && (x as WellFormed).isWellFormed() && (y as WellFormed).isWellFormed();
}
