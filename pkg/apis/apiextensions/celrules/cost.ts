// Static cost estimation of a checked rule, after cel-go's estimator (checker/cost.go)
// with Kubernetes' library costs: identifiers and field selections cost 1, calls 1,
// string operations a tenth of a unit per byte, regular expressions the product of
// string and pattern size, and a comprehension its body times the most elements its
// range can have. Sizes come from the schema (maxItems, maxProperties, maxLength) or,
// unbounded, from the largest request. Only the worst case (max) is computed.
import type { Expr } from '../../../cel/ast.js';
import type { CelT } from './types.js';

export const maxUint64 = 18446744073709551615;
const stringTraversal = 0.1;
const regexLength = 0.25;

const add = (a: number, b: number): number => Math.min(maxUint64, a + b);
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : Math.min(maxUint64, a * b));
const factor = (a: number, f: number): number => Math.min(maxUint64, Math.ceil(a * f));

const listFunctions = new Set(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf']);
const stringFunctions = new Set(['lowerAscii', 'upperAscii', 'substring', 'trim', 'replace', 'split', 'charAt', 'join']);
const comparisons = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_']);

export function estimateCost(root: Expr, types: ReadonlyMap<bigint, CelT>): number {
  const computed = new Map<bigint, number>();
  const typeOf = (e: Expr | undefined): CelT | undefined => (e ? types.get(e.id) : undefined);

  /** Upper bound of the elements (or bytes) of e's value. */
  const size = (e: Expr | undefined): number => {
    if (!e) return maxUint64;
    const c = computed.get(e.id);
    if (c !== undefined) return c;
    const k = e.exprKind;
    if (k.case === 'constExpr') {
      const v = k.value.constantKind;
      if (v.case === 'stringValue') return Buffer.byteLength(v.value);
      if (v.case === 'bytesValue') return v.value.length;
    }
    if (k.case === 'listExpr') return k.value.elements.length;
    if (k.case === 'structExpr') return k.value.entries.length;
    const t = typeOf(e);
    if (t && 'size' in t && t.size) {
      if (t.kind === 'list' || t.kind === 'map' || (t.kind === 'prim' && (t.name === 'string' || t.name === 'bytes')) || t.kind === 'dyn') return t.size.maxElements;
    }
    if (t?.kind === 'prim' && t.name !== 'string' && t.name !== 'bytes') return 1;
    return maxUint64;
  };

  const cost = (e: Expr | undefined): number => {
    if (!e) return 0;
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': return 0;
      case 'identExpr': return 1;
      case 'selectExpr': {
        if (k.value.testOnly) return 0;
        const ot = typeOf(k.value.operand);
        return add(cost(k.value.operand), ot?.kind === 'map' || ot?.kind === 'object' ? 1 : 0);
      }
      case 'listExpr': return k.value.elements.reduce((s, el) => add(s, cost(el)), 10);
      case 'structExpr':
        return k.value.entries.reduce((s, en) => add(add(s, en.keyKind.case === 'mapKey' ? cost(en.keyKind.value) : 0), cost(en.value)), 30);
      case 'comprehensionExpr': {
        const c = k.value;
        let sum = add(add(cost(c.iterRange), cost(c.accuInit)), cost(c.result));
        sum = add(sum, mul(size(c.iterRange), add(cost(c.loopStep), cost(c.loopCondition))));
        return sum;
      }
      case 'callExpr': return callCost(e, k.value.function, k.value.target, k.value.args);
      default: return 0;
    }
  };

  const callCost = (e: Expr, fn: string, target: Expr | undefined, args: Expr[]): number => {
    const argCosts = args.map(cost);
    const argSum = argCosts.reduce(add, 0);
    const targetCost = target ? cost(target) : 0;
    const base = add(targetCost, argSum);
    if (fn === '_&&_' || fn === '_||_') return add(targetCost, add(argCosts[0] ?? 0, argCosts[1] ?? 0));
    if (fn === '_?_:_') {
      computed.set(e.id, Math.max(size(args[1]), size(args[2])));
      return add(argCosts[0] ?? 0, Math.max(argCosts[1] ?? 0, argCosts[2] ?? 0));
    }
    if (target && listFunctions.has(fn) && typeOf(target)?.kind === 'list') return add(base, size(target));
    if (target && stringFunctions.has(fn)) {
      // The result is no longer than the string (split: no more parts than bytes).
      if (fn !== 'charAt' && fn !== 'join') computed.set(e.id, size(target));
      return add(base, factor(size(target), stringTraversal));
    }
    if (fn === 'url' || fn === 'isURL') return add(base, factor(size(args[0]), stringTraversal));
    if (target && (fn === 'matches' || fn === 'find' || fn === 'findAll') && args.length >= 1) {
      const str = factor(add(size(target), 1), stringTraversal);
      return add(base, mul(str, factor(size(args[0]), regexLength)));
    }
    if (target && fn === 'contains') return add(base, mul(factor(size(target), stringTraversal), factor(size(args[0]), stringTraversal)));
    if (target && (fn === 'startsWith' || fn === 'endsWith')) return add(base, factor(size(args[0]), stringTraversal));
    if (fn === '@in' && typeOf(args[1])?.kind === 'list') return add(base, size(args[1]));
    if (fn === '_+_' && args.length === 2) {
      const t = typeOf(e);
      const total = add(size(args[0]), size(args[1]));
      if (t?.kind === 'list') { computed.set(e.id, total); return add(base, 1); }
      if (t?.kind === 'prim' && (t.name === 'string' || t.name === 'bytes')) { computed.set(e.id, total); return add(base, factor(total, stringTraversal)); }
    }
    if (comparisons.has(fn) && args.length === 2) {
      const lt = typeOf(args[0]);
      const stringish = lt?.kind === 'prim' && (lt.name === 'string' || lt.name === 'bytes');
      if (fn === '_==_' || fn === '_!=_' || stringish) return add(base, factor(Math.min(size(args[0]), size(args[1])), stringTraversal));
    }
    return add(base, 1);
  };

  return cost(root);
}
