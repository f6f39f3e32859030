// Compiling the x-kubernetes-validations of a schema (upstream's cel.Compile and
// NewValidator): each rule is parsed, type checked against the CEL type of its schema
// node (`self`, and `oldSelf` of the same type), planned on pkg/cel's environment and
// its worst-case cost estimated; a messageExpression likewise, and a fieldPath is
// normalized. The result mirrors the schema, keeping only nodes with rules below them.
import type { parse } from '@bufbuild/cel';
import { cel } from '../../../cel/runtime.js';
import { compile as celCompile, type Compiled } from '../../../cel/compile.js';
import { formatErrors } from '../../../cel/errors.js';
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';
import { check, isType } from './checker.js';
import { estimateCost } from './cost.js';
import { validFieldPath } from './fieldpath.js';
import { additionalOf, declType, itemsOf, maxCardinality, propertiesOf, type CelT } from './types.js';

/** One x-kubernetes-validations entry as written. */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
}

export interface CompiledRule {
  rule: ValidationRule;
  /** Undefined for an empty rule (reported by the form checks) or one that failed to compile. */
  program?: Compiled;
  error?: string;
  usesOldSelf: boolean;
  /** Worst-case cost of one evaluation. */
  maxCost: number;
  /** The most times the rule can run in one request, from the schema's smallest value. */
  maxCardinality: number;
  messageExpression?: Compiled;
  messageExpressionError?: string;
  messageExpressionMaxCost: number;
  /** The fieldPath as a field path, when it is valid. */
  fieldPath?: string;
}

export interface RuleNode {
  schema: JSONSchemaProps;
  isResourceRoot: boolean;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  additionalProperties?: RuleNode;
  items?: RuleNode;
}

/** The compiled rules of one version's schema; root is undefined when it has none. */
export interface CompiledRules { root?: RuleNode }

const cache = new WeakMap<JSONSchemaProps, CompiledRules>();

export function compileRules(schema: JSONSchemaProps): CompiledRules {
  let c = cache.get(schema);
  if (!c) {
    c = { root: compileNode(schema, true) };
    cache.set(schema, c);
  }
  return c;
}

export function rulesOf(s: JSONSchemaProps): ValidationRule[] {
  const v = s['x-kubernetes-validations'];
  return Array.isArray(v) ? v.map((r) => (isPlainObject(r) ? (r as ValidationRule) : {})) : [];
}

export function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if (rulesOf(s).length > 0) return true;
  if (hasRules(itemsOf(s)) || hasRules(additionalOf(s))) return true;
  return propertiesOf(s).some(([, p]) => hasRules(p));
}

export function compileNode(s: JSONSchemaProps, isResourceRoot: boolean): RuleNode | undefined {
  if (!hasRules(s)) return undefined;
  const node: RuleNode = { schema: s, isResourceRoot, rules: compileSchemaRules(s, isResourceRoot), properties: new Map() };
  const items = itemsOf(s);
  if (items) node.items = compileNode(items, items['x-kubernetes-embedded-resource'] === true);
  const extra = additionalOf(s);
  if (extra) node.additionalProperties = compileNode(extra, extra['x-kubernetes-embedded-resource'] === true);
  for (const [name, p] of propertiesOf(s)) {
    const child = compileNode(p, p['x-kubernetes-embedded-resource'] === true);
    if (child) node.properties.set(name, child);
  }
  return node;
}

/** Upstream names the type of self anew on every compilation, so that rules cannot depend on it. */
function selfTypeName(): string {
  return `selfType${process.hrtime()[1]}`;
}

/** Compiles the rules of one schema node (not of its children). */
export function compileSchemaRules(s: JSONSchemaProps, isResourceRoot: boolean): CompiledRule[] {
  const rules = rulesOf(s);
  if (rules.length === 0) return [];
  const self = declType(s, isResourceRoot, selfTypeName());
  if (!self) {
    const error = `rule declared on schema that does not support validation rules type: '${String(s.type ?? '')}' x-kubernetes-preserve-unknown-fields: '${s['x-kubernetes-preserve-unknown-fields'] === true}'`;
    return rules.map((rule) => ({ rule, error, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 }));
  }
  const vars = new Map<string, CelT>([['self', self], ['oldSelf', self]]);
  const cardinality = maxCardinality(self);
  return rules.map((rule) => compileRule(rule, s, vars, cardinality));
}

type Expression = { compiled: Compiled; maxCost: number; usesOldSelf: boolean; error?: undefined } | { error: string };

function compileExpression(src: string, vars: ReadonlyMap<string, CelT>, result: 'bool' | 'string', prefix: string): Expression {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = cel().parse(src);
  } catch {
    // pkg/cel words syntax errors as cel-go does.
    const r = celCompile(src, { variables: [...vars.keys()] });
    return { error: (r.error ?? 'compilation failed').replace(/^compilation failed: /, prefix) };
  }
  const checked = check(parsed, vars);
  if (checked.errors.length > 0) return { error: `${prefix}${formatErrors(src, checked.errors)}` };
  if (!isType(checked.type, result)) {
    return { error: result === 'bool' ? 'cel expression must evaluate to a bool' : 'messageExpression must evaluate to a string' };
  }
  const planned = celCompile(src, { variables: [...vars.keys()] });
  if (planned.error !== undefined) return { error: planned.error.replace(/^compilation failed: /, prefix) };
  return { compiled: planned.compiled, maxCost: estimateCost(parsed.expr!, checked.types), usesOldSelf: checked.usesOldSelf };
}

function compileRule(rule: ValidationRule, s: JSONSchemaProps, vars: ReadonlyMap<string, CelT>, cardinality: number): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 };
  const src = typeof rule.rule === 'string' ? rule.rule : '';
  if (src.trim() === '') return out;
  const r = compileExpression(src, vars, 'bool', 'compilation failed: ');
  if (r.error !== undefined) {
    out.error = r.error;
    return out;
  }
  out.program = r.compiled;
  out.usesOldSelf = r.usesOldSelf;
  out.maxCost = r.maxCost;
  out.maxCardinality = cardinality;
  if (typeof rule.messageExpression === 'string' && rule.messageExpression !== '') {
    const m = compileExpression(rule.messageExpression, vars, 'string', 'messageExpression compilation failed: ');
    if (m.error !== undefined) {
      out.messageExpressionError = m.error;
      return out;
    }
    out.messageExpression = m.compiled;
    out.messageExpressionMaxCost = m.maxCost;
  }
  if (typeof rule.fieldPath === 'string' && rule.fieldPath !== '') {
    const fp = validFieldPath(rule.fieldPath, s);
    if (fp.path !== undefined) out.fieldPath = fp.path;
  }
  return out;
}
