// Evaluates one compiled policy for one binding and one param object (upstream's
// validating Validator.Validate): matchConditions, then validations with their messages,
// then audit annotations, all under one runtime cost budget.
import type { CelInput, CelValue } from '@bufbuild/cel';
import { evaluate, EvaluationError, perCallLimit, type AuthorizerBinding } from '../../../cel/compile.js';
import { costExceededMessage } from '../../../cel/env.js';
import type { CompiledPolicy, Expression } from './compiled.js';

/** Upstream's RuntimeCELCostBudget: all expressions of one evaluation together. */
export const runtimeCostBudget = 10_000_000;
const maxMessageLength = 5 * 1024;

export interface PolicyDecision {
  action: 'admit' | 'deny';
  message: string;
  reason: string;
  /** Index of the validation that decided; -1 for errors outside validations. */
  index: number;
}

export interface AuditAnnotationResult {
  key: string;
  value?: string;
  error?: string;
}

export interface ValidateInput {
  activation: Record<string, CelInput>;
  authorizer?: () => AuthorizerBinding;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

class BudgetExhausted extends Error {}

/** Runs expressions against one activation, sharing the budget and evaluating `variables.*` lazily. */
class Run {
  private remaining = runtimeCostBudget;
  private vars = new Map<string, { value?: CelValue; error?: string }>();
  private varsMap = new Map<string, CelValue>();

  constructor(private readonly policy: CompiledPolicy, private readonly input: ValidateInput) {}

  async eval(e: Expression): Promise<CelValue> {
    if (e.error !== undefined || !e.compiled) throw new EvaluationError(e.error ?? 'expression not compiled');
    for (const name of e.compiled.usesVariables) await this.variable(name);
    const activation = { ...this.input.activation };
    if (this.policy.variables.length > 0) activation.variables = this.varsMap as unknown as CelInput;
    try {
      const r = await evaluate(e.compiled, activation, {
        costLimit: Math.min(perCallLimit, this.remaining), authorizer: this.input.authorizer?.(),
      });
      this.remaining -= r.cost;
      return r.value;
    } catch (err) {
      if (err instanceof EvaluationError && err.message === costExceededMessage && this.remaining < perCallLimit) {
        throw new BudgetExhausted('validation failed due to running out of cost budget, no further validation rules will be run');
      }
      throw err;
    }
  }

  private async variable(name: string): Promise<void> {
    let v = this.vars.get(name);
    if (!v) {
      const def = this.policy.variables.find((x) => x.name === name);
      v = {};
      this.vars.set(name, v); // a cycle reads its own unfinished entry as an error
      if (!def) v.error = `variable '${name}' is not defined`;
      else {
        try {
          v.value = await this.eval(def.expr);
          this.varsMap.set(name, v.value);
        } catch (err) {
          if (err instanceof BudgetExhausted) throw err;
          v.error = (err as Error).message;
        }
      }
    }
    if (v.error !== undefined) throw new EvaluationError(v.error);
    if (!this.varsMap.has(name)) throw new EvaluationError(`variable '${name}' refers to itself`);
  }
}

function errorDecision(policy: CompiledPolicy, message: string, index = -1): PolicyDecision {
  return { action: policy.failurePolicy === 'Ignore' ? 'admit' : 'deny', message, reason: '', index };
}

export async function validatePolicy(policy: CompiledPolicy, input: ValidateInput): Promise<ValidateResult> {
  const run = new Run(policy, input);
  try {
    return await validateWith(run, policy);
  } catch (err) {
    if (err instanceof BudgetExhausted) return { decisions: [errorDecision(policy, err.message)], auditAnnotations: [] };
    throw err;
  }
}

async function validateWith(run: Run, policy: CompiledPolicy): Promise<ValidateResult> {
  // matchConditions: any false skips the policy; otherwise the first error decides.
  let matchError: string | undefined;
  for (const mc of policy.matchConditions) {
    try {
      const v = await run.eval(mc.expr);
      if (v === false) return { decisions: [], auditAnnotations: [] };
      if (typeof v !== 'boolean') matchError ??= `matchCondition '${mc.name}': must evaluate to bool`;
    } catch (err) {
      if (err instanceof BudgetExhausted) throw err;
      matchError ??= `matchCondition '${mc.name}': ${(err as Error).message}`;
    }
  }
  if (matchError !== undefined) return { decisions: [errorDecision(policy, matchError)], auditAnnotations: [] };

  const decisions: PolicyDecision[] = [];
  for (const [i, v] of policy.validations.entries()) {
    let result: CelValue;
    try {
      result = await run.eval(v.expr);
    } catch (err) {
      if (err instanceof BudgetExhausted) throw err;
      decisions.push(errorDecision(policy, `expression '${v.expr.expression}' resulted in error: ${(err as Error).message}`, i));
      continue;
    }
    if (result === true) {
      decisions.push({ action: 'admit', message: '', reason: '', index: i });
      continue;
    }
    let message = '';
    if (v.messageExpr) {
      try {
        const m = await run.eval(v.messageExpr);
        if (typeof m === 'string') {
          const t = m.trim();
          if (t.length <= maxMessageLength && !t.includes('\n')) message = t;
        }
      } catch (err) {
        if (err instanceof BudgetExhausted) throw err;
        // Upstream logs a failed messageExpression and falls back to message.
      }
    }
    if (!message) message = v.message.trim();
    if (!message) message = `failed expression: ${v.expr.expression.trim()}`;
    decisions.push({ action: 'deny', message, reason: v.reason || 'Invalid', index: i });
  }

  const auditAnnotations: AuditAnnotationResult[] = [];
  for (const a of policy.auditAnnotations) {
    try {
      const value = await run.eval(a.expr);
      if (value === null) continue;
      if (typeof value !== 'string') {
        auditAnnotations.push({ key: a.key, error: `valueExpression '${a.expr.expression}' resulted in unsupported return type: ${typeof value}. Return type must be either string or null.` });
      } else {
        auditAnnotations.push({ key: a.key, value });
      }
    } catch (err) {
      if (err instanceof BudgetExhausted) throw err;
      auditAnnotations.push({ key: a.key, error: `valueExpression '${a.expr.expression}' resulted in error: ${(err as Error).message}` });
    }
  }
  return { decisions, auditAnnotations };
}
