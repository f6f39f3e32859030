// Type checking of CRD validation rules, as cel-go's checker reports it: names that are
// not declared, fields the schema does not have, calls with no overload for their
// argument types, list and map literals mixing types, and the expression's result type
// (a rule must be a bool, a messageExpression a string). dyn (int-or-string, casts) is
// accepted everywhere, so what the schema does not pin down is checked at runtime.
import type { Expr, ParsedExpr } from '../../../cel/ast.js';
import type { SourceError } from '../../../cel/errors.js';
import { overloads, type Overload } from './overloads.js';
import { BOOL, BYTES, DOUBLE, DYN, INT, listOf, mapOf, NULL, STRING, TYPE, UINT, typeName, type CelT } from './types.js';

export interface Checked {
  type: CelT;
  errors: SourceError[];
  /** Whether the expression reads oldSelf (a transition rule). */
  usesOldSelf: boolean;
  /** Type of every node, by expression id, for the cost estimator. */
  types: Map<bigint, CelT>;
}

const typeIdents = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

type Bindings = Map<string, CelT>;

function isDynLike(t: CelT): boolean {
  return t.kind === 'dyn' || t.kind === 'free';
}

/** Whether a value of type `a` may be passed where `p` is expected, binding p's parameters. */
function assignable(p: CelT, a: CelT, b: Bindings): boolean {
  if (p.kind === 'param') {
    const bound = b.get(p.name);
    if (bound === undefined) {
      if (a.kind !== 'free') b.set(p.name, a);
      return true;
    }
    if (isDynLike(bound)) return true;
    if (assignable(bound, a, b)) return true;
    // null_type bound first: a nullable type may take its place.
    if (bound.kind === 'prim' && bound.name === 'null_type' && nullable(a)) { b.set(p.name, a); return true; }
    return false;
  }
  if (isDynLike(p) || isDynLike(a)) return true;
  switch (p.kind) {
    case 'prim':
      if (a.kind === 'prim' && a.name === p.name) return true;
      return a.kind === 'prim' && a.name === 'null_type' && nullable(p);
    case 'list': return a.kind === 'list' && assignable(p.elem, a.elem, b);
    case 'map': return a.kind === 'map' && assignable(p.key, a.key, b) && assignable(p.value, a.value, b);
    case 'object': return (a.kind === 'object' && a.name === p.name) || (a.kind === 'prim' && a.name === 'null_type');
    default: return false;
  }
}

function nullable(t: CelT): boolean {
  return t.kind === 'object' || (t.kind === 'prim' && (t.name === 'google.protobuf.Timestamp' || t.name === 'google.protobuf.Duration'));
}

function substitute(t: CelT, b: Bindings): CelT {
  switch (t.kind) {
    case 'param': return b.get(t.name) ?? DYN;
    case 'list': return listOf(substitute(t.elem, b));
    case 'map': return mapOf(substitute(t.key, b), substitute(t.value, b));
    default: return t;
  }
}

function sameType(a: CelT, b: CelT): boolean {
  return typeName(a) === typeName(b);
}

/** The most specific type both are: a when equal, dyn otherwise. */
function join(a: CelT, b: CelT): CelT {
  if (a.kind === 'free') return b;
  if (b.kind === 'free') return a;
  return sameType(a, b) ? a : DYN;
}

export function check(parsed: ParsedExpr, vars: ReadonlyMap<string, CelT>): Checked {
  const errors: SourceError[] = [];
  const types = new Map<bigint, CelT>();
  let usesOldSelf = false;
  const pos = (e: Expr): number => parsed.sourceInfo?.positions[e.id.toString() as unknown as number] ?? 0;
  const fail = (e: Expr, message: string): CelT => {
    errors.push({ offset: pos(e), message });
    return DYN;
  };

  const visit = (e: Expr | undefined, scope: ReadonlyMap<string, CelT>): CelT => {
    if (!e) return DYN;
    const t = visitKind(e, scope);
    types.set(e.id, t);
    return t;
  };

  const visitKind = (e: Expr, scope: ReadonlyMap<string, CelT>): CelT => {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        switch (k.value.constantKind.case) {
          case 'int64Value': return INT;
          case 'uint64Value': return UINT;
          case 'doubleValue': return DOUBLE;
          case 'stringValue': return STRING;
          case 'bytesValue': return BYTES;
          case 'boolValue': return BOOL;
          case 'nullValue': return NULL;
          default: return DYN;
        }
      case 'identExpr': {
        const name = k.value.name;
        const local = scope.get(name);
        if (local) return local;
        const v = vars.get(name);
        if (v) {
          if (name === 'oldSelf') usesOldSelf = true;
          return v;
        }
        if (typeIdents.has(name)) return TYPE;
        return fail(e, `undeclared reference to '${name}' (in container '')`);
      }
      case 'selectExpr': {
        const operand = visit(k.value.operand, scope);
        const field = k.value.field;
        const r = selectField(operand, field);
        if (r === undefined) return fail(e, operand.kind === 'object' ? `undefined field '${field}'` : `type '${typeName(operand)}' does not support field selection`);
        return k.value.testOnly ? BOOL : r;
      }
      case 'callExpr': {
        const fn = k.value.function;
        const target = k.value.target ? visit(k.value.target, scope) : undefined;
        const args = k.value.args.map((a) => visit(a, scope));
        const decls = overloads.get(fn);
        if (!decls) return fail(e, `undeclared reference to '${fn}' (in container '')`);
        const results: CelT[] = [];
        for (const o of decls) {
          const r = resolve(o, target, args);
          if (r) results.push(r);
        }
        if (results.length === 0) {
          const list = args.map(typeName).join(', ');
          return fail(e, `found no matching overload for '${fn}' applied to '${target ? `${typeName(target)}.` : ''}(${list})'`);
        }
        return results.reduce(join);
      }
      case 'listExpr': {
        let elem: CelT = { kind: 'free' };
        for (const el of k.value.elements) {
          const t = visit(el, scope);
          if (elem.kind === 'free') elem = t;
          else if (!isDynLike(t) && !isDynLike(elem) && !sameType(elem, t)) fail(el, `expected type '${typeName(elem)}' but found '${typeName(t)}'`);
        }
        return listOf(elem);
      }
      case 'structExpr': {
        if (k.value.messageName) return fail(e, `undeclared reference to '${k.value.messageName}' (in container '')`);
        let key: CelT = { kind: 'free' };
        let value: CelT = { kind: 'free' };
        for (const en of k.value.entries) {
          if (en.keyKind.case !== 'mapKey') continue;
          const kt = visit(en.keyKind.value, scope);
          const vt = visit(en.value, scope);
          if (key.kind === 'free') key = kt;
          else if (!isDynLike(kt) && !isDynLike(key) && !sameType(key, kt)) fail(en.keyKind.value, `expected type '${typeName(key)}' but found '${typeName(kt)}'`);
          if (value.kind === 'free') value = vt;
          else if (!isDynLike(vt) && !isDynLike(value) && !sameType(value, vt)) fail(en.value!, `expected type '${typeName(value)}' but found '${typeName(vt)}'`);
        }
        return mapOf(key, value);
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const range = visit(c.iterRange, scope);
        let iter: CelT;
        if (range.kind === 'list') iter = range.elem;
        else if (range.kind === 'map') iter = range.key;
        else if (isDynLike(range)) iter = DYN;
        else {
          fail(c.iterRange!, `expression of type '${typeName(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
          iter = DYN;
        }
        const init = visit(c.accuInit, scope);
        const inner = new Map(scope);
        inner.set(c.accuVar, init);
        inner.set(c.iterVar, iter);
        if (c.iterVar2) inner.set(c.iterVar2, DYN);
        visit(c.loopCondition, inner);
        const step = visit(c.loopStep, inner);
        const outer = new Map(scope);
        // An empty list accumulator takes its type from what the step appends.
        outer.set(c.accuVar, init.kind === 'list' && init.elem.kind === 'free' ? step : init);
        return visit(c.result, outer);
      }
      default:
        return DYN;
    }
  };

  const result = visit(parsed.expr, new Map());
  errors.sort((a, b) => a.offset - b.offset);
  return { type: result, errors, usesOldSelf, types };
}

function resolve(o: Overload, target: CelT | undefined, args: CelT[]): CelT | undefined {
  if ((o.target === undefined) !== (target === undefined) || o.args.length !== args.length) return undefined;
  const b: Bindings = new Map();
  if (o.target && target && !assignable(o.target, target, b)) return undefined;
  for (let i = 0; i < args.length; i++) if (!assignable(o.args[i]!, args[i]!, b)) return undefined;
  return substitute(o.result, b);
}

/** The type of `t.field`; undefined when t has no such field. */
function selectField(t: CelT, field: string): CelT | undefined {
  switch (t.kind) {
    case 'object': return t.fields.get(field);
    case 'map': return t.value;
    case 'dyn': case 'free': return DYN;
    default: return undefined;
  }
}

/** cel-go's name for the result type check. */
export function isType(t: CelT, want: 'bool' | 'string'): boolean {
  return t.kind === 'prim' && t.name === want;
}
