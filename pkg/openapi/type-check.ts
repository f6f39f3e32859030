// Type checks of a request body against a built-in kind's schema, reported the way
// upstream's typed JSON decoder fails: the first mismatch in document order, named by
// the innermost Go struct and the JSON field path (no list indices, no map keys).
import { errors, type StatusError } from '../runtime/errors.js';
import { classify, goType } from './go-types.js';
import { base64Error, quantityError, timeError } from '../runtime/literal-decoders.js';
import { type ChangedRegion, regionAt } from '../runtime/changed-region.js';
import { definition, definitionNameForGVK, goTypeName, refNode, shortTypeName } from './schema.js';
import type { SchemaNode } from './types.js';
import { type FloatLiteral, floatLiteralText, markFloatLiterals, unmarkFloatLiterals } from './float-literals.js';

interface Ctx {
  struct: string;
  fields: string[];
  /** First recoverable error (Go keeps decoding and reports the earliest one). */
  saved?: string;
  /** Float literals met where a quantity goes: decoded from their text, as Go's Quantity does. */
  quantityLiterals?: Set<symbol>;
  /** A number met where a float literal would fail or decode otherwise: an integer, int-or-string or quantity. */
  metNumber: boolean;
}

/** Thrown for errors that stop Go's decoder at once (custom unmarshalers). */
class Fatal {
  constructor(readonly message: string) {}
}

/** How encoding/json names the kind of a value it cannot put in a Go value. */
export function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  // A symbol is a number written as a float (see float-literals.ts).
  if (typeof v === 'number' || typeof v === 'symbol') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** How Go's decoder names a number it refuses: as written. */
export function numberAsWritten(v: unknown): string {
  return typeof v === 'number' ? `number ${v}` : typeof v === 'symbol' ? `number ${floatLiteralText(v)}` : jsonKind(v);
}

function mismatch(ctx: Ctx, value: string, type: string): string {
  if (!ctx.struct && ctx.fields.length === 0) return `json: cannot unmarshal ${value} into Go value of type ${type}`;
  return `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${ctx.fields.join('.')} of type ${type}`;
}

function save(ctx: Ctx, msg: string): void {
  if (ctx.saved === undefined) ctx.saved = msg;
}

function checkInteger(v: number, min: number, max: number): boolean {
  return Number.isInteger(v) && v >= min && v <= max;
}

/** A long integer literal (a mark, see float-literals.ts) in range, checked on its exact value. */
function literalInRange(v: symbol, min: number, max: number): boolean {
  const text = floatLiteralText(v) ?? '';
  if (!/^-?\d+$/.test(text)) return false;
  const n = BigInt(text);
  // int64's max (2^63 - 1) is 2^63 as a double: the exact bound is one less.
  return n >= BigInt(min) && n <= (max >= 2 ** 63 ? 2n ** 63n - 1n : BigInt(max));
}

// Only `region` is walked: what lies outside it was decoded before and cannot fail.
function walk(node: SchemaNode, v: unknown, ctx: Ctx, region: ChangedRegion): void {
  if (v === null || v === undefined) return;
  const c = classify(node);
  switch (c.k) {
    case 'any':
      return;
    case 'intOrString':
      if (typeof v === 'string') return;
      if (typeof v === 'number') ctx.metNumber = true;
      if (typeof v === 'number' && checkInteger(v, -2147483648, 2147483647)) return;
      if (typeof v === 'symbol' && literalInRange(v, -2147483648, 2147483647)) return;
      throw new Fatal(mismatch(ctx, numberAsWritten(v), 'int32'));
    case 'quantity': {
      if (typeof v === 'number') {
        ctx.metNumber = true;
        return;
      }
      if (typeof v === 'symbol') ctx.quantityLiterals?.add(v);
      const err = quantityError(typeof v === 'string' ? v : floatLiteralText(v) ?? JSON.stringify(v));
      if (err) throw new Fatal(err);
      return;
    }
    case 'time': {
      if (typeof v !== 'string') throw new Fatal(mismatch(ctx, jsonKind(v), 'string'));
      const err = timeError(v, c.micro);
      if (err) throw new Fatal(err);
      return;
    }
    case 'string':
      if (typeof v !== 'string') return save(ctx, mismatch(ctx, jsonKind(v), goType(node)));
      if (c.bytes) {
        const err = base64Error(v);
        if (err) save(ctx, err);
      }
      return;
    case 'integer':
      if (typeof v === 'symbol' && literalInRange(v, c.min, c.max)) return;
      if (typeof v !== 'number') return save(ctx, mismatch(ctx, numberAsWritten(v), c.go));
      ctx.metNumber = true;
      if (!checkInteger(v, c.min, c.max)) save(ctx, mismatch(ctx, `number ${v}`, c.go));
      return;
    case 'number':
      if (typeof v !== 'number' && typeof v !== 'symbol') save(ctx, mismatch(ctx, jsonKind(v), 'float64'));
      return;
    case 'boolean':
      if (typeof v !== 'boolean') save(ctx, mismatch(ctx, jsonKind(v), 'bool'));
      return;
    case 'array':
      if (!Array.isArray(v)) return save(ctx, mismatch(ctx, jsonKind(v), goType(node)));
      for (const item of v) walk(c.items, item, ctx, true);
      return;
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) return save(ctx, mismatch(ctx, jsonKind(v), goType(node)));
      const obj = v as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const r = regionAt(region, key);
        if (r !== undefined) walk(c.values, obj[key], ctx, r);
      }
      return;
    }
    case 'struct': {
      if (typeof v !== 'object' || Array.isArray(v)) return save(ctx, mismatch(ctx, jsonKind(v), goType(node)));
      const props = c.node.properties ?? {};
      const outer = ctx.struct;
      const inner = c.name ? shortTypeName(c.name) : outer;
      const obj = v as Record<string, unknown>;
      // Keys, not entries: a body is walked on every write, and entries are an array each.
      for (const key of Object.keys(obj)) {
        if (!Object.prototype.hasOwnProperty.call(props, key)) continue;
        const r = regionAt(region, key);
        if (r === undefined) continue;
        ctx.struct = inner;
        ctx.fields.push(key);
        walk(props[key], obj[key], ctx, r);
        ctx.fields.pop();
      }
      ctx.struct = outer;
      return;
    }
  }
}

/**
 * The decode error text for `obj` as a `definitionName`, or undefined when it decodes.
 * `region`: where `obj` may differ from an object that decoded (see ChangedRegion).
 */
export function decodeErrorFor(definitionName: string, obj: unknown, region: ChangedRegion = true, quantityLiterals?: Set<symbol>): string | undefined {
  return decodeError(definitionName, obj, region, { struct: '', fields: [], quantityLiterals, metNumber: false });
}

function decodeError(definitionName: string, obj: unknown, region: ChangedRegion, ctx: Ctx): string | undefined {
  const def = definition(definitionName);
  if (!def) return undefined;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    return obj === null ? undefined : mismatch(ctx, jsonKind(obj), goTypeName(definitionName));
  }
  try {
    walk(refNode(definitionName), obj, ctx, region);
  } catch (e) {
    if (e instanceof Fatal) return e.message;
    throw e;
  }
  return ctx.saved;
}

/**
 * 400 BadRequest when `obj` would not decode as the kind, worded like upstream:
 * `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal ...`.
 * Kinds without a generated schema are not checked.
 */
export function checkTypes(group: string, version: string, kind: string, obj: unknown, region: ChangedRegion = true,
  floats?: FloatLiteral[] | (() => FloatLiteral[])): StatusError | undefined {
  const msg = typeProblemOf(group, version, kind, obj, region, floats);
  return msg === undefined ? undefined : decodeFailure(version, kind, msg);
}

/**
 * The decode error text (`json: cannot unmarshal ...`) for `obj` as the kind, or undefined.
 * `floats`: where the document `obj` was parsed from wrote numbers as floats, or how to
 * find them (asked only when the check meets a number where a literal's form matters).
 */
export function typeProblemOf(group: string, version: string, kind: string, obj: unknown, region: ChangedRegion = true,
  floats?: FloatLiteral[] | (() => FloatLiteral[])): string | undefined {
  const name = definitionNameForGVK(group, version, kind);
  if (!name) return undefined;
  if (typeof floats === 'function') {
    // Marks differ from the numbers they replace only where an integer, an int-or-string or
    // a quantity goes: a check that met no number there answers as the marked one would.
    const ctx: Ctx = { struct: '', fields: [], metNumber: false };
    const msg = decodeError(name, obj, region, ctx);
    if (!ctx.metNumber) return msg;
    floats = floats();
    if (floats.length === 0) return msg;
  }
  if (floats === undefined || floats.length === 0) return decodeErrorFor(name, obj, region);
  const marked = markFloatLiterals(obj, floats);
  // A quantity keeps the literal's text (`1e6` stays 1e6, where the number would be 1M).
  const asText = new Set<symbol>();
  try {
    return decodeErrorFor(name, obj, region, asText);
  } finally {
    unmarkFloatLiterals(marked, asText);
  }
}

/** The BadRequest upstream answers when a body cannot be decoded as a kind. */
export function decodeFailure(version: string, kind: string, cause: string): StatusError {
  return errors.badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${cause}`);
}
