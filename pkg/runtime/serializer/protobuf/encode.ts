// JSON to protobuf, byte-exact with upstream's encoder: fields in number order, map
// entries sorted by key, Go value fields written even when zero, pointers, slices and
// maps only when set. Each message gets a generated encoder on first use.
import { Writer } from './wire.js';
import type { ScalarType } from './schema.js';
import { childOf, planOf, scalarZero, wireOf, type Field, type Plan } from './plan.js';
import { isObj, num, ProtobufShapeError, type Json } from './values.js';

const zeroTimeTypes = new Set(['k8s.io.apimachinery.pkg.apis.meta.v1.Time', 'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime']);

function encodePlan(w: Writer, plan: Plan, v: unknown): void {
  (plan.encode ??= compileEncoder(plan))(w, v);
}
const emptyObject: Json = Object.freeze({}) as Json;

/**
 * Generates an encoder for one message: its fields in number order with constant
 * property names, strings and nested messages written inline; everything else
 * (maps, other scalars, absent value fields) goes through encodeField's rules.
 */
function compileEncoder(plan: Plan): (w: Writer, v: unknown) => void {
  if (plan.special) {
    const sp = plan.special;
    return (w, v) => sp.encode(w, v, encodeInto);
  }
  const lines: string[] = ['const o = H.obj(v);', 'let x;'];
  plan.wire.forEach((f) => {
    const i = plan.json.indexOf(f);
    const get = f.i ? 'o' : `o[${JSON.stringify(f.j)}]`;
    lines.push(`x = ${get};`);
    if (!f.r && f.t === 'msg') {
      // A set pointer to a zero Time is served as null and stored as an empty message
      // (absent is a nil pointer): a null in a time field is written, empty.
      const written = f.a ? 'true' : zeroTimeTypes.has(f.m ?? '') ? 'x !== undefined' : 'x != null';
      lines.push(`if (${written}) { w.uint32(${f.tag}).fork(); H.enc(w, F[${i}], x); w.ldelim(); }`);
    } else if (!f.r && f.t === 'string') {
      lines.push(`if (typeof x === 'string') w.uint32(${f.tag}).string(x); else H.field(w, F[${i}], x);`);
    } else if (f.r === 1 && f.t === 'msg') {
      lines.push(`if (Array.isArray(x)) for (let k = 0; k < x.length; k++) { w.uint32(${f.tag}).fork(); H.enc(w, F[${i}], x[k]); w.ldelim(); }`);
    } else {
      lines.push(`H.field(w, F[${i}], x);`);
    }
  });
  const fn = new Function('w', 'v', 'F', 'H', lines.join('\n')) as (w: Writer, v: unknown, F: Field[], H: EncodeHelpers) => void;
  const fields = plan.json;
  return (w, v) => fn(w, v, fields, encodeHelpers);
}

interface EncodeHelpers {
  obj(v: unknown): Json;
  enc(w: Writer, f: Field, v: unknown): void;
  field(w: Writer, f: Field, v: unknown): void;
}

const encodeHelpers: EncodeHelpers = {
  obj: (v) => (isObj(v) ? v : emptyObject),
  enc: (w, f, v) => encodePlan(w, childOf(f), v),
  field: encodeField,
};

function writeScalar(w: Writer, t: ScalarType, v: unknown, what: string): void {
  switch (t) {
    case 'string':
      if (typeof v !== 'string') throw new ProtobufShapeError(`expected a string for ${what}, got ${JSON.stringify(v)}`);
      w.string(v); return;
    case 'bytes':
      if (typeof v !== 'string') throw new ProtobufShapeError(`expected base64 text for ${what}`);
      w.bytes(Buffer.from(v, 'base64')); return;
    case 'bool':
      if (typeof v !== 'boolean') throw new ProtobufShapeError(`expected a boolean for ${what}, got ${JSON.stringify(v)}`);
      w.bool(v); return;
    case 'int32': w.int32(num(v, what)); return;
    case 'uint32': w.uint32(num(v, what)); return;
    case 'int64': w.int64(num(v, what)); return;
    case 'uint64': w.uint64(num(v, what)); return;
    case 'double': w.double(num(v, what)); return;
    case 'float': w.float(num(v, what)); return;
  }
}

/** Go sorts map keys bytewise; for the BMP that is UTF-16 order. */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function writeMessage(w: Writer, tag: number, plan: Plan, v: unknown): void {
  w.uint32(tag).fork();
  encodePlan(w, plan, v);
  w.ldelim();
}

function encodeField(w: Writer, f: Field, v: unknown): void {
  if (f.r === 2) {
    if (!isObj(v)) return;
    const keys = Object.keys(v);
    if (keys.length > 1) keys.sort(byKey);
    for (const key of keys) {
      const value = v[key];
      w.uint32(f.tag).fork();
      w.uint32((1 << 3) | wireOf(f.k!));
      writeScalar(w, f.k!, f.k === 'string' ? key : Number(key), f.j);
      if (f.t === 'msg') writeMessage(w, 18, childOf(f), value);
      else if (value !== null && value !== undefined) {
        w.uint32((2 << 3) | wireOf(f.t));
        writeScalar(w, f.t, value, `${f.j}[${key}]`);
      }
      w.ldelim();
    }
    return;
  }
  if (f.r === 1) {
    if (!Array.isArray(v)) return;
    if (f.t === 'msg') {
      const child = childOf(f);
      for (let i = 0; i < v.length; i++) writeMessage(w, f.tag, child, v[i]);
    } else {
      for (let i = 0; i < v.length; i++) { w.uint32(f.tag); writeScalar(w, f.t, v[i], f.j); }
    }
    return;
  }
  if (v === undefined || v === null) {
    if (!f.a) return;
    if (f.t === 'msg') writeMessage(w, f.tag, childOf(f), undefined);
    else { w.uint32(f.tag); writeScalar(w, f.t, scalarZero[f.t], f.j); }
    return;
  }
  if (f.t === 'msg') writeMessage(w, f.tag, childOf(f), v);
  else if (f.t === 'string' && typeof v === 'string') w.uint32(f.tag).string(v);
  else { w.uint32(f.tag); writeScalar(w, f.t, v, f.j); }
}

/** Writes the fields of message `type` taken from JSON value `v` (no tag, no length). */
export function encodeInto(w: Writer, type: string, v: unknown): void {
  encodePlan(w, planOf(type), v);
}

export function encodeMessage(type: string, v: unknown): Uint8Array {
  const w = Writer.create();
  encodeInto(w, type, v);
  return w.finish();
}
