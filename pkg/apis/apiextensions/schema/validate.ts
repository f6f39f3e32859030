// OpenAPI v3 value validation of a custom resource, as kube-openapi's SchemaValidator does
// it for apiextensions: for each schema node the type, allOf/anyOf/oneOf/not, string,
// format, number, array, enum and object validators run in that order when they apply to
// the value's kind, and the match counts they add up decide which failing anyOf/oneOf
// branch gets reported. Paths are kube-openapi's ("spec.items[0].name", additional
// properties as "spec.labels.key"), messages its templates.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';
import { compile, type Schema } from './compiled.js';
import { isRegisteredFormat, validatesFormat } from './formats.js';
import { goFloat, isGoInt } from './gofmt.js';
import { openapiErrors as E, Result, toFieldErrors } from './openapi-result.js';

type Kind = 'map' | 'slice' | 'string' | 'int' | 'float' | 'bool';

function kindOf(v: unknown): Kind {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isGoInt(v) ? 'int' : 'float';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** The JSON type and format kube-openapi infers from a decoded value. */
function schemaInfo(kind: Kind): [string, string] {
  switch (kind) {
    case 'string': return ['string', ''];
    case 'bool': return ['boolean', ''];
    case 'int': return ['integer', 'int64'];
    case 'float': return ['number', 'float64'];
    case 'slice': return ['array', ''];
    default: return ['object', ''];
  }
}

/** Validates a whole CR (the root schema); errors as apiextensions reports them. */
export function validateCustomResource(obj: unknown, schema: JSONSchemaProps, fldPath: string | null = null): FieldError[] {
  const result = validateValue(compile(schema), '', obj);
  return result.valid ? [] : toFieldErrors(result, fldPath);
}

/** SchemaValidator.Validate. */
export function validateValue(s: Schema, path: string, data: unknown): Result {
  const result = new Result();
  if (data === null || data === undefined) {
    result.merge(typeCheck(s, path, null), enumCheck(s, path, null));
    return result;
  }
  const kind = kindOf(data);
  const steps: Array<[boolean, () => Result | undefined]> = [
    [s.types.length > 0 || s.format !== '', () => typeCheck(s, path, data, kind)],
    [true, () => compositions(s, path, data)],
    [kind === 'string', () => stringCheck(s, path, data as string)],
    [kind === 'string' && s.format !== '' && isRegisteredFormat(s.format), () => formatCheck(s, path, data as string)],
    [kind === 'int' || kind === 'float', () => numberCheck(s, path, data as number, kind)],
    [kind === 'slice', () => sliceCheck(s, path, data as unknown[])],
    [true, () => enumCheck(s, path, data)],
    [kind === 'map', () => objectCheck(s, path, data as Record<string, unknown>)],
  ];
  for (const [applies, run] of steps) {
    if (!applies) continue;
    result.merge(run());
    result.inc();
  }
  result.inc();
  return result;
}

function typeCheck(s: Schema, path: string, data: unknown, kind?: Kind): Result {
  const ok = new Result();
  ok.inc();
  const types = s.types;
  if (data === null) {
    return types.length > 0 && !s.nullable ? Result.of(E.invalidType(path, types.join(','), 'null')) : ok;
  }
  const k = kind ?? kindOf(data);
  const [schType, format] = schemaInfo(k);
  const isFloatInt = schType === 'number' && isJSONInteger(data as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  if (k !== 'string' && k !== 'slice' && s.format !== ''
    && !(types.includes(schType) || format === s.format || isFloatInt || isIntFloat)) {
    return Result.of(E.invalidType(path, s.format, format));
  }
  if (!(types.includes('number') || types.includes('integer')) && s.format !== '' && (k === 'string' || k === 'slice')) return ok;
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return Result.of(E.invalidType(path, types.join(','), schType));
  return ok;
}

/** schemaPropsValidator: anyOf, oneOf, allOf, not, each sub-schema at the same path. */
function compositions(s: Schema, path: string, data: unknown): Result {
  const main = new Result();
  if (s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    for (const sub of s.anyOf) {
      const r = validateValue(sub, path, data);
      if (r.valid) {
        best = undefined;
        firstSuccess = r;
        break;
      }
      if (!best || r.matchCount > best.matchCount) best = r;
    }
    if (!firstSuccess) main.add(E.anyOf(path));
    main.merge(best ?? firstSuccess);
  }
  if (s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateValue(sub, path, data);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      main.add(E.oneOf(path, validated));
      main.merge(best);
    } else {
      main.merge(firstSuccess);
    }
  }
  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateValue(sub, path, data);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) main.add(E.allOf(path, validated === 0));
  }
  if (s.not && validateValue(s.not, path, data).valid) main.add(E.not(path));
  main.inc();
  return main;
}

/** stringValidator: the first of maxLength, minLength, pattern that fails. Lengths count runes. */
function stringCheck(s: Schema, path: string, data: string): Result | undefined {
  const runes = () => [...data].length;
  if (s.maxLength !== undefined && runes() > s.maxLength) return Result.of(E.tooLong(path, s.maxLength, data));
  if (s.minLength !== undefined && runes() < s.minLength) return Result.of(E.tooShort(path, s.minLength, data));
  if (s.pattern !== undefined) {
    let rx: RegExp;
    try {
      rx = new RegExp(s.pattern, 'u');
    } catch (err) {
      return Result.of(E.pattern(path, `${s.pattern}, but pattern is invalid: ${(err as Error).message}`, data));
    }
    if (!rx.test(data)) return Result.of(E.pattern(path, s.pattern, data));
  }
  return undefined;
}

function formatCheck(s: Schema, path: string, data: string): Result | undefined {
  return validatesFormat(s.format, data) ? undefined : Result.of(E.invalidType(path, s.format, data));
}

/** swag.IsFloat64AJSONInteger: within ±2^53 and integral up to a relative error of 1e-9. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53) return false;
  const g = Math.trunc(f);
  if (f === g) return true;
  return Math.abs(f - g) / (Math.abs(f) + Math.abs(g)) < 1e-9;
}

/**
 * numberValidator: multipleOf, then minimum, then maximum. An int64 value is compared
 * with the bound truncated to int64 (printed that way too), a float64 with the bound as is.
 */
function numberCheck(s: Schema, path: string, data: number, kind: Kind): Result {
  const res = new Result();
  const asInt = kind === 'int';
  const bound = (b: number): [number, string] => (asInt ? [Math.trunc(b), String(Math.trunc(b))] : [b, goFloat(b)]);
  if (s.multipleOf !== undefined) {
    const f = s.multipleOf;
    const intFactor = Math.trunc(f);
    if (asInt && intFactor !== 0) {
      // MultipleOfInt with the factor converted to int64.
      if (intFactor < 0) res.add(E.multipleOfMustBePositive(path, String(intFactor), intFactor));
      else if (data % intFactor !== 0) res.add(E.multipleOf(path, String(intFactor), data));
    } else if (f < 0) {
      res.add(E.multipleOfMustBePositive(path, goFloat(f), f));
    } else if (!isJSONInteger(f < 1 ? (1 / f) * data : data / f)) {
      res.add(E.multipleOf(path, goFloat(f), data));
    }
  }
  if (s.minimum !== undefined) {
    const [min, text] = bound(s.minimum);
    if (s.exclusiveMinimum ? data <= min : data < min) res.add(E.min(path, text, s.exclusiveMinimum, data));
  }
  if (s.maximum !== undefined) {
    const [max, text] = bound(s.maximum);
    if (s.exclusiveMaximum ? data >= max : data > max) res.add(E.max(path, text, s.exclusiveMaximum, data));
  }
  res.inc();
  return res;
}

/** schemaSliceValidator: every item first, then minItems, maxItems, uniqueItems. */
function sliceCheck(s: Schema, path: string, data: unknown[]): Result {
  const result = new Result();
  if (s.items) data.forEach((item, i) => result.merge(validateValue(s.items as Schema, `${path}[${i}]`, item)));
  if (s.minItems !== undefined && data.length < s.minItems) result.add(E.minItems(path, s.minItems, data.length));
  if (s.maxItems !== undefined && data.length > s.maxItems) result.add(E.maxItems(path, s.maxItems, data.length));
  if (s.uniqueItems && data.some((x, i) => data.slice(0, i).some((y) => deepEqual(x, y)))) result.add(E.unique(path));
  result.inc();
  return result;
}

/**
 * basicCommonValidator: the value must equal one enum entry after Go's type conversion.
 * Go converts an integer to a string as a code point, so 97 matches "a"; null matches nothing.
 */
function enumCheck(s: Schema, path: string, data: unknown): Result | undefined {
  if (!s.enum || s.enum.length === 0) return undefined;
  const matches = (e: unknown) => {
    if (data === null || e === null) return false;
    if (typeof e === 'string' && typeof data === 'number' && isGoInt(data)) {
      return data >= 0 && data <= 0x10ffff && String.fromCodePoint(data) === e;
    }
    return deepEqual(data, e);
  };
  return s.enum.some(matches) ? undefined : Result.of(E.enum(path, data, s.enum));
}

/**
 * objectValidator: min/maxProperties (stopping there), then unknown keys against
 * additionalProperties, then declared properties, then required keys.
 */
function objectCheck(s: Schema, path: string, data: Record<string, unknown>): Result {
  const n = Object.keys(data).length;
  if (s.minProperties !== undefined && n < s.minProperties) return Result.of(E.tooFewProperties(path, s.minProperties, n));
  if (s.maxProperties !== undefined && n > s.maxProperties) return Result.of(E.tooManyProperties(path, s.maxProperties, n));
  const res = new Result();
  const ap = s.additionalProperties;
  for (const [k, v] of Object.entries(data)) {
    if (s.properties.has(k) || !ap) continue;
    if (!ap.allows) res.add(E.unallowedProperty(path, k));
    else if (ap.schema) res.merge(validateValue(ap.schema, `${path}.${k}`, v));
  }
  for (const [k, sub] of s.properties) {
    if (Object.hasOwn(data, k)) res.merge(validateValue(sub, path ? `${path}.${k}` : k, data[k]));
  }
  for (const k of s.required) {
    if (!Object.hasOwn(data, k)) res.add(E.required(`${path}.${k}`));
  }
  return res;
}

/** reflect.DeepEqual on decoded JSON (map key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
