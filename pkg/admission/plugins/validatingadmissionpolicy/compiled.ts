// A policy's expressions compiled once per stored revision. Expressions that do not
// compile here passed API validation under an older server; as upstream, they fail at
// admission time under the policy's failurePolicy.
import { compile, type Compiled } from '../../../cel/compile.js';
import { policyVariables } from '../../../apis/admissionregistration/policy-validation.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Expression {
  expression: string;
  compiled?: Compiled;
  error?: string;
}

export interface CompiledPolicy {
  name: string;
  failurePolicy: 'Fail' | 'Ignore';
  paramKind?: { apiVersion: string; kind: string };
  matchConstraints: Obj;
  variables: Array<{ name: string; expr: Expression }>;
  matchConditions: Array<{ name: string; expr: Expression }>;
  validations: Array<{ expr: Expression; message: string; messageExpr?: Expression; reason: string }>;
  auditAnnotations: Array<{ key: string; expr: Expression }>;
}

function compileOne(expression: string, variables: string[], compositionVariables: string[]): Expression {
  const r = compile(expression, { variables, compositionVariables });
  return r.error !== undefined ? { expression, error: r.error } : { expression, compiled: r.compiled };
}

export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = isPlainObject(policy.spec) ? policy.spec : {};
  const withAuthz = policyVariables(spec, { authorizer: true });
  const withoutAuthz = policyVariables(spec, { authorizer: false });
  const varNames = list(spec.variables).map((v) => str(v.name));
  const pk = isPlainObject(spec.paramKind) ? spec.paramKind : undefined;
  return {
    name: policy.metadata.name ?? '',
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    paramKind: pk ? { apiVersion: str(pk.apiVersion), kind: str(pk.kind) } : undefined,
    matchConstraints: isPlainObject(spec.matchConstraints) ? spec.matchConstraints : {},
    variables: list(spec.variables).map((v) => ({ name: str(v.name), expr: compileOne(str(v.expression), withAuthz, varNames) })),
    matchConditions: list(spec.matchConditions).map((c) => ({
      name: str(c.name), expr: compileOne(str(c.expression), withAuthz.filter((n) => n !== 'variables'), []),
    })),
    validations: list(spec.validations).map((v) => ({
      expr: compileOne(str(v.expression), withAuthz, varNames),
      message: str(v.message),
      messageExpr: str(v.messageExpression).trim() ? compileOne(str(v.messageExpression), withoutAuthz, varNames) : undefined,
      reason: str(v.reason),
    })),
    auditAnnotations: list(spec.auditAnnotations).map((a) => ({ key: str(a.key), expr: compileOne(str(a.valueExpression), withAuthz, varNames) })),
  };
}
