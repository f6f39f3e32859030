// Protobuf to JSON: the JSON upstream's Go structs would marshal to (omitempty honoured,
// structs always present). Each message gets a generated decoder on first use.
import { Reader } from './wire.js';
import type { ScalarType } from './schema.js';
import { childOf, planOf, scalarZero, type Field, type Plan } from './plan.js';
import { readLen, type Json } from './values.js';

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
    return (r, end) => sp.decode(r, end, decodeMessage);
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
