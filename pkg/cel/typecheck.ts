// Type checking of admission expressions against the OpenAPI schemas of the kinds a
// policy matches (upstream's ValidatingAdmissionPolicy type checker): field selections
// that the schema does not have are reported as cel-go's `undefined field` errors. Only
// what the schema pins down is checked; everything else is dyn, as upstream.
import type { parse } from '@bufbuild/cel';
import { cel } from './runtime.js';
import type { SchemaNode } from '../openapi/types.js';
import { definition, resolve } from '../openapi/schema.js';
import type { Expr } from './ast.js';
import { formatErrors, type SourceError } from './errors.js';

type Types = ReadonlyMap<string, SchemaNode | undefined>;

const comparisons = new Set(['_<_', '_<=_', '_>_', '_>=_', '_==_', '_!=_']);
const arithmetic = new Set(['_+_', '_-_', '_*_', '_/_', '_%_']);
// Mixed numeric operands are left alone: whether they check depends on options this
// checker does not model.
const numeric = new Set(['int', 'uint', 'double']);

/** The CEL type of a schema leaf, when the schema pins it down. */
function scalar(t: SchemaNode | undefined): string | undefined {
  if (!t || t['x-kubernetes-int-or-string'] || t['x-kubernetes-preserve-unknown-fields']) return undefined;
  switch (t.type) {
    case 'integer': return 'int';
    case 'number': return 'double';
    case 'boolean': return 'bool';
    case 'string':
      if (t.format === 'date-time') return 'google.protobuf.Timestamp';
      if (t.format === 'byte') return 'bytes';
      return t.format ? undefined : 'string';
    default: return undefined;
  }
}

function safeResolve(n: SchemaNode | undefined): SchemaNode | undefined {
  if (!n) return undefined;
  try {
    return resolve(n);
  } catch {
    return undefined;
  }
}

/** The schema of a select on `t`, or undefined for dyn; `missing` when the field cannot exist. */
function field(t: SchemaNode | undefined, name: string): SchemaNode | undefined | 'missing' {
  if (!t || t['x-kubernetes-preserve-unknown-fields'] || t['x-kubernetes-int-or-string']) return undefined;
  if (t.properties) {
    if (name in t.properties) return safeResolve(t.properties[name]);
    if (t.additionalProperties && typeof t.additionalProperties === 'object') return safeResolve(t.additionalProperties);
    return 'missing';
  }
  if (t.additionalProperties && typeof t.additionalProperties === 'object') return safeResolve(t.additionalProperties);
  return undefined;
}

function check(e: Expr | undefined, types: Types, errs: SourceError[], pos: (e: Expr) => number): SchemaNode | undefined {
  if (!e) return undefined;
  const k = e.exprKind;
  switch (k.case) {
    case 'identExpr': return types.get(k.value.name);
    case 'selectExpr': {
      const t = check(k.value.operand, types, errs, pos);
      const f = field(t, k.value.field);
      if (f === 'missing') {
        errs.push({ offset: pos(e), message: `undefined field '${k.value.field}'` });
        return undefined;
      }
      return f;
    }
    case 'constExpr': {
      const c = k.value.constantKind.case;
      if (c === 'int64Value') return { type: 'integer' };
      if (c === 'doubleValue') return { type: 'number' };
      if (c === 'stringValue') return { type: 'string' };
      if (c === 'boolValue') return { type: 'boolean' };
      return undefined;
    }
    case 'callExpr': {
      const target = check(k.value.target, types, errs, pos);
      const args = k.value.args.map((a) => check(a, types, errs, pos));
      const fn = k.value.function;
      if (!k.value.target && args.length === 2 && (comparisons.has(fn) || arithmetic.has(fn))) {
        const [l, r] = [scalar(args[0]), scalar(args[1])];
        if (l && r && l !== r && !(numeric.has(l) && numeric.has(r))) {
          errs.push({ offset: pos(e), message: `found no matching overload for '${fn}' applied to '(${l}, ${r})'` });
          return undefined;
        }
        if (comparisons.has(fn)) return { type: 'boolean' };
        return l && l === r ? args[0] : undefined;
      }
      if (k.value.function === '_[_]' && !k.value.target) {
        const t = args[0];
        if (t?.type === 'array') return safeResolve(t.items);
        if (t && !t.properties && t.additionalProperties && typeof t.additionalProperties === 'object') return safeResolve(t.additionalProperties);
      }
      void target;
      return undefined;
    }
    case 'listExpr':
      for (const el of k.value.elements) check(el, types, errs, pos);
      return undefined;
    case 'structExpr':
      for (const en of k.value.entries) {
        if (en.keyKind.case === 'mapKey') check(en.keyKind.value, types, errs, pos);
        check(en.value, types, errs, pos);
      }
      return undefined;
    case 'comprehensionExpr': {
      const c = k.value;
      const range = check(c.iterRange, types, errs, pos);
      check(c.accuInit, types, errs, pos);
      const inner = new Map(types);
      // A list's iteration variable is its element; a map's is its key (a string here).
      inner.set(c.iterVar, range?.type === 'array' ? safeResolve(range.items) : undefined);
      if (c.iterVar2) inner.set(c.iterVar2, undefined);
      inner.set(c.accuVar, undefined);
      check(c.loopCondition, inner, errs, pos);
      check(c.loopStep, inner, errs, pos);
      const out = new Map(types);
      out.set(c.accuVar, undefined);
      check(c.result, out, errs, pos);
      return undefined;
    }
    default: return undefined;
  }
}

/**
 * Checks `expression` with the given roots bound to definitions (by name, e.g.
 * io.k8s.api.apps.v1.Deployment); returns cel-go's error text, or undefined when clean.
 */
export function typeCheck(expression: string, roots: Record<string, string | undefined>): string | undefined {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = cel().parse(expression);
  } catch {
    return undefined; // syntax errors are validation errors, reported on write
  }
  const types = new Map<string, SchemaNode | undefined>();
  for (const [name, def] of Object.entries(roots)) types.set(name, def ? definition(def) : undefined);
  const errs: SourceError[] = [];
  const pos = (e: Expr): number => parsed.sourceInfo?.positions[e.id.toString() as unknown as number] ?? 0;
  check(parsed.expr, types, errs, pos);
  return errs.length ? formatErrors(expression, errs.sort((a, b) => a.offset - b.offset)) : undefined;
}
