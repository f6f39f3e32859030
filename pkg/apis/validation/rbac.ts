// RBAC field validation shared by roles, clusterroles and their bindings (upstream:
// pkg/apis/rbac/validation). ObjectMeta is checked by the strategies.
import type { FieldError } from '../../runtime/errors.js';
import { child, index, invalid, notSupported, required } from './field.js';
import { labelSelectorConvertible, validateLabelSelector, type LabelSelector } from './labelselector.js';
import { nameIsDNSSubdomain, validateRBACName } from './names.js';
import { GoLiteral, goQuote } from '../../runtime/gofmt.js';

export const rbacGroup = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs?: string[] | null;
  apiGroups?: string[] | null;
  resources?: string[] | null;
  resourceNames?: string[] | null;
  nonResourceURLs?: string[] | null;
}

export interface RoleRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[] | null;
}

const len = (a: unknown[] | null | undefined): number => a?.length ?? 0;

export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(required(child(fieldPath, 'verbs'), 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    if (namespaced) {
      errs.push(invalid(child(fieldPath, 'nonResourceURLs'), rule.nonResourceURLs,
        'namespaced rules cannot apply to non-resource URLs'));
    }
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(invalid(child(fieldPath, 'nonResourceURLs'), rule.nonResourceURLs,
        'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) {
    errs.push(required(child(fieldPath, 'apiGroups'), 'resource rules must supply at least one api group'));
  }
  if (len(rule.resources) === 0) {
    errs.push(required(child(fieldPath, 'resources'), 'resource rules must supply at least one resource'));
  }
  return errs;
}

export function validateRules(rules: PolicyRule[] | null | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((r, i) => validatePolicyRule(r ?? {}, namespaced, index('rules', i)));
}

export function validateAggregationRule(rule: AggregationRule | null | undefined,
  allowInvalidLabelValueInSelector: boolean): FieldError[] {
  if (!rule) return [];
  const errs: FieldError[] = [];
  const path = 'aggregationRule.clusterRoleSelectors';
  const selectors = rule.clusterRoleSelectors ?? [];
  if (selectors.length === 0) {
    errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  selectors.forEach((sel, i) => {
    const p = index(path, i);
    errs.push(...validateLabelSelector(sel, { allowInvalidLabelValueInSelector }, p));
    // Upstream reports the (nil) converted selector, which renders as "null".
    if (!labelSelectorConvertible(sel ?? {})) errs.push(invalid(p, 'null', 'invalid label selector.'));
  });
  return errs;
}

/** `kinds` are the roleRef kinds the binding may point at. */
export function validateRoleRef(ref: RoleRef | null | undefined, kinds: string[]): FieldError[] {
  const r = ref ?? {};
  const errs: FieldError[] = [];
  if ((r.apiGroup ?? '') !== rbacGroup) errs.push(notSupported('roleRef.apiGroup', r.apiGroup ?? '', [rbacGroup]));
  if (!kinds.includes(r.kind ?? '')) errs.push(notSupported('roleRef.kind', r.kind ?? '', kinds));
  if (!r.name) {
    errs.push(required('roleRef.name'));
  } else {
    for (const msg of validateRBACName(r.name, false)) errs.push(invalid('roleRef.name', r.name, msg));
  }
  return errs;
}

/** `namespaced` is true for RoleBinding subjects (ServiceAccounts default to its namespace). */
export function validateSubject(s: Subject, namespaced: boolean, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = s.name ?? '';
  const apiGroup = s.apiGroup ?? '';
  if (!name) errs.push(required(child(fieldPath, 'name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name) for (const msg of nameIsDNSSubdomain(name, false)) errs.push(invalid(child(fieldPath, 'name'), name, msg));
      if (apiGroup) errs.push(notSupported(child(fieldPath, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(required(child(fieldPath, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(notSupported(child(fieldPath, 'apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(notSupported(child(fieldPath, 'kind'), s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

export function validateSubjects(subjects: Subject[] | null | undefined, namespaced: boolean): FieldError[] {
  return (subjects ?? []).flatMap((s, i) => validateSubject(s ?? {}, namespaced, index('subjects', i)));
}

/** Upstream compares the whole struct and reports the new one. */
export function validateRoleRefUnchanged(ref: RoleRef | null | undefined, old: RoleRef | null | undefined): FieldError[] {
  const a = ref ?? {};
  const b = old ?? {};
  const same = (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.kind ?? '') === (b.kind ?? '') && (a.name ?? '') === (b.name ?? '');
  const literal = new GoLiteral(`rbac.RoleRef{APIGroup:${goQuote(a.apiGroup ?? '')}, Kind:${goQuote(a.kind ?? '')}, Name:${goQuote(a.name ?? '')}}`);
  return same ? [] : [invalid('roleRef', literal, 'cannot change roleRef')];
}

/** Defaulting of v1 bindings: roleRef and User/Group subjects get the RBAC group. */
export function defaultBinding(obj: Record<string, unknown>): void {
  // roleRef is a struct upstream, so even a missing one is defaulted.
  if (!obj.roleRef || typeof obj.roleRef !== 'object' || Array.isArray(obj.roleRef)) obj.roleRef = {};
  const ref = obj.roleRef as RoleRef;
  if (!ref.apiGroup) ref.apiGroup = rbacGroup;
  if (Array.isArray(obj.subjects)) {
    for (const s of obj.subjects as Subject[]) {
      if (s && typeof s === 'object' && !s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = rbacGroup;
    }
  }
}
