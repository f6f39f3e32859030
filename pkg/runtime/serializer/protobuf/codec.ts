// Converts between the JSON form of an API object (what the rest of the server holds) and
// upstream's protobuf message, walking the generated descriptors. Byte-exact with
// upstream's encoder: fields in number order, map entries sorted by key, Go value fields
// written even when zero, pointers, slices and maps only when set. Decoding gives the JSON
// upstream's Go structs would marshal to (omitempty honoured, structs always present).
import { Reader, Writer } from './wire.js';
import { formatGoDuration, formatRFC3339, goZeroTimeSeconds, parseGoDuration, parseRFC3339 } from './gotime.js';
import { messageFields, type FieldDesc, type ScalarType } from './schema.js';

type Json = Record<string, unknown>;

/** A JSON value that does not fit the message's field (wrong type, malformed time...). */
export class ProtobufShapeError extends Error {}

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const apiext = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions';

/** Messages whose JSON form is not their field list (custom MarshalJSON upstream). */
interface SpecialCodec {
  encode(w: Writer, v: unknown): void;
  decode(r: Reader, end: number): unknown;
  /** JSON of the Go zero value, for a value field that was never written. */
  zero: unknown;
}

const wireOf = (t: ScalarType | 'msg'): number => {
  switch (t) {
    case 'string': case 'bytes': case 'msg': return 2;
    case 'double': return 1;
    case 'float': return 5;
    default: return 0;
  }
};

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJsonBytes(b: Buffer): unknown {
  if (b.length === 0) return null;
  return JSON.parse((b as Buffer & { utf8Slice(s: number, e: number): string }).utf8Slice(0, b.length));
}

function readLen(r: Reader): number {
  const len = r.uint32();
  return r.pos + len;
}

function num(v: unknown, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new ProtobufShapeError(`expected a number for ${what}, got ${JSON.stringify(v)}`);
}


function timeCodec(fractionDigits: number): SpecialCodec {
  return {
    zero: null,
    encode(w, v) {
      if (v === null || v === undefined || v === '') return;
      if (typeof v !== 'string') throw new ProtobufShapeError(`expected an RFC 3339 time, got ${JSON.stringify(v)}`);
      const t = parseRFC3339(v);
      if (!t) throw new ProtobufShapeError(`parsing time ${JSON.stringify(v)} as RFC 3339`);
      if (t.seconds === goZeroTimeSeconds && t.nanos === 0) return;
      w.uint32(8).int64(t.seconds);
      w.uint32(16).int32(t.nanos);
    },
    decode(r, end) {
      let seconds = 0;
      let nanos = 0;
      let any = false;
      while (r.pos < end) {
        const tag = r.uint32();
        any = true;
        if (tag === 8) seconds = r.int64();
        else if (tag === 16) nanos = r.int32();
        else r.skipType(tag & 7);
      }
      if (!any) return null;
      return formatRFC3339({ seconds, nanos }, fractionDigits);
    },
  };
}

/** A message of one repeated string (Go: a named []string) whose JSON is the array. */
const stringListCodec: SpecialCodec = {
  zero: null,
  encode(w, v) {
    if (!Array.isArray(v)) return;
    for (const s of v) w.uint32(10).string(String(s));
  },
  decode(r, end) {
    const out: string[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 10) out.push(r.string());
      else r.skipType(tag & 7);
    }
    return out;
  },
};

/** A message holding JSON text in field 1 (FieldsV1, RawExtension, apiextensions JSON). */
const rawJsonCodec: SpecialCodec = {
  zero: null,
  encode(w, v) {
    if (v === undefined || v === null) return;
    // A string field and a bytes field are the same on the wire.
    w.uint32(10).string(JSON.stringify(v));
  },
  decode(r, end) {
    let out: unknown = null;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 10) out = parseJsonBytes(r.bytes());
      else r.skipType(tag & 7);
    }
    return out;
  },
};

/** JSON-schema unions of apiextensions: an object (field 1), else the alternative (field 2). */
function schemaUnionCodec(pkg: string, alternative: 'bool' | 'schemas' | 'strings'): SpecialCodec {
  const props = `${pkg}.JSONSchemaProps`;
  return {
    zero: null,
    encode(w, v) {
      if (alternative === 'bool') {
        if (typeof v === 'boolean') { w.uint32(8).bool(v); return; }
        w.uint32(8).bool(true);
        if (isObj(v)) encodeNested(w, 2, props, v);
        return;
      }
      if (isObj(v)) { encodeNested(w, 1, props, v); return; }
      if (!Array.isArray(v)) return;
      for (const item of v) {
        if (alternative === 'strings') w.uint32(18).string(String(item));
        else encodeNested(w, 2, props, item);
      }
    },
    decode(r, end) {
      let schema: unknown;
      let allows = false;
      const list: unknown[] = [];
      while (r.pos < end) {
        const tag = r.uint32();
        if (alternative === 'bool' && tag === 8) allows = r.bool();
        else if (tag === (alternative === 'bool' ? 18 : 10)) schema = decodeMessage(r, readLen(r), props);
        else if (tag === 18 && alternative === 'strings') list.push(r.string());
        else if (tag === 18 && alternative === 'schemas') list.push(decodeMessage(r, readLen(r), props));
        else r.skipType(tag & 7);
      }
      if (schema !== undefined) return schema;
      return alternative === 'bool' ? allows : list.length > 0 ? list : null;
    },
  };
}

const special = new Map<string, SpecialCodec>([
  [`${meta}.Time`, timeCodec(0)],
  [`${meta}.MicroTime`, timeCodec(6)],
  [`${meta}.Duration`, {
    zero: '0s',
    encode(w, v) {
      const n = typeof v === 'string' ? parseGoDuration(v) : typeof v === 'number' ? v : 0;
      if (n === undefined) throw new ProtobufShapeError(`time: invalid duration ${JSON.stringify(v)}`);
      w.uint32(8).int64(n);
    },
    decode(r, end) {
      let n = 0;
      while (r.pos < end) {
        const tag = r.uint32();
        if (tag === 8) n = r.int64(); else r.skipType(tag & 7);
      }
      return formatGoDuration(n);
    },
  }],
  [`${meta}.FieldsV1`, rawJsonCodec],
  [`${meta}.Verbs`, stringListCodec],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', rawJsonCodec],
  ['k8s.io.apimachinery.pkg.api.resource.Quantity', {
    zero: '0',
    encode(w, v) {
      w.uint32(10).string(v === undefined || v === null ? '0' : String(v));
    },
    decode(r, end) {
      let s = '0';
      while (r.pos < end) {
        const tag = r.uint32();
        if (tag === 10) s = r.string(); else r.skipType(tag & 7);
      }
      return s;
    },
  }],
  ['k8s.io.apimachinery.pkg.util.intstr.IntOrString', {
    zero: 0,
    encode(w, v) {
      const isString = typeof v === 'string';
      w.uint32(8).int64(isString ? 1 : 0);
      w.uint32(16).int32(isString ? 0 : num(v ?? 0, 'an int-or-string'));
      w.uint32(26).string(isString ? v : '');
    },
    decode(r, end) {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      while (r.pos < end) {
        const tag = r.uint32();
        if (tag === 8) type = r.int64();
        else if (tag === 16) intVal = r.int32();
        else if (tag === 26) strVal = r.string();
        else r.skipType(tag & 7);
      }
      return type === 1 ? strVal : intVal;
    },
  }],
]);
for (const v of ['v1', 'v1beta1']) {
  const pkg = `${apiext}.${v}`;
  special.set(`${pkg}.JSON`, rawJsonCodec);
  special.set(`${pkg}.JSONSchemaPropsOrBool`, schemaUnionCodec(pkg, 'bool'));
  special.set(`${pkg}.JSONSchemaPropsOrArray`, schemaUnionCodec(pkg, 'schemas'));
  special.set(`${pkg}.JSONSchemaPropsOrStringArray`, schemaUnionCodec(pkg, 'strings'));
}
for (const pkg of ['authentication.v1', 'authentication.v1beta1', 'authorization.v1', 'authorization.v1beta1', 'certificates.v1', 'certificates.v1beta1']) {
  special.set(`k8s.io.api.${pkg}.ExtraValue`, stringListCodec);
}

// ---- compiled plans ---------------------------------------------------------------

/** A field with what the hot loops need precomputed. */
interface Field extends FieldDesc {
  /** Position in the message's JSON order. */
  slot: number;
  /** The field's tag (number and wire type) as written. */
  tag: number;
  /** Message type of the field or map value, resolved on first use. */
  child?: Plan;
}

/** A message's fields in wire order (by number) and in JSON order (Go struct order). */
interface Plan {
  name: string;
  special?: SpecialCodec;
  wire: Field[];
  json: Field[];
  /** Field number -> field (sparse). */
  byNumber: Array<Field | undefined>;
  /** The generated decoder (see compileDecoder), made on first use. */
  decode?: (r: Reader, end: number) => unknown;
  /** The generated encoder (see compileEncoder), made on first use. */
  encode?: (w: Writer, v: unknown) => void;
}
const plans = new Map<string, Plan>();

function planOf(type: string): Plan {
  let p = plans.get(type);
  if (p) return p;
  const sp = special.get(type);
  if (sp) {
    p = { name: type, special: sp, wire: [], json: [], byNumber: [] };
  } else {
    const desc = messageFields(type);
    if (!desc) throw new ProtobufShapeError(`no protobuf message ${type}`);
    const json: Field[] = desc.map((f, slot) => ({ ...f, slot, tag: (f.n << 3) | (f.r === 2 ? 2 : wireOf(f.t)) }));
    const byNumber: Array<Field | undefined> = [];
    for (const f of json) byNumber[f.n] = f;
    p = { name: type, wire: [...json].sort((a, b) => a.n - b.n), json, byNumber };
  }
  plans.set(type, p);
  return p;
}

function childOf(f: Field): Plan {
  return f.child ??= planOf(f.m!);
}

// ---- encoding -----------------------------------------------------------------------

function encodeNested(w: Writer, field: number, type: string, v: unknown): void {
  w.uint32((field << 3) | 2).fork();
  encodeInto(w, type, v);
  w.ldelim();
}

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
    return (w, v) => sp.encode(w, v);
  }
  const lines: string[] = ['const o = H.obj(v);', 'let x;'];
  plan.wire.forEach((f) => {
    const i = plan.json.indexOf(f);
    const get = f.i ? 'o' : `o[${JSON.stringify(f.j)}]`;
    lines.push(`x = ${get};`);
    if (!f.r && f.t === 'msg') {
      lines.push(`if (x != null || ${f.a ? 'true' : 'false'}) { w.uint32(${f.tag}).fork(); H.enc(w, F[${i}], x); w.ldelim(); }`);
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

const scalarZero: Record<ScalarType, unknown> = { string: '', bytes: '', bool: false, int32: 0, int64: 0, uint32: 0, uint64: 0, double: 0, float: 0 };

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

// ---- decoding -----------------------------------------------------------------------

function readScalar(r: Reader, t: ScalarType): unknown {
  switch (t) {
    case 'string': return r.string();
    case 'bytes': return r.bytes().toString('base64');
    case 'bool': return r.bool();
    case 'int32': return r.int32();
    case 'uint32': return r.uint32();
    case 'int64': return r.int64();
    case 'uint64': return r.uint64();
    case 'double': return r.double();
    case 'float': return r.float();
  }
}

function readValue(r: Reader, f: Field): unknown {
  if (f.t === 'msg') {
    const end = readLen(r);
    return decodePlan(r, end, childOf(f));
  }
  return f.t === 'string' ? r.string() : readScalar(r, f.t);
}

function readMapEntry(r: Reader, f: Field): [string, unknown] {
  const end = readLen(r);
  let key: unknown = f.k === 'string' ? '' : 0;
  let value: unknown;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag >>> 3 === 1) key = readScalar(r, f.k!);
    else if (tag >>> 3 === 2) value = readValue(r, f);
    else r.skipType(tag & 7);
  }
  if (value === undefined) value = f.t === 'msg' ? zeroOf(childOf(f)) : scalarZero[f.t];
  return [String(key), value];
}

function isEmptyScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** JSON of the Go zero value of a message type. */
function zeroOf(plan: Plan): unknown {
  if (plan.special) return plan.special.zero;
  return finish(plan, []);
}

/**
 * Builds the JSON object from what was read (`values` by JSON slot, undefined when the
 * field never came), in Go's field order and with Go's rules: zero values of Go value
 * fields, omitempty, nil slices and pointers (null unless omitempty), inline structs.
 */
function finish(plan: Plan, values: unknown[]): Json {
  const out: Json = {};
  const fields = plan.json;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    let v = values[i];
    if (f.i) {
      Object.assign(out, v === undefined ? zeroOf(childOf(f)) : v);
      continue;
    }
    if (v === undefined) {
      if (f.r || !f.a) { if (!f.o) out[f.j] = null; continue; }
      if (f.t === 'msg') v = zeroOf(childOf(f));
      else if (f.o) continue;
      else v = scalarZero[f.t];
    } else if (f.o && f.a && !f.r && f.t !== 'msg' && isEmptyScalar(v)) continue;
    out[f.j] = v;
  }
  return out;
}

function decodePlan(r: Reader, end: number, plan: Plan): unknown {
  return (plan.decode ??= compileDecoder(plan))(r, end);
}

/**
 * Generates a decoder for one message, as protobufjs does for its types: a switch on
 * the tag with one local per field, then the JSON object built with constant property
 * names in Go's field order, which V8 turns into one hidden class and inline stores.
 * The rules are finish()'s, which also builds the zero values.
 */
function compileDecoder(plan: Plan): (r: Reader, end: number) => unknown {
  if (plan.special) {
    const sp = plan.special;
    return (r, end) => sp.decode(r, end);
  }
  const fields = plan.json;
  const lines: string[] = [];
  const locals = fields.map((_, i) => `v${i}`);
  if (locals.length > 0) lines.push(`let ${locals.join(', ')};`);
  lines.push('while (r.pos < end) {');
  lines.push('  const tag = r.uint32();');
  lines.push('  switch (tag) {');
  fields.forEach((f, i) => {
    const read = f.t === 'msg' ? `H.msg(r, F[${i}])` : f.t === 'string' ? 'r.string()' : `H.scalar(r, F[${i}].t)`;
    if (f.r === 2) lines.push(`    case ${f.tag}: { const e = H.entry(r, F[${i}]); (v${i} ??= {})[e[0]] = e[1]; break; }`);
    else if (f.r === 1) {
      lines.push(`    case ${f.tag}: (v${i} ??= []).push(${read}); break;`);
      if (f.t !== 'msg' && f.t !== 'string' && f.t !== 'bytes') lines.push(`    case ${(f.n << 3) | 2}: H.packed(r, F[${i}], (v${i} ??= [])); break;`);
    } else lines.push(`    case ${f.tag}: v${i} = ${read}; break;`);
  });
  lines.push('    default: r.skipType(tag & 7);');
  lines.push('  }');
  lines.push('}');
  lines.push('const out = {};');
  fields.forEach((f, i) => {
    const key = JSON.stringify(f.j);
    const v = `v${i}`;
    if (f.i) { lines.push(`Object.assign(out, ${v} === undefined ? H.zero(F[${i}]) : ${v});`); return; }
    const absent = f.r || !f.a ? (f.o ? '' : `out[${key}] = null;`)
      : f.t === 'msg' ? `out[${key}] = H.zero(F[${i}]);`
        : f.o ? '' : `out[${key}] = ${JSON.stringify(scalarZero[f.t])};`;
    const present = f.o && f.a && !f.r && f.t !== 'msg'
      ? `if (!H.empty(${v})) out[${key}] = ${v};` : `out[${key}] = ${v};`;
    lines.push(`if (${v} === undefined) { ${absent} } else { ${present} }`);
  });
  lines.push('return out;');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const fn = new Function('r', 'end', 'F', 'H', lines.join('\n')) as (r: Reader, end: number, F: Field[], H: DecodeHelpers) => unknown;
  return (r, end) => fn(r, end, fields, decodeHelpers);
}

interface DecodeHelpers {
  msg(r: Reader, f: Field): unknown;
  scalar(r: Reader, t: ScalarType): unknown;
  entry(r: Reader, f: Field): [string, unknown];
  packed(r: Reader, f: Field, list: unknown[]): void;
  zero(f: Field): unknown;
  empty(v: unknown): boolean;
}

const decodeHelpers: DecodeHelpers = {
  msg: (r, f) => { const end = readLen(r); return decodePlan(r, end, childOf(f)); },
  scalar: readScalar,
  entry: readMapEntry,
  packed: (r, f, list) => { const end = readLen(r); while (r.pos < end) list.push(readScalar(r, f.t as ScalarType)); },
  zero: (f) => zeroOf(childOf(f)),
  empty: isEmptyScalar,
};

/** Reads message `type` from `r` up to `end` into its JSON form. */
export function decodeMessage(r: Reader, end: number, type: string): unknown {
  return decodePlan(r, end, planOf(type));
}

export function decodeBytes(bytes: Uint8Array, type: string): unknown {
  const r = Reader.create(bytes);
  return decodeMessage(r, r.len, type);
}
