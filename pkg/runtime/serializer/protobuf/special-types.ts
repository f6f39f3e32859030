// Messages whose JSON form is not their field list (upstream gives them a custom
// MarshalJSON): times, durations, quantities, int-or-string, raw JSON, string lists and
// the JSON-schema unions of apiextensions. Nested messages are read and written through
// the functions the encoder and decoder pass in, so this file needs neither.
import type { Reader, Writer } from './wire.js';
import { formatGoDuration, formatRFC3339, goZeroTimeSeconds, parseGoDuration, parseRFC3339 } from './gotime.js';
import { isObj, num, ProtobufShapeError, readLen } from './values.js';
import { deepFreeze } from '../../../util/deep-freeze.js';

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const apiext = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions';

/** Writes the fields of message `type` from JSON value `v` (the encoder's encodeInto). */
export type NestedEncode = (w: Writer, type: string, v: unknown) => void;
/** Reads message `type` up to `end` into its JSON form (the decoder's decodeMessage). */
export type NestedDecode = (r: Reader, end: number, type: string) => unknown;

/** A message whose JSON form is not its field list. */
export interface SpecialCodec {
  encode(w: Writer, v: unknown, into: NestedEncode): void;
  decode(r: Reader, end: number, nested: NestedDecode): unknown;
  /** JSON of the Go zero value, for a value field that was never written. */
  zero: unknown;
}

function parseJsonBytes(b: Buffer): unknown {
  if (b.length === 0) return null;
  return JSON.parse((b as Buffer & { utf8Slice(s: number, e: number): string }).utf8Slice(0, b.length));
}

function encodeNested(w: Writer, field: number, type: string, v: unknown, into: NestedEncode): void {
  w.uint32((field << 3) | 2).fork();
  into(w, type, v);
  w.ldelim();
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

/** A message holding JSON text in field 1 (FieldsV1, RawExtension, apiextensions JSON), read by `parse`. */
function rawJsonCodec(parse: (b: Buffer) => unknown): SpecialCodec {
  return {
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
        if (tag === 10) out = parse(r.bytes());
        else r.skipType(tag & 7);
      }
      return out;
    },
  };
}
const rawJson = rawJsonCodec(parseJsonBytes);

/**
 * FieldsV1 documents decoded from the same text, one object while they are in use: the
 * pods of one ReplicaSet carry the same managers' field sets, and every version of an
 * object repeats its unchanged ones; a parsed copy each, held by the watch cache and its
 * event ring, was about 2.6 KB of a bound pod's 11.6 KB of heap. Frozen, as
 * nothing changes a field set in place (the field manager writes new documents): a
 * shared one stays whole. The table forgets everything once it is full.
 */
const fieldsV1Seen = new Map<string, unknown>();
const fieldsV1SeenMax = 4096;

function fieldsV1Bytes(b: Buffer): unknown {
  if (b.length === 0) return null;
  const text = (b as Buffer & { utf8Slice(s: number, e: number): string }).utf8Slice(0, b.length);
  let doc = fieldsV1Seen.get(text);
  if (doc === undefined) {
    doc = deepFreeze(JSON.parse(text));
    if (fieldsV1Seen.size >= fieldsV1SeenMax) fieldsV1Seen.clear();
    fieldsV1Seen.set(text, doc);
  }
  return doc;
}


/** JSON-schema unions of apiextensions: an object (field 1), else the alternative (field 2). */
function schemaUnionCodec(pkg: string, alternative: 'bool' | 'schemas' | 'strings'): SpecialCodec {
  const props = `${pkg}.JSONSchemaProps`;
  return {
    zero: null,
    encode(w, v, into) {
      if (alternative === 'bool') {
        if (typeof v === 'boolean') { w.uint32(8).bool(v); return; }
        w.uint32(8).bool(true);
        if (isObj(v)) encodeNested(w, 2, props, v, into);
        return;
      }
      if (isObj(v)) { encodeNested(w, 1, props, v, into); return; }
      if (!Array.isArray(v)) return;
      for (const item of v) {
        if (alternative === 'strings') w.uint32(18).string(String(item));
        else encodeNested(w, 2, props, item, into);
      }
    },
    decode(r, end, nested) {
      let schema: unknown;
      let allows = false;
      const list: unknown[] = [];
      while (r.pos < end) {
        const tag = r.uint32();
        if (alternative === 'bool' && tag === 8) allows = r.bool();
        else if (tag === (alternative === 'bool' ? 18 : 10)) schema = nested(r, readLen(r), props);
        else if (tag === 18 && alternative === 'strings') list.push(r.string());
        else if (tag === 18 && alternative === 'schemas') list.push(nested(r, readLen(r), props));
        else r.skipType(tag & 7);
      }
      if (schema !== undefined) return schema;
      return alternative === 'bool' ? allows : list.length > 0 ? list : null;
    },
  };
}

export const special = new Map<string, SpecialCodec>([
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
  [`${meta}.FieldsV1`, rawJsonCodec(fieldsV1Bytes)],
  [`${meta}.Verbs`, stringListCodec],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', rawJson],
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
  special.set(`${pkg}.JSON`, rawJson);
  special.set(`${pkg}.JSONSchemaPropsOrBool`, schemaUnionCodec(pkg, 'bool'));
  special.set(`${pkg}.JSONSchemaPropsOrArray`, schemaUnionCodec(pkg, 'schemas'));
  special.set(`${pkg}.JSONSchemaPropsOrStringArray`, schemaUnionCodec(pkg, 'strings'));
}
for (const pkg of ['authentication.v1', 'authentication.v1beta1', 'authorization.v1', 'authorization.v1beta1', 'certificates.v1', 'certificates.v1beta1']) {
  special.set(`k8s.io.api.${pkg}.ExtraValue`, stringListCodec);
}
