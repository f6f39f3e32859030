// Evaluating a custom resource against its compiled rules (upstream's Validator.Validate):
// every non-null value with rules is checked, children after their parent; transition
// rules run only where an old value correlates. Each rule may spend the per-call limit
// and all rules of one request share the runtime budget; spending either stops
// validation with upstream's messages.
import type { CelInput } from '@bufbuild/cel';
import { costExceededMessage } from '../../../cel/env.js';
import { evaluateSync, EvaluationError, perCallLimit } from '../../../cel/compile.js';
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject } from '../../../runtime/object.js';
import { child, duplicate, forbidden, index, invalid, key, required } from '../../validation/field.js';
import type { CompiledRule, CompiledRules, RuleNode, ValidationRule } from './compile.js';
import { toRuleValue } from './values.js';

/** Upstream's RuntimeCELCostBudget: what all rules of one object may spend together. */
export const runtimeCostBudget = 10_000_000;
/** Upstream's MaxEvaluatedMessageExpressionSizeBytes. */
const maxMessageExpressionBytes = 5 * 1024;
const outOfBudget = 'validation failed due to running out of cost budget, no further validation rules will be run';

export interface State { budget: number; errs: FieldError[] }

export function validateRules(rules: CompiledRules, obj: unknown, old: unknown | undefined): FieldError[] {
  const st: State = { budget: runtimeCostBudget, errs: [] };
  visit(rules.root, '', obj, old ?? undefined, st);
  return st.errs;
}

/** Validates a value of `node` found at `path` (schema defaults), spending from st's budget. */
export function validateAt(node: RuleNode | undefined, path: string, obj: unknown, old: unknown, st: State): void {
  visit(node, path, obj, old, st);
}

/** Upstream reports errors of the root at a nil path, which prints as <nil>. */
function at(path: string): string {
  return path === '' ? '<nil>' : path;
}

function visit(node: RuleNode | undefined, path: string, obj: unknown, old: unknown, st: State): void {
  if (!node || obj === null || obj === undefined) return;
  validateNode(node, path, obj, old, st);
  if (st.budget < 0) return;
  if (Array.isArray(obj)) {
    if (!node.items) return;
    const oldItem = correlator(node.schema, old);
    for (let i = 0; i < obj.length && st.budget >= 0; i++) visit(node.items, index(path, i), obj[i], oldItem(obj[i]), st);
    return;
  }
  if (!isPlainObject(obj)) return;
  const oldMap = isPlainObject(old) ? old : undefined;
  if (node.additionalProperties) {
    for (const [k, v] of Object.entries(obj)) {
      visit(node.additionalProperties, key(path, k), v, oldMap?.[k], st);
      if (st.budget < 0) return;
    }
  }
  for (const [k, v] of Object.entries(obj)) {
    const sub = node.properties.get(k);
    if (!sub) continue;
    visit(sub, child(path, k), v, oldMap?.[k], st);
    if (st.budget < 0) return;
  }
}

/** Old items correlate with new ones only in map lists, by their keys. */
function correlator(schema: Record<string, unknown>, old: unknown): (item: unknown) => unknown {
  const keys = Array.isArray(schema['x-kubernetes-list-map-keys']) ? (schema['x-kubernetes-list-map-keys'] as string[]) : [];
  if (schema['x-kubernetes-list-type'] !== 'map' || keys.length === 0 || !Array.isArray(old)) return () => undefined;
  const keyOf = (item: unknown): string | undefined => (isPlainObject(item) ? JSON.stringify(keys.map((k) => item[k] ?? null)) : undefined);
  const byKey = new Map<string, unknown>();
  for (const o of old) {
    const k = keyOf(o);
    if (k !== undefined && !byKey.has(k)) byKey.set(k, o);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : byKey.get(k);
  };
}

/** Runtime errors in cel-go's (and Kubernetes' value types') words, as upstream's messages quote them. */
function celGoMessage(msg: string): string {
  // Every runtime overload mismatch (reachable through dyn) is just this.
  if (/^(found no matching overload|no such overload|no matching overload)/.test(msg)) return 'no such overload';
  const idx = /^index (-?\d+) out of bounds/.exec(msg);
  if (idx) return `index out of bounds: ${idx[1]}`;
  if (/^u?int divide by zero/.test(msg)) return 'division by zero';
  if (/^u?int modulus by zero/.test(msg)) return 'modulus by zero';
  if (/^u?int overflow/.test(msg)) return 'integer overflow';
  return msg;
}

function trimmed(s: string | undefined): string {
  return (s ?? '').trim();
}

/** The rule as messages name it: its message when it has one, else its expression. */
function ruleErrorString(rule: ValidationRule): string {
  return (rule.message ?? '') !== '' ? trimmed(rule.message) : trimmed(rule.rule);
}

function defaultMessage(rule: ValidationRule): string {
  return (rule.message ?? '') === '' ? `failed rule: ${ruleErrorString(rule)}` : trimmed(rule.message);
}

function errorForReason(path: string, value: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden': return forbidden(path, detail);
    case 'FieldValueRequired': return required(path, detail);
    case 'FieldValueDuplicate': return duplicate(path, value);
    default: return invalid(path, value, detail);
  }
}

function validateNode(node: RuleNode, path: string, obj: unknown, old: unknown, st: State): void {
  if (node.rules.length === 0) return;
  const type = typeof node.schema.type === 'string' ? node.schema.type : '';
  const field = at(path);
  if (st.budget <= 0) {
    st.errs.push(invalid(field, type, outOfBudget));
    st.budget = -1;
    return;
  }
  const activation: Record<string, CelInput> = { self: toRuleValue(obj, node.schema, node.isResourceRoot) };
  const hasOld = old !== null && old !== undefined;
  if (hasOld) activation.oldSelf = toRuleValue(old, node.schema, node.isResourceRoot, obj);
  for (const cr of node.rules) {
    if (cr.error !== undefined) {
      st.errs.push(invalid(field, type, `rule compile error: ${cr.error}`));
      continue;
    }
    if (!cr.program) continue;
    if (cr.usesOldSelf && !hasOld) continue;
    let value: unknown;
    let failure: string | undefined;
    let cost: number;
    try {
      const r = evaluateSync(cr.program, activation, { costLimit: perCallLimit });
      value = r.value;
      cost = r.cost;
    } catch (err) {
      if (!(err instanceof EvaluationError)) throw err;
      failure = celGoMessage(err.message);
      cost = err.cost;
    }
    if (cost > st.budget) {
      st.errs.push(invalid(field, type, outOfBudget));
      st.budget = -1;
      return;
    }
    st.budget -= cost;
    const ruleString = ruleErrorString(cr.rule);
    if (failure !== undefined) {
      if (failure.startsWith('no such overload')) {
        st.errs.push(invalid(field, type, `'${failure}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleString}`));
      } else if (failure.startsWith(costExceededMessage)) {
        st.errs.push(invalid(field, type, `'${failure}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleString}`));
        st.budget = -1;
        return;
      } else {
        st.errs.push(invalid(field, type, `${failure} evaluating rule: ${ruleString}`));
      }
      continue;
    }
    if (value === true) continue;
    const errPath = cr.fieldPath ? child(path, cr.fieldPath) : path;
    let detail: string | undefined;
    if (cr.messageExpression) {
      const m = evaluateMessage(cr, activation, st);
      if (m.stop !== undefined) {
        st.errs.push(invalid(at(errPath), type, m.stop));
        st.budget = -1;
        return;
      }
      detail = m.message;
    }
    st.errs.push(errorForReason(at(errPath), type, detail ?? defaultMessage(cr.rule), cr.rule.reason));
  }
}

/** A messageExpression's message; undefined falls back to the rule's message. stop ends validation. */
function evaluateMessage(cr: CompiledRule, activation: Record<string, CelInput>, st: State): { message?: string; stop?: string } {
  let value: unknown;
  let cost: number;
  let failure: string | undefined;
  try {
    const r = evaluateSync(cr.messageExpression!, activation, { costLimit: perCallLimit });
    value = r.value;
    cost = r.cost;
  } catch (err) {
    if (!(err instanceof EvaluationError)) throw err;
    failure = err.message;
    cost = err.cost;
  }
  if (cost > st.budget) return { stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' };
  if (failure?.startsWith(costExceededMessage)) {
    return { stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(cr.rule.messageExpression ?? '')}` };
  }
  st.budget -= cost;
  if (failure !== undefined || typeof value !== 'string') return {};
  const msg = value.trim();
  if (Buffer.byteLength(msg) > maxMessageExpressionBytes || /\n/.test(msg) || msg === '') return {};
  return { message: msg };
}
