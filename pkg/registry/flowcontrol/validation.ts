// flowcontrol validation with upstream v1.28's paths and messages. Both served versions
// share it: the only difference is the name of the limited level's shares field.
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/object.js';
import { GoLiteral, goQuote } from '../../runtime/gofmt.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required } from '../../apis/validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apis/validation/names.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { SharesField } from './defaults.js';
import { mandatoryFlowSchemaSpec, mandatoryPriorityLevelSpec } from './bootstrap.js';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strs = (v: unknown): string[] => arr(v).map((x) => (typeof x === 'string' ? x : String(x)));
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

export const FlowSchemaMaxMatchingPrecedence = 10000;
const MaxQueues = 10_000_000;
const MaxHashBits = 60;
const supportedVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

/**
 * Go's semantic equality of two decoded specs: omitted, null, false, "" and empty lists
 * are the same zero value. Numbers are kept, since 0 in an optional pointer field is set.
 */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalize);
  if (isPlainObject(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    return out;
  }
  if (v === null || v === false || v === '') return undefined;
  return v;
}

export const semanticEqual = (a: unknown, b: unknown): boolean => deepEqual(normalize(a), normalize(b));

// ---- FlowSchema ----

export function validateFlowSchema(name: string, spec: Obj, status: unknown): FieldError[] {
  const errs = validateFlowSchemaSpec(name, spec, 'spec');
  const mandatory = mandatoryFlowSchemaSpec(name);
  if (mandatory && !semanticEqual(spec, mandatory)) errs.push(invalid('spec', spec, `spec of '${name}' must equal the fixed value`));
  errs.push(...validateConditions(status, 'status'));
  return errs;
}

function validateFlowSchemaSpec(name: string, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mp = int(spec.matchingPrecedence);
  if (mp <= 0) errs.push(invalid(child(path, 'matchingPrecedence'), mp, 'must be a positive value'));
  if (mp > FlowSchemaMaxMatchingPrecedence) {
    errs.push(invalid(child(path, 'matchingPrecedence'), mp, `must not be greater than ${FlowSchemaMaxMatchingPrecedence}`));
  }
  if (mp === 1 && name !== 'exempt') errs.push(invalid(child(path, 'matchingPrecedence'), mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
  if (isPlainObject(spec.distinguisherMethod)) {
    const t = str(spec.distinguisherMethod.type);
    if (t !== 'ByNamespace' && t !== 'ByUser') {
      errs.push(notSupported(child(path, 'distinguisherMethod', 'type'),
        new GoLiteral(`flowcontrol.FlowDistinguisherMethod{Type:${goQuote(t)}}`), ['ByNamespace', 'ByUser']));
    }
  }
  const plName = str(o(spec.priorityLevelConfiguration).name);
  if (plName) {
    for (const msg of isDNS1123Subdomain(plName)) errs.push(invalid(child(path, 'priorityLevelConfiguration', 'name'), plName, msg));
  } else {
    errs.push(required(child(path, 'priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  }
  arr(spec.rules).forEach((r, i) => errs.push(...validateRule(o(r), index(child(path, 'rules'), i))));
  return errs;
}

function validateRule(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = arr(rule.subjects);
  if (subjects.length > 0) subjects.forEach((s, i) => errs.push(...validateSubject(o(s), index(child(path, 'subjects'), i))));
  else errs.push(required(child(path, 'subjects'), 'subjects must contain at least one value'));
  const resourceRules = arr(rule.resourceRules);
  const nonResourceRules = arr(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(o(r), index(child(path, 'resourceRules'), i))));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(o(r), index(child(path, 'nonResourceRules'), i))));
  return errs;
}

const subjectKinds: Array<[kind: string, field: string]> = [['ServiceAccount', 'serviceAccount'], ['User', 'user'], ['Group', 'group']];

function validateSubject(s: Obj, path: string): FieldError[] {
  const kind = str(s.kind);
  const own = subjectKinds.find(([k]) => k === kind);
  if (!own) return [notSupported(child(path, 'kind'), kind, ['Group', 'ServiceAccount', 'User'])];
  const errs: FieldError[] = [];
  const [, field] = own;
  const p = child(path, field);
  if (!isPlainObject(s[field])) {
    errs.push(required(p, `${field} is required when subject kind is '${kind}'`));
  } else if (kind === 'ServiceAccount') {
    errs.push(...validateServiceAccountSubject(s[field] as Obj, p));
  } else if (!str((s[field] as Obj).name)) {
    errs.push(required(child(p, 'name')));
  }
  for (const [otherKind, otherField] of subjectKinds) {
    if (otherKind !== kind && s[otherField] !== undefined && s[otherField] !== null) {
      errs.push(forbidden(child(path, otherField), `${otherField} is forbidden when subject kind is not '${otherKind}'`));
    }
  }
  return errs;
}

function validateServiceAccountSubject(sa: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sa.name);
  if (!name) errs.push(required(child(path, 'name')));
  else if (name !== '*') for (const msg of isDNS1123Subdomain(name)) errs.push(invalid(child(path, 'name'), name, msg));
  const ns = str(sa.namespace);
  if (ns) for (const msg of isDNS1123Label(ns)) errs.push(invalid(child(path, 'namespace'), ns, msg));
  else errs.push(required(child(path, 'namespace'), 'must specify namespace for service account'));
  return errs;
}

function validateVerbs(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  if (!verbs.every((v) => supportedVerbs.includes(v))) return [notSupported(path, verbs, supportedVerbs)];
  return [];
}

function validateResourceRule(rule: Obj, path: string): FieldError[] {
  const errs = validateVerbs(strs(rule.verbs), child(path, 'verbs'));
  const apiGroups = strs(rule.apiGroups);
  if (apiGroups.length === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  else if (apiGroups.length > 1 && apiGroups.includes('*')) errs.push(invalid(child(path, 'apiGroups'), apiGroups, "if '*' is present, must not specify other api groups"));
  const resources = strs(rule.resources);
  if (resources.length === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*')) errs.push(invalid(child(path, 'resources'), resources, "if '*' is present, must not specify other resources"));
  const namespaces = strs(rule.namespaces);
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errs.push(required(child(path, 'namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.includes('*')) {
    if (namespaces.length > 1) errs.push(invalid(child(path, 'namespaces'), namespaces, "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of isDNS1123Label(ns)) errs.push(invalid(index(child(path, 'namespaces'), i), ns, nsErrIntro + msg));
    });
  }
  return errs;
}

function validateNonResourceRule(rule: Obj, path: string): FieldError[] {
  const errs = validateVerbs(strs(rule.verbs), child(path, 'verbs'));
  const urls = strs(rule.nonResourceURLs);
  const p = child(path, 'nonResourceURLs');
  if (urls.length === 0) errs.push(required(p, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) errs.push(invalid(p, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((u, i) => {
      const msg = nonResourceURLError(u);
      if (msg) errs.push(invalid(index(p, i), u, msg));
    });
  }
  return errs;
}

function nonResourceURLError(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return 'must start with slash';
  if (path.includes(' ')) return 'must not contain white-space';
  if (path.includes('//')) return 'must not contain double slash';
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

/** Both kinds' status: condition types are required and unique. */
export function validateConditions(status: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(o(status).conditions).forEach((c, i) => {
    const p = index(child(path, 'conditions'), i);
    const type = str(o(c).type);
    if (seen.has(type)) errs.push(duplicate(child(p, 'type'), type));
    seen.add(type);
    if (!type) errs.push(required(child(p, 'type'), 'must not be empty'));
  });
  return errs;
}

// ---- PriorityLevelConfiguration ----

export function validatePriorityLevel(name: string, spec: Obj, status: unknown, shares: SharesField): FieldError[] {
  const errs = validatePriorityLevelSpec(name, spec, 'spec', shares);
  errs.push(...validateMandatoryPriorityLevel(name, spec, shares));
  errs.push(...validateConditions(status, 'status'));
  return errs;
}

function validateMandatoryPriorityLevel(name: string, spec: Obj, shares: SharesField): FieldError[] {
  const fixed = mandatoryPriorityLevelSpec(name);
  if (!fixed) return [];
  const want = structuredClone(fixed);
  const limited = want.limited as Obj | undefined;
  if (limited && shares !== 'nominalConcurrencyShares') {
    limited[shares] = limited.nominalConcurrencyShares;
    delete limited.nominalConcurrencyShares;
  }
  if (name === 'exempt') {
    // Operators may tune the exempt level's `exempt` settings, nothing else of its spec.
    const have = { ...spec, exempt: want.exempt };
    return semanticEqual(have, want) ? []
      : [invalid('spec', spec, `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`)];
  }
  return semanticEqual(spec, want) ? [] : [invalid('spec', spec, `spec of '${name}' must equal the fixed value`)];
}

function validatePriorityLevelSpec(name: string, spec: Obj, path: string, shares: SharesField): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if ((name === 'exempt') !== (type === 'Exempt')) {
    errs.push(invalid(child(path, 'type'), type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  const present = (v: unknown): boolean => v !== undefined && v !== null;
  switch (type) {
    case 'Exempt':
      if (present(spec.limited)) errs.push(forbidden(child(path, 'limited'), 'must be nil if the type is not Limited'));
      if (isPlainObject(spec.exempt)) errs.push(...validateExempt(spec.exempt, child(path, 'exempt')));
      break;
    case 'Limited':
      if (present(spec.exempt)) errs.push(forbidden(child(path, 'exempt'), 'must be nil if the type is Limited'));
      if (!isPlainObject(spec.limited)) errs.push(required(child(path, 'limited'), 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec.limited, child(path, 'limited'), shares));
      break;
    default:
      errs.push(notSupported(child(path, 'type'), type, ['Exempt', 'Limited']));
  }
  return errs;
}

function validateExempt(e: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof e.nominalConcurrencyShares === 'number' && e.nominalConcurrencyShares < 0) {
    errs.push(invalid(child(path, 'nominalConcurrencyShares'), e.nominalConcurrencyShares, 'must be a non-negative integer'));
  }
  errs.push(...validateLendable(e.lendablePercent, child(path, 'lendablePercent')));
  return errs;
}

function validateLendable(v: unknown, path: string): FieldError[] {
  return typeof v === 'number' && (v < 0 || v > 100) ? [invalid(path, v, 'must be between 0 and 100, inclusive')] : [];
}

function validateLimited(l: Obj, path: string, shares: SharesField): FieldError[] {
  const errs: FieldError[] = [];
  const n = int(l[shares]);
  if (n <= 0) errs.push(invalid(child(path, shares), n, 'must be positive'));
  errs.push(...validateLimitResponse(o(l.limitResponse), child(path, 'limitResponse')));
  errs.push(...validateLendable(l.lendablePercent, child(path, 'lendablePercent')));
  if (typeof l.borrowingLimitPercent === 'number' && l.borrowingLimitPercent < 0) {
    errs.push(invalid(child(path, 'borrowingLimitPercent'), l.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  }
  return errs;
}

function validateLimitResponse(lr: Obj, path: string): FieldError[] {
  const type = str(lr.type);
  const q = child(path, 'queuing');
  switch (type) {
    case 'Reject':
      return lr.queuing !== undefined && lr.queuing !== null ? [forbidden(q, 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return isPlainObject(lr.queuing) ? validateQueuing(lr.queuing, q) : [required(q, 'must not be empty if limited.limitResponse.type is Limited')];
    default:
      return [notSupported(child(path, 'type'), type, ['Queue', 'Reject'])];
  }
}

/** Bits of hash a shuffle-sharding deal needs (upstream's RequiredEntropyBits). */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validateQueuing(q: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limit = int(q.queueLengthLimit);
  if (limit <= 0) errs.push(invalid(child(path, 'queueLengthLimit'), limit, 'must be positive'));
  const queues = int(q.queues);
  if (queues <= 0) errs.push(invalid(child(path, 'queues'), queues, 'must be positive'));
  else if (queues > MaxQueues) errs.push(invalid(child(path, 'queues'), queues, `must not be greater than ${MaxQueues}`));
  const hand = int(q.handSize);
  if (hand <= 0) errs.push(invalid(child(path, 'handSize'), hand, 'must be positive'));
  else if (hand > queues) errs.push(invalid(child(path, 'handSize'), hand, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, hand) > MaxHashBits) {
    errs.push(invalid(child(path, 'handSize'), hand,
      `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MaxHashBits}`));
  }
  return errs;
}
