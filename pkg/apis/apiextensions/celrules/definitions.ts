// CRD-time checks of x-kubernetes-validations (the CEL part of upstream's
// ValidateCustomResourceDefinitionOpenAPISchema): every rule and messageExpression must
// compile against its node's type, a fieldPath must name a field of the node, oldSelf
// may only be used where old and new values correlate (not below lists other than map
// lists), and the estimated cost of each rule (times how often it can run) and of all
// rules together must stay within upstream's static budgets.
import type { FieldError } from '../../../runtime/errors.js';
import { GoLiteral, goQuote } from '../../../runtime/gofmt.js';
import { child, forbidden, index, invalid, key } from '../../validation/field.js';
import type { JSONSchemaProps } from '../types.js';
import { compileNode, compileSchemaRules, hasRules, rulesOf, type ValidationRule } from './compile.js';
import { maxUint64 } from './cost.js';
import { validFieldPath } from './fieldpath.js';
import { additionalOf, itemsOf, propertiesOf } from './types.js';
import { runtimeCostBudget, validateAt, type State } from './validate.js';

/** Upstream's StaticEstimatedCostLimit: the most one rule may cost, times its cardinality. */
export const staticEstimatedCostLimit = 10_000_000;
/** Upstream's StaticEstimatedCRDCostLimit: the most all rules of a schema may cost together. */
export const staticEstimatedCRDCostLimit = 100_000_000;

interface RuleCost { path: string; cost: number }

class TotalCost {
  total = 0;
  mostExpensive: RuleCost[] = [];
  observe(path: string, cost: number): void {
    this.total = Math.min(maxUint64, this.total + cost);
    // Rules under 1% of the per-rule limit are never named as contributors.
    if (cost < staticEstimatedCostLimit / 100) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    this.mostExpensive.length = Math.min(this.mostExpensive.length, 4);
  }
}

interface Walk {
  schemaErrs: FieldError[];
  celErrs: FieldError[];
  total: TotalCost;
}

/** `path` is the schema's own path, e.g. spec.versions[0].schema.openAPIV3Schema. */
export function validateRuleDefinitions(schema: JSONSchemaProps, path: string): FieldError[] {
  if (!hasRules(schema)) return [];
  const w: Walk = { schemaErrs: [], celErrs: [], total: new TotalCost() };
  visit(schema, path, true, 1, undefined, w);
  const errs = [...w.schemaErrs, ...w.celErrs];
  // Defaults must pass the rules too (upstream checks them while validating defaults).
  if (errs.length === 0) errs.push(...validateDefaults(schema, path, true));
  if (w.total.total > staticEstimatedCRDCostLimit) {
    for (const e of w.total.mostExpensive) errs.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', w.total.total, staticEstimatedCRDCostLimit)));
  }
  return errs;
}

function bound(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : undefined;
}

function times(card: number | undefined, by: number | undefined): number | undefined {
  return card === undefined || by === undefined ? undefined : Math.min(maxUint64, card * by);
}

/**
 * Checks node `s` and below; returns whether form errors were found there, which (as
 * upstream) keeps its rules and its ancestors' rules from being compiled.
 * `cardinality`: the most times the node can occur (undefined: unbounded);
 * `uncorrelatable`: the nearest ancestor under which old and new values do not correlate.
 */
function visit(s: JSONSchemaProps, path: string, isResourceRoot: boolean, cardinality: number | undefined, uncorrelatable: string | undefined, w: Walk): boolean {
  let formErrors = false;
  const extra = additionalOf(s);
  if (extra && hasRules(extra)) {
    formErrors = visit(extra, child(path, 'additionalProperties'), extra['x-kubernetes-embedded-resource'] === true,
      times(cardinality, bound(s.maxProperties)), uncorrelatable, w) || formErrors;
  }
  for (const [name, p] of propertiesOf(s)) {
    if (!hasRules(p)) continue;
    // Maps of any x-kubernetes-map-type correlate by key.
    formErrors = visit(p, key(child(path, 'properties'), name), p['x-kubernetes-embedded-resource'] === true, cardinality, uncorrelatable, w) || formErrors;
  }
  const items = itemsOf(s);
  if (items && hasRules(items)) {
    // Only map lists correlate items (by key); set and atomic lists cannot.
    const un = uncorrelatable ?? (s['x-kubernetes-list-type'] !== 'map' ? path : undefined);
    formErrors = visit(items, child(path, 'items'), items['x-kubernetes-embedded-resource'] === true, times(cardinality, bound(s.maxItems)), un, w) || formErrors;
  }
  const rules = rulesOf(s);
  if (rules.length === 0) return formErrors;
  rules.forEach((r, i) => {
    const fp = typeof r.fieldPath === 'string' ? r.fieldPath : '';
    if (fp !== '' && validFieldPath(fp, s).error !== undefined) {
      w.schemaErrs.push(invalid(child(index(child(path, 'x-kubernetes-validations'), i), 'fieldPath'), fp, 'fieldPath must be a valid path'));
      formErrors = true;
    }
  });
  if (formErrors) return true;
  compileSchemaRules(s, isResourceRoot).forEach((cr, i) => {
    const rp = index(child(path, 'x-kubernetes-validations'), i);
    const rulePath = child(rp, 'rule');
    const cost = Math.min(maxUint64, cr.maxCost * (cardinality ?? cr.maxCardinality));
    if (cost > staticEstimatedCostLimit) w.celErrs.push(forbidden(rulePath, costErrorMessage('estimated rule cost', cost, staticEstimatedCostLimit)));
    w.total.observe(rulePath, cost);
    if (cr.error !== undefined) w.celErrs.push(invalid(rulePath, goRule(cr.rule), cr.error));
    const mePath = child(rp, 'messageExpression');
    if (cr.messageExpressionError !== undefined) {
      w.celErrs.push(invalid(mePath, goRule(cr.rule), cr.messageExpressionError));
    } else if (cr.messageExpression) {
      if (cr.messageExpressionMaxCost > staticEstimatedCostLimit) {
        w.celErrs.push(forbidden(mePath, costErrorMessage('estimated messageExpression cost', cr.messageExpressionMaxCost, staticEstimatedCostLimit)));
      }
      w.total.observe(mePath, cr.messageExpressionMaxCost);
    }
    if (cr.usesOldSelf && uncorrelatable !== undefined) {
      w.celErrs.push(invalid(rulePath, cr.rule.rule ?? '', `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    }
  });
  return false;
}

/**
 * The rules applied to every default in the schema, with the default as both the new and
 * the old value (so transition rules run too); all defaults share one runtime budget.
 */
function validateDefaults(schema: JSONSchemaProps, path: string, isResourceRoot: boolean): FieldError[] {
  const st: State = { budget: runtimeCostBudget, errs: [] };
  const walk = (s: JSONSchemaProps, p: string, root: boolean): void => {
    if (st.budget < 0 || !hasRules(s)) return;
    if (s.default !== undefined && s.default !== null) validateAt(compileNode(s, root), child(p, 'default'), s.default, s.default, st);
    for (const [name, ps] of propertiesOf(s)) walk(ps, key(child(p, 'properties'), name), ps['x-kubernetes-embedded-resource'] === true);
    const extra = additionalOf(s);
    if (extra) walk(extra, child(p, 'additionalProperties'), extra['x-kubernetes-embedded-resource'] === true);
    const items = itemsOf(s);
    if (items) walk(items, child(p, 'items'), items['x-kubernetes-embedded-resource'] === true);
  };
  walk(schema, path, isResourceRoot);
  return st.errs;
}

/** Upstream's getCostErrorMessage. */
export function costErrorMessage(name: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The rule as upstream prints the internal ValidationRule (%#v); a set pointer prints as an address. */
function goRule(r: ValidationRule): GoLiteral {
  const str = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');
  const reason = `(*apiextensions.FieldValueErrorReason)(${typeof r.reason === 'string' ? '0xc000010000' : 'nil'})`;
  return new GoLiteral(`apiextensions.ValidationRule{Rule:${str(r.rule)}, Message:${str(r.message)}, MessageExpression:${str(r.messageExpression)}, `
    + `Reason:${reason}, FieldPath:${str(r.fieldPath)}}`);
}
