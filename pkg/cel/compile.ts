// Compiling and evaluating one CEL expression. compile() parses, checks that every name
// and function it uses is declared (cel-go's `undeclared reference` errors, which
// upstream reports as validation errors) and plans it; evaluate() runs it against an
// activation under a cost limit, answering authorizer checks asynchronously.
import type { CelInput, CelValue } from '@bufbuild/cel';
import { cel } from './runtime.js';
import { maxId, walk, type Expr, type ParsedExpr } from './ast.js';
import { COST_FUNCTION, CostMeter, env, knownFunctions, metered } from './env.js';
import { formatErrors, type SourceError } from './errors.js';
import { AuthzSession, authorizerValue, closeSession, openSession } from './library/authz.js';

/** Upstream's per-expression runtime cost limit (PerCallLimit). */
export const perCallLimit = 1_000_000;

export interface CompileOptions {
  /** Top-level names the expression may use: object, oldObject, request, params, ... */
  variables: readonly string[];
  /** Names declared under `variables.` (a policy's spec.variables), when that root is declared. */
  compositionVariables?: readonly string[];
}

export interface Compiled {
  expression: string;
  parsed: ParsedExpr;
  /** Names read through `variables.<name>`. */
  usesVariables: ReadonlySet<string>;
  run: (ctx: Record<string, CelInput>) => unknown;
}

export type CompileResult = { compiled: Compiled; error?: undefined } | { compiled?: undefined; error: string };

/** Names that are types, usable as values (`type(x) == string`). */
const typeIdents = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

export function compile(expression: string, opts: CompileOptions): CompileResult {
  let parsed: ParsedExpr;
  try {
    parsed = cel().parse(expression);
  } catch (err) {
    return { error: `compilation failed: ${syntaxError(expression, err)}` };
  }
  const errs: SourceError[] = [];
  const declared = new Set(opts.variables);
  const usesVariables = new Set<string>();
  const pos = (e: Expr): number => parsed.sourceInfo?.positions[e.id.toString() as unknown as number] ?? 0;
  walk(parsed.expr, (e, scope) => {
    const k = e.exprKind;
    if (k.case === 'identExpr') {
      const name = k.value.name;
      if (!declared.has(name) && !scope.has(name) && !typeIdents.has(name)) {
        errs.push({ offset: pos(e), message: `undeclared reference to '${name}' (in container '')` });
      }
    } else if (k.case === 'callExpr') {
      const fn = k.value.function;
      if (!/^[_@!-]/.test(fn) && !knownFunctions().has(fn) && !typeIdents.has(fn) && !['has', 'size', 'matches', 'timestamp', 'duration'].includes(fn)) {
        errs.push({ offset: pos(e), message: `undeclared reference to '${fn}' (in container '')` });
      }
    } else if (k.case === 'selectExpr') {
      const op = k.value.operand;
      if (op?.exprKind.case === 'identExpr' && op.exprKind.value.name === 'variables' && !scope.has('variables') && declared.has('variables')) {
        usesVariables.add(k.value.field);
        if (opts.compositionVariables && !opts.compositionVariables.includes(k.value.field)) {
          errs.push({ offset: pos(e), message: `undefined field '${k.value.field}'` });
        }
      }
    }
  });
  if (errs.length > 0) return { error: `compilation failed: ${formatErrors(expression, errs)}` };
  chargeIterations(parsed.expr);
  let run: Compiled['run'];
  try {
    run = cel().plan(env(), parsed.expr) as Compiled['run'];
  } catch (err) {
    return { error: `compilation failed: ${formatErrors(expression, [{ offset: 0, message: (err as Error).message }])}` };
  }
  return { compiled: { expression, parsed, usesVariables, run } };
}

function syntaxError(expression: string, err: unknown): string {
  const e = err as { location?: { start?: { offset?: number } }; message?: string };
  const message = String(e.message ?? err).replace(/^<input>:\d+:\d+: /, '');
  return formatErrors(expression, [{ offset: e.location?.start?.offset ?? 0, message: `Syntax error: ${message}` }]);
}

/** Wraps every comprehension's step in the cost function, so that loops are charged per iteration. */
function chargeIterations(root: Expr): void {
  let next = maxId(root) + 1n;
  walk(root, (e) => {
    if (e.exprKind.case !== 'comprehensionExpr') return;
    const c = e.exprKind.value;
    if (!c.loopStep) return;
    const step = c.loopStep;
    c.loopStep = {
      ...step,
      id: next++,
      exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: COST_FUNCTION, args: [step] } },
    } as Expr;
  });
}

export class EvaluationError extends Error {
  /** Cost spent before the failure, when known. */
  constructor(message: string, readonly cost = 0) {
    super(message);
  }
}

export interface AuthorizerBinding {
  session: AuthzSession;
  /** The request's resource, for `authorizer.requestResource`. */
  request: { group: string; resource: string; subresource: string; namespace: string; name: string };
}

export interface EvaluateOptions {
  /** Cost units this evaluation may spend (default: perCallLimit). */
  costLimit?: number;
  /** Binds `authorizer`; without it the name evaluates to null. */
  authorizer?: AuthorizerBinding;
}

export interface Evaluation {
  value: CelValue;
  cost: number;
}

/**
 * Evaluates without an authorizer, synchronously (CRD validation rules, whose callers
 * validate synchronously); throws EvaluationError for runtime errors and for a spent
 * cost budget. The cost is reported on the error too, as upstream charges it.
 */
export function evaluateSync(c: Compiled, activation: Record<string, CelInput>, opts: { costLimit?: number } = {}): Evaluation {
  const meter = new CostMeter(opts.costLimit ?? perCallLimit);
  let result: unknown;
  try {
    result = metered(meter, () => c.run({ ...activation }));
  } catch (err) {
    throw new EvaluationError((err as Error).message, meter.used);
  }
  if (cel().isCelError(result)) throw new EvaluationError(unwrapMessage(result), meter.used);
  return { value: result as CelValue, cost: meter.used };
}

/** Evaluates; throws EvaluationError for runtime errors and for a spent cost budget. */
export async function evaluate(c: Compiled, activation: Record<string, CelInput>, opts: EvaluateOptions = {}): Promise<Evaluation> {
  const limit = opts.costLimit ?? perCallLimit;
  const ctx = { ...activation };
  const authz = opts.authorizer;
  const sessionId = authz ? openSession(authz.session) : undefined;
  if (authz && sessionId) ctx.authorizer = authorizerValue(sessionId, authz.request) as CelInput;
  try {
    // Each pass answers the checks the previous one asked; the result is final once a
    // pass needed no decision it did not have.
    for (let pass = 0; ; pass++) {
      const meter = new CostMeter(limit);
      let result: unknown;
      try {
        result = metered(meter, () => c.run(ctx));
      } catch (err) {
        throw new EvaluationError((err as Error).message);
      }
      if (authz && authz.session.pending.size > 0 && pass < 16) {
        await authz.session.resolvePending();
        continue;
      }
      if (cel().isCelError(result)) throw new EvaluationError(unwrapMessage(result));
      return { value: result as CelValue, cost: meter.used };
    }
  } finally {
    if (sessionId) closeSession(sessionId);
  }
}

function unwrapMessage(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  const msg = err.message || (cause instanceof Error ? cause.message : String(cause ?? 'evaluation error'));
  // Objects are maps here; cel-go words a missing map key this way.
  return msg.replace(/^field not found: /, 'no such key: ');
}
