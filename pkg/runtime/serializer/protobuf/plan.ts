// Compiled plans: each message's fields from the generated descriptors, with what the
// encoder's and decoder's hot loops need precomputed (tags, JSON slots, child plans).
import type { Reader, Writer } from './wire.js';
import { messageFields, type FieldDesc, type ScalarType } from './schema.js';
import { special, type SpecialCodec } from './special-types.js';
import { ProtobufShapeError } from './values.js';

export const wireOf = (t: ScalarType | 'msg'): number => {
  switch (t) {
    case 'string': case 'bytes': case 'msg': return 2;
    case 'double': return 1;
    case 'float': return 5;
    default: return 0;
  }
};

export const scalarZero: Record<ScalarType, unknown> = { string: '', bytes: '', bool: false, int32: 0, int64: 0, uint32: 0, uint64: 0, double: 0, float: 0 };

/** A field with what the hot loops need precomputed. */
export interface Field extends FieldDesc {
  /** Position in the message's JSON order. */
  slot: number;
  /** The field's tag (number and wire type) as written. */
  tag: number;
  /** Message type of the field or map value, resolved on first use. */
  child?: Plan;
}

/** A message's fields in wire order (by number) and in JSON order (Go struct order). */
export interface Plan {
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

export function planOf(type: string): Plan {
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

export function childOf(f: Field): Plan {
  return f.child ??= planOf(f.m!);
}
