// Validation of ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding with
// upstream's messages. Expressions that do not compile (syntax, undeclared names) are
// field errors, as upstream; type errors against the matched kinds' schemas are not —
// the status controller reports those in status.typeChecking.
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { compile } from '../../cel/compile.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required, tooMany } from '../validation/field.js';
import { validateLabelSelector, type LabelSelector } from '../validation/labelselector.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName } from '../validation/names.js';
import { validateRuleWithOperations } from './webhook-validation.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const failurePolicies = ['Fail', 'Ignore'];
const matchPolicies = ['Equivalent', 'Exact'];
const validationActions = ['Audit', 'Deny', 'Warn'];
const reasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const maxAuditAnnotations = 20;
const maxAuditAnnotationValueExpressionLength = 5 * 1024;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function',
  'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** The names a policy's expressions may use (upstream's OptionalVariableDeclarations). */
export function policyVariables(spec: Obj, opts: { authorizer: boolean }): string[] {
  const names = ['object', 'oldObject', 'request', 'namespaceObject'];
  if (spec.paramKind != null) names.push('params');
  if (opts.authorizer) names.push('authorizer');
  if (list(spec.variables).length > 0) names.push('variables');
  return names;
}

function variableNames(spec: Obj): string[] {
  return list(spec.variables).map((v) => str(obj(v).name)).filter(Boolean);
}

function celError(path: string, expression: string, spec: Obj, authorizer = true): FieldError[] {
  const r = compile(expression, { variables: policyVariables(spec, { authorizer }), compositionVariables: variableNames(spec) });
  return r.error !== undefined ? [invalid(path, expression, r.error)] : [];
}

export function validateValidatingAdmissionPolicy(o: KubeObject): FieldError[] {
  const spec = obj(o.spec);
  const p = 'spec';
  const errs: FieldError[] = [];
  if (spec.failurePolicy == null) errs.push(required(child(p, 'failurePolicy')));
  else if (!failurePolicies.includes(str(spec.failurePolicy))) errs.push(notSupported(child(p, 'failurePolicy'), spec.failurePolicy, failurePolicies));
  if (spec.paramKind != null) errs.push(...validateParamKind(obj(spec.paramKind), child(p, 'paramKind')));
  if (spec.matchConstraints == null) {
    errs.push(required(child(p, 'matchConstraints')));
  } else {
    errs.push(...validateMatchResources(obj(spec.matchConstraints), child(p, 'matchConstraints')));
    if (list(obj(spec.matchConstraints).resourceRules).length === 0) errs.push(required(child(p, 'matchConstraints', 'resourceRules')));
  }
  errs.push(...validateMatchConditions(list(spec.matchConditions), spec, child(p, 'matchConditions')));
  list(spec.variables).forEach((v, i) => errs.push(...validateVariable(obj(v), spec, index(child(p, 'variables'), i))));
  const validations = list(spec.validations);
  const annotations = list(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    const msg = 'validations or auditAnnotations must contain at least one item';
    errs.push(required(child(p, 'validations'), msg), required(child(p, 'auditAnnotations'), msg));
  } else {
    validations.forEach((v, i) => errs.push(...validateValidation(obj(v), spec, index(child(p, 'validations'), i))));
    if (annotations.length > maxAuditAnnotations) {
      errs.push(invalid(child(p, 'auditAnnotations'), annotations, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
    }
    const keys = new Set<string>();
    annotations.forEach((a, i) => {
      const path = index(child(p, 'auditAnnotations'), i);
      errs.push(...validateAuditAnnotation(obj(a), o.metadata.name ?? '', spec, path));
      const k = str(obj(a).key);
      if (keys.has(k)) errs.push(duplicate(child(path, 'key'), k));
      keys.add(k);
    });
  }
  return errs;
}

function validateParamKind(pk: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk.apiVersion);
  if (!apiVersion) {
    errs.push(required(child(path, 'apiVersion')));
  } else {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) {
      errs.push(invalid(child(path, 'apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    } else {
      const [group, version] = slashes === 1 ? apiVersion.split('/') as [string, string] : ['', apiVersion];
      if (group) { const m = isDNS1123Subdomain(group); if (m.length) errs.push(invalid(child(path, 'apiVersion'), group, m.join(','))); }
      if (!version) errs.push(invalid(child(path, 'apiVersion'), apiVersion, 'version must be specified'));
      else { const m = isDNS1035Label(version); if (m.length) errs.push(invalid(child(path, 'apiVersion'), version, m.join(','))); }
    }
  }
  const kind = str(pk.kind);
  if (!kind) errs.push(required(child(path, 'kind')));
  else {
    const m = isDNS1035Label(kind.toLowerCase());
    if (m.length) errs.push(invalid(child(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${m.join(',')}`));
  }
  return errs;
}

export function validateMatchResources(mr: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (mr.matchPolicy == null) errs.push(required(child(path, 'matchPolicy')));
  else if (!matchPolicies.includes(str(mr.matchPolicy))) errs.push(notSupported(child(path, 'matchPolicy'), mr.matchPolicy, matchPolicies));
  for (const sel of ['namespaceSelector', 'objectSelector']) {
    if (mr[sel] == null) errs.push(required(child(path, sel)));
    else errs.push(...validateLabelSelector(mr[sel] as LabelSelector, {}, child(path, sel)));
  }
  for (const field of ['resourceRules', 'excludeResourceRules']) {
    list(mr[field]).forEach((r, i) => {
      const rp = index(child(path, field), i);
      const rule = obj(r);
      const seen = new Set<string>();
      list(rule.resourceNames).forEach((n, j) => {
        const name = str(n);
        for (const m of isValidPathSegmentName(name)) errs.push(invalid(index(child(rp, 'resourceNames'), j), name, m));
        if (seen.has(name)) errs.push(duplicate(index(child(rp, 'resourceNames'), j), name));
        seen.add(name);
      });
      errs.push(...validateRuleWithOperations(rule, rp));
    });
  }
  return errs;
}

function validateMatchConditions(conds: unknown[], spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conds.length > 64) errs.push(tooMany(path, conds.length, 64));
  const names = new Set<string>();
  conds.forEach((c, i) => {
    const mc = obj(c);
    const p = index(path, i);
    const expr = str(mc.expression).trim();
    if (!expr) errs.push(required(child(p, 'expression')));
    else errs.push(...celError(child(p, 'expression'), expr, { ...spec, variables: undefined }));
    const name = str(mc.name);
    if (!name) errs.push(required(child(p, 'name')));
    else for (const m of isQualifiedName(name)) errs.push(invalid(child(p, 'name'), name, m));
    if (name) {
      if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
      names.add(name);
    }
  });
  return errs;
}

function validateVariable(v: Obj, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(v.name);
  if (!name.trim()) errs.push(required(child(path, 'name'), 'name is not specified'));
  else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) || celReserved.has(name)) {
    errs.push(invalid(child(path, 'name'), name, 'name is not a valid CEL identifier'));
  }
  const expr = str(v.expression);
  if (!expr.trim()) errs.push(required(child(path, 'expression'), 'expression is not specified'));
  else errs.push(...celError(child(path, 'expression'), expr, spec));
  return errs;
}

function validateValidation(v: Obj, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const expr = str(v.expression);
  if (!expr.trim()) errs.push(required(child(path, 'expression'), 'expression is not specified'));
  else errs.push(...celError(child(path, 'expression'), expr, spec));
  const me = str(v.messageExpression);
  if (me.length > 0 && !me.trim()) errs.push(invalid(child(path, 'messageExpression'), me, 'must be non-empty if specified'));
  else if (me.trim()) errs.push(...celError(child(path, 'messageExpression'), me, spec, false));
  const msg = str(v.message);
  if (msg.length > 0 && !msg.trim()) errs.push(invalid(child(path, 'message'), msg, 'message must be non-empty if specified'));
  else if (/[\n\r]+/.test(msg.trim())) errs.push(invalid(child(path, 'message'), msg, 'message must not contain line breaks'));
  if (v.reason != null && !reasons.includes(str(v.reason))) errs.push(notSupported(child(path, 'reason'), v.reason, reasons));
  return errs;
}

function validateAuditAnnotation(a: Obj, policyName: string, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(a.key);
  if (policyName) {
    for (const m of isQualifiedName(`${policyName}/${key}`)) errs.push(invalid(child(path, 'key'), `${policyName}/${key}`, m));
  } else {
    errs.push(invalid(child(path, 'key'), key, 'requires metadata.name be non-empty'));
  }
  const ve = str(a.valueExpression).trim();
  if (!ve) errs.push(required(child(path, 'valueExpression'), 'valueExpression is not specified'));
  else if (ve.length > maxAuditAnnotationValueExpressionLength) {
    errs.push(required(child(path, 'valueExpression'), `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
  } else {
    errs.push(...celError(child(path, 'valueExpression'), str(a.valueExpression), spec));
  }
  return errs;
}

export function validateValidatingAdmissionPolicyStatus(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const warnings = list(obj(obj(o.status).typeChecking).expressionWarnings);
  warnings.forEach((w, i) => {
    const p = index(child('status', 'typeChecking', 'expressionWarnings'), i);
    if (!str(obj(w).warning)) errs.push(required(child(p, 'warning')));
    if (!str(obj(w).fieldRef).trim()) errs.push(required(child(p, 'fieldRef')));
  });
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(o: KubeObject): FieldError[] {
  const spec = obj(o.spec);
  const p = 'spec';
  const errs: FieldError[] = [];
  const policyName = str(spec.policyName);
  if (!policyName) errs.push(required(child(p, 'policyName')));
  else for (const m of isDNS1123Subdomain(policyName)) errs.push(invalid(child(p, 'policyName'), policyName, m));
  if (spec.paramRef != null) errs.push(...validateParamRef(obj(spec.paramRef), child(p, 'paramRef')));
  if (spec.matchResources != null) errs.push(...validateMatchResources(obj(spec.matchResources), child(p, 'matchResources')));
  errs.push(...validateValidationActions(list(spec.validationActions), child(p, 'validationActions')));
  return errs;
}

function validateParamRef(pr: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(pr.name);
  if (name) {
    for (const m of isValidPathSegmentName(name)) errs.push(invalid(child(path, 'name'), name, m));
    if (pr.selector != null) errs.push(forbidden(child(path, 'name'), 'name and selector are mutually exclusive'));
  }
  if (pr.selector != null) {
    errs.push(...validateLabelSelector(pr.selector as LabelSelector, {}, child(path, 'selector')));
    if (name) errs.push(forbidden(child(path, 'selector'), 'name and selector are mutually exclusive'));
  }
  if (!name && pr.selector == null) errs.push(required(path, 'one of name or selector must be specified'));
  const action = str(pr.parameterNotFoundAction);
  if (!action) errs.push(required(child(path, 'parameterNotFoundAction')));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(notSupported(child(path, 'parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    const s = str(a);
    if (!validationActions.includes(s)) errs.push(notSupported(index(path, i), a, validationActions));
    if (seen.has(s)) errs.push(duplicate(index(path, i), a));
    seen.add(s);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid(path, actions,
      'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(path, 'at least one validation action is required'));
  return errs;
}
