// admissionregistration.k8s.io/v1 validation of webhook configurations, with upstream's
// messages (pkg/apis/admissionregistration/validation and apiserver's util/webhook).
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { child, duplicate, index, invalid, notSupported, required } from '../validation/field.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../validation/names.js';
import { validateLabelSelector, type LabelSelector } from '../validation/labelselector.js';

export const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];
const supportedFailurePolicies = ['Fail', 'Ignore'];
const supportedMatchPolicies = ['Equivalent', 'Exact'];
const supportedReinvocationPolicies = ['IfNeeded', 'Never'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const allSideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const supportedScopes = ['*', 'Cluster', 'Namespaced'];

export interface WebhookValidationOptions {
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidSideEffects: boolean;
  mutating: boolean;
}

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

/** The create-time options: everything strict. */
export const strictWebhookOptions = (mutating: boolean): WebhookValidationOptions => ({
  requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true, allowInvalidSideEffects: false, mutating,
});

/**
 * On update, rules the stored object already broke stay relaxed, so old objects remain
 * writable (upstream: ValidatingWebhookConfiguration update options).
 */
export function updateWebhookOptions(old: KubeObject, mutating: boolean): WebhookValidationOptions {
  const hooks = (Array.isArray(old.webhooks) ? old.webhooks : []).filter(isPlainObject);
  const names = hooks.map((h) => h.name).filter((n) => typeof n === 'string' && n !== '');
  return {
    requireRecognizedAdmissionReviewVersion: hooks.every((h) =>
      strings(h.admissionReviewVersions).some((v) => acceptedAdmissionReviewVersions.includes(v))),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidSideEffects: hooks.some((h) => typeof h.sideEffects === 'string' && !noSideEffectClasses.includes(h.sideEffects)),
    mutating,
  };
}

export function validateWebhookConfiguration(obj: KubeObject, opts: WebhookValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const hooks = Array.isArray(obj.webhooks) ? obj.webhooks : [];
  hooks.forEach((h, i) => {
    const hook = isPlainObject(h) ? h : {};
    const path = index('webhooks', i);
    errs.push(...validateWebhook(hook, opts, path));
    errs.push(...validateAdmissionReviewVersions(strings(hook.admissionReviewVersions),
      opts.requireRecognizedAdmissionReviewVersion, child(path, 'admissionReviewVersions')));
    const name = typeof hook.name === 'string' ? hook.name : '';
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (seen.has(name)) errs.push(duplicate(child(path, 'name'), name));
      else seen.add(name);
    }
  });
  return errs;
}

/** util/validation IsFullyQualifiedName. */
export function isFullyQualifiedName(path: string, name: string): FieldError[] {
  if (name === '') return [required(path)];
  const e = isDNS1123Subdomain(name);
  if (e.length > 0) return [invalid(path, name, e.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateWebhook(hook: Obj, opts: WebhookValidationOptions, path: string): FieldError[] {
  const errs = isFullyQualifiedName(child(path, 'name'), typeof hook.name === 'string' ? hook.name : '');
  (Array.isArray(hook.rules) ? hook.rules : []).forEach((r, i) => {
    errs.push(...validateRuleWithOperations(isPlainObject(r) ? r : {}, index(child(path, 'rules'), i)));
  });
  if (hook.failurePolicy != null && !supportedFailurePolicies.includes(String(hook.failurePolicy))) {
    errs.push(notSupported(child(path, 'failurePolicy'), hook.failurePolicy, supportedFailurePolicies));
  }
  if (hook.matchPolicy != null && !supportedMatchPolicies.includes(String(hook.matchPolicy))) {
    errs.push(notSupported(child(path, 'matchPolicy'), hook.matchPolicy, supportedMatchPolicies));
  }
  const classes = opts.allowInvalidSideEffects ? allSideEffectClasses : noSideEffectClasses;
  if (hook.sideEffects == null) {
    errs.push(required(child(path, 'sideEffects'), `must specify one of ${classes.join(', ')}`));
  } else if (!classes.includes(String(hook.sideEffects))) {
    errs.push(notSupported(child(path, 'sideEffects'), hook.sideEffects, classes));
  }
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) {
    errs.push(invalid(child(path, 'timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  for (const sel of ['namespaceSelector', 'objectSelector']) {
    if (isPlainObject(hook[sel])) errs.push(...validateLabelSelector(hook[sel] as LabelSelector, {}, child(path, sel)));
  }
  if (opts.mutating && hook.reinvocationPolicy != null && !supportedReinvocationPolicies.includes(String(hook.reinvocationPolicy))) {
    errs.push(notSupported(child(path, 'reinvocationPolicy'), hook.reinvocationPolicy, supportedReinvocationPolicies));
  }
  const cc = isPlainObject(hook.clientConfig) ? hook.clientConfig : {};
  const ccPath = child(path, 'clientConfig');
  const hasURL = typeof cc.url === 'string';
  const hasService = isPlainObject(cc.service);
  if (hasURL === hasService) {
    errs.push(required(ccPath, 'exactly one of url or service is required'));
  } else if (hasURL) {
    errs.push(...validateWebhookURL(child(ccPath, 'url'), cc.url as string, true));
  } else {
    const svc = cc.service as Obj;
    errs.push(...validateWebhookService(child(ccPath, 'service'), str(svc.name), str(svc.namespace),
      typeof svc.path === 'string' ? svc.path : undefined, typeof svc.port === 'number' ? svc.port : 443));
  }
  return errs;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) {
    return [required(path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`)];
  }
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(index(path, i), v, m));
    if (acceptedAdmissionReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) {
    errs.push(invalid(path, versions, `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`));
  }
  return errs;
}

const hasWildcard = (list: string[]): boolean => list.includes('*');

export function validateRuleWithOperations(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule.operations);
  if (ops.length === 0) errs.push(required(child(path, 'operations')));
  if (ops.length > 1 && hasWildcard(ops)) {
    errs.push(invalid(child(path, 'operations'), ops, "if '*' is present, must not specify other operations"));
  }
  ops.forEach((op, i) => {
    if (!supportedOperations.includes(op)) errs.push(notSupported(index(child(path, 'operations'), i), op, supportedOperations));
  });
  errs.push(...validateRule(rule, path));
  return errs;
}

function validateRule(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(required(child(path, 'apiGroups')));
  if (groups.length > 1 && hasWildcard(groups)) {
    errs.push(invalid(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  }
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(required(child(path, 'apiVersions')));
  if (versions.length > 1 && hasWildcard(versions)) {
    errs.push(invalid(child(path, 'apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  }
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(index(child(path, 'apiVersions'), i)));
  });
  errs.push(...validateResources(strings(rule.resources), child(path, 'resources')));
  if (rule.scope != null && !supportedScopes.includes(String(rule.scope))) {
    errs.push(notSupported(child(path, 'scope'), rule.scope, supportedScopes));
  }
  return errs;
}

function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((rs, i) => {
    if (rs === '') {
      errs.push(required(index(path, i)));
      return;
    }
    if (rs === '*/*') doubleWildcard = true;
    if (rs === '*') singleWildcard = true;
    const slash = rs.indexOf('/');
    if (slash < 0) {
      withoutSub = rs !== '*';
      return;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (withWildcardSub.has(res)) errs.push(invalid(index(path, i), rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(index(path, i), rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) {
    errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  }
  if (singleWildcard && withoutSub) {
    errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
  return errs;
}

/** The parts of a URL as Go's url.Parse splits them (enough for webhook checks). */
function goURLParts(s: string): { scheme: string; user?: string; host: string; query: string; fragment: string } {
  let rest = s;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) { fragment = rest.slice(hash + 1); rest = rest.slice(0, hash); }
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) { scheme = m[1].toLowerCase(); rest = rest.slice(m[0].length); }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) { query = rest.slice(q + 1); rest = rest.slice(0, q); }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) { user = authority.slice(0, at); authority = authority.slice(at + 1); }
    host = authority;
  }
  return { scheme, user, host, query, fragment };
}

/** apiserver util/webhook ValidateWebhookURL. */
export function validateWebhookURL(path: string, url: string, forceHttps: boolean): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = goURLParts(url);
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query !== '') errs.push(invalid(path, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** apiserver util/webhook ValidateWebhookService. */
export function validateWebhookService(path: string, name: string, namespace: string, urlPath: string | undefined,
  port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(required(child(path, 'name'), 'service name is required'));
  if (namespace === '') errs.push(required(child(path, 'namespace'), 'service namespace is required'));
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push(invalid(child(path, 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const p = child(path, 'path');
  if (urlPath === '//') return [...errs, invalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(p, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const f of isDNS1123Subdomain(step)) errs.push(invalid(p, urlPath, `segment[${i}]: ${f}`));
  });
  return errs;
}
