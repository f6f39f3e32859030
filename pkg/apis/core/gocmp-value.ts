// JSON (as the API serves it) to Go values of a GoType, so the go-cmp style reporter sees
// what upstream's Go structs would hold: absent fields are zero values, pointers nil,
// inline structs flattened from the same JSON object.
import { isPlainObject } from '../../runtime/object.js';
import { parse as parseQuantity } from './exact-quantity.js';
import type { GoStruct, GoType, GoValue } from './gotype.js';

type Json = unknown;

export function fromJSON(t: GoType, j: Json): GoValue {
  switch (t.kind) {
    case 'string': return typeof j === 'string' ? j : j === undefined || j === null ? '' : String(j);
    case 'int': case 'float': return typeof j === 'number' ? j : 0;
    case 'bool': return j === true;
    case 'ptr': return j === undefined || j === null ? null : fromJSON(t.elem, j);
    // Empty lists and maps are nil: what upstream holds after its storage round trip.
    case 'slice': return Array.isArray(j) && j.length > 0 ? j.map((e) => fromJSON(t.elem, e)) : null;
    case 'map': {
      if (!isPlainObject(j) || Object.keys(j as object).length === 0) return null;
      return new Map(Object.entries(j as Record<string, Json>).map(([k, v]) => [k, fromJSON(t.elem, v)]));
    }
    case 'struct': return structFromJSON(t, j);
  }
}

function structFromJSON(t: GoStruct, j: Json): GoValue {
  if (t.name === 'resource.Quantity') return quantityValue(j);
  if (t.name === 'intstr.IntOrString') {
    return new Map<string, GoValue>([['Type', typeof j === 'string' ? 1 : 0], ['IntVal', typeof j === 'number' ? j : 0], ['StrVal', typeof j === 'string' ? j : '']]);
  }
  const o = isPlainObject(j) ? j as Record<string, Json> : {};
  return new Map(t.fields.map((f) => [f.go, fromJSON(f.type, f.inline ? o : o[f.json])]));
}

const decimalExp: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binaryExp: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * resource.Quantity's fields as ParseQuantity fills them for values that fit an int64:
 * i = {value, scale} (decimal digits and power of ten), Format from the suffix; the
 * cached string s is left empty (not verified against upstream output).
 */
function quantityValue(j: Json): GoValue {
  const s = typeof j === 'number' ? String(j) : typeof j === 'string' ? j.trim() : '';
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/.exec(s);
  let value = 0;
  let scale = 0;
  let format = 'DecimalSI';
  if (m) {
    const [, sign, whole, frac = '', suffix = ''] = m;
    value = Number(`${sign}${whole}${frac}` || '0');
    scale = -frac.length;
    if (suffix in binaryExp) {
      format = 'BinarySI';
      value = value * 2 ** binaryExp[suffix] * 10 ** scale;
      scale = 0;
    } else if (/^[eE]/.test(suffix)) {
      format = 'DecimalExponent';
      scale += Number(suffix.slice(1));
    } else {
      scale += decimalExp[suffix];
    }
  }
  return new Map<string, GoValue>([
    ['i', new Map<string, GoValue>([['value', value], ['scale', scale]])],
    ['d', new Map<string, GoValue>([['Dec', null]])],
    ['s', ''],
    ['Format', format],
    // Kept out of the printed fields (not a Go field): the text, for Quantity.Equal.
    ['\u0000raw', s],
  ]);
}

/** Quantity.Equal: numeric equality. */
export function quantityEqual(a: GoValue, b: GoValue): boolean {
  const qa = parseQuantity((a as Map<string, GoValue>).get('\u0000raw'));
  const qb = parseQuantity((b as Map<string, GoValue>).get('\u0000raw'));
  return qa !== undefined && qb !== undefined ? qa.nano === qb.nano : (a as Map<string, GoValue>).get('\u0000raw') === (b as Map<string, GoValue>).get('\u0000raw');
}

/** reflect.Value.IsZero. */
export function isZero(t: GoType, v: GoValue): boolean {
  switch (t.kind) {
    case 'string': return v === '';
    case 'int': case 'float': return v === 0;
    case 'bool': return v === false;
    case 'struct': return t.fields.every((f) => isZero(f.type, (v as Map<string, GoValue>).get(f.go) ?? null));
    default: return v === null;
  }
}
