// Walking and rewriting the parsed CEL AST (cel.expr.Expr messages from @bufbuild/cel).
import type { parse } from '@bufbuild/cel';

export type ParsedExpr = ReturnType<typeof parse>;
export type Expr = ParsedExpr['expr'];

/** Visits every node, with the comprehension variables in scope at that node. */
export function walk(e: Expr | undefined, visit: (e: Expr, scope: ReadonlySet<string>) => void, scope: ReadonlySet<string> = new Set()): void {
  if (!e) return;
  visit(e, scope);
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': walk(k.value.operand, visit, scope); break;
    case 'callExpr':
      walk(k.value.target, visit, scope);
      for (const a of k.value.args) walk(a, visit, scope);
      break;
    case 'listExpr': for (const a of k.value.elements) walk(a, visit, scope); break;
    case 'structExpr':
      for (const en of k.value.entries) {
        if (en.keyKind.case === 'mapKey') walk(en.keyKind.value, visit, scope);
        walk(en.value, visit, scope);
      }
      break;
    case 'comprehensionExpr': {
      const c = k.value;
      walk(c.iterRange, visit, scope);
      walk(c.accuInit, visit, scope);
      const inner = new Set([...scope, c.iterVar, c.iterVar2, c.accuVar].filter(Boolean));
      walk(c.loopCondition, visit, inner);
      walk(c.loopStep, visit, inner);
      walk(c.result, visit, new Set([...scope, c.accuVar]));
      break;
    }
    default: break;
  }
}

/** The largest node id, so that rewrites can add nodes with fresh ids. */
export function maxId(e: Expr): bigint {
  let max = 0n;
  walk(e, (n) => { if (n.id > max) max = n.id; });
  return max;
}
