// audit.k8s.io/v1 Policy: which level and stages each request is recorded at. The first
// rule that matches decides; no matching rule means level None. Matching follows
// upstream's policy checker: resource rules never match non-resource requests and
// the other way round, and "" in namespaces matches cluster-scoped requests.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export const levels = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = typeof levels[number];
export const stages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = typeof stages[number];

export interface GroupResources { group?: string; resources?: string[]; resourceNames?: string[] }

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy { rules: PolicyRule[]; omitStages?: Stage[]; omitManagedFields?: boolean }

/** What the checker reads about a request (upstream's authorizer.Attributes subset). */
export interface AuditAttributes {
  user: { name: string; groups?: string[] };
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface RequestAuditConfig { level: Level; omitStages: ReadonlySet<Stage>; omitManagedFields: boolean }

const none: RequestAuditConfig = { level: 'None', omitStages: new Set(), omitManagedFields: false };

export class PolicyChecker {
  constructor(private readonly policy: Policy) {}

  configFor(a: AuditAttributes): RequestAuditConfig {
    for (const rule of this.policy.rules) {
      if (!ruleMatches(rule, a)) continue;
      return {
        level: rule.level,
        omitStages: new Set([...(this.policy.omitStages ?? []), ...(rule.omitStages ?? [])]),
        omitManagedFields: rule.omitManagedFields ?? this.policy.omitManagedFields ?? false,
      };
    }
    return none;
  }
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users?.length && !r.users.includes(a.user.name)) return false;
  if (r.userGroups?.length && !(a.user.groups ?? []).some((g) => r.userGroups!.includes(g))) return false;
  if (r.verbs?.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces?.length || r.resources?.length) return resourceMatches(r, a);
  if (r.nonResourceURLs?.length) return !a.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

function resourceMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (r.namespaces?.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if ((gr.group ?? '') !== a.apiGroup) continue;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name)) continue;
    for (const res of gr.resources) {
      if (res === '*' || res === combined) return true;
      if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.slice(0, -1));
}

/** Reads --audit-policy-file; a bad file is a startup error naming what is wrong. */
export function loadPolicyFile(path: string): Policy {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`failed to read audit policy file ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  const p = (doc ?? {}) as Record<string, unknown>;
  if (p.kind !== 'Policy' || p.apiVersion !== 'audit.k8s.io/v1') {
    throw new Error(`failed decoding file ${JSON.stringify(path)}: expected audit.k8s.io/v1 Policy, got ${String(p.apiVersion ?? '')} ${String(p.kind ?? '')}`);
  }
  const policy = p as unknown as Policy;
  const errs = validatePolicy(policy);
  if (errs.length > 0) throw new Error(`invalid audit policy file ${JSON.stringify(path)}: ${errs.join(', ')}`);
  if (!Array.isArray(policy.rules) || policy.rules.length === 0) {
    throw new Error(`loaded illegal policy with 0 rules from file ${path}`);
  }
  return policy;
}

/** Upstream's ValidatePolicy, as field errors in its words. */
export function validatePolicy(p: Policy): string[] {
  const errs: string[] = [];
  const checkStages = (list: unknown, path: string) => {
    (Array.isArray(list) ? list : []).forEach((s, i) => {
      if (!(stages as readonly unknown[]).includes(s)) {
        errs.push(`${path}[${i}]: Unsupported value: ${JSON.stringify(s)}: supported values: ${stages.map((x) => `"${x}"`).join(', ')}`);
      }
    });
  };
  checkStages(p.omitStages, 'omitStages');
  (Array.isArray(p.rules) ? p.rules : []).forEach((r, i) => {
    const path = `rules[${i}]`;
    if (!(levels as readonly unknown[]).includes(r.level)) {
      errs.push(r.level === undefined || (r.level as string) === ''
        ? `${path}.level: Required value`
        : `${path}.level: Unsupported value: ${JSON.stringify(r.level)}: supported values: ${levels.map((x) => `"${x}"`).join(', ')}`);
    }
    const hasResources = Boolean(r.resources?.length || r.namespaces?.length);
    if (r.nonResourceURLs?.length) {
      if (hasResources) errs.push(`${path}.nonResourceURLs: Invalid value: ${JSON.stringify(r.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
      r.nonResourceURLs.forEach((u, j) => {
        if (u === '') errs.push(`${path}.nonResourceURLs[${j}]: Required value: empty non-resource URLs are not allowed`);
        else if (u !== '*' && !u.startsWith('/')) errs.push(`${path}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(u)}: non-resource URLs must start with '/' (or be '*')`);
        else if (u.slice(0, -1).includes('*')) errs.push(`${path}.nonResourceURLs[${j}]: Invalid value: ${JSON.stringify(u)}: non-resource URL wildcards ('*') must be the final character`);
      });
    }
    (r.resources ?? []).forEach((gr, j) => {
      if (gr.group && gr.group.includes('/')) errs.push(`${path}.resources[${j}].group: Invalid value: ${JSON.stringify(gr.group)}: group name must not contain '/'`);
      if (gr.resourceNames?.length && !gr.resources?.length) {
        errs.push(`${path}.resources[${j}].resourceNames: Invalid value: ${JSON.stringify(gr.resourceNames)}: using resourceNames requires at least one resource`);
      }
    });
    checkStages(r.omitStages, `${path}.omitStages`);
  });
  return errs;
}
