// Webhook rules (upstream's rules.Matcher): operations, groups, versions, resources with
// subresource wildcards, and scope. Each rule list is compiled once per configuration
// into sets, so matching a request allocates nothing.
import type { RuleWithOperations } from './types.js';

/** What a rule looks at; AdmissionAttributes satisfies it as is. */
export interface RuleTarget {
  operation: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
}

export type RuleMatcher = (t: RuleTarget) => boolean;

interface CompiledRule {
  operations: ReadonlySet<string> | null;
  groups: ReadonlySet<string> | null;
  versions: ReadonlySet<string> | null;
  /** [resource, subresource] pairs; `*` in either place is a wildcard. */
  resources: ReadonlyArray<readonly [string, string]>;
  scope: string;
}

/** null when the list holds `*` (everything). */
function wildcardSet(values: string[] | undefined): ReadonlySet<string> | null {
  if (!values) return new Set();
  return values.includes('*') ? null : new Set(values);
}

function compileRule(r: RuleWithOperations): CompiledRule {
  return {
    operations: wildcardSet(r.operations),
    groups: wildcardSet(r.apiGroups),
    versions: wildcardSet(r.apiVersions),
    resources: (r.resources ?? []).map((s) => {
      const slash = s.indexOf('/');
      return slash < 0 ? [s, ''] as const : [s.slice(0, slash), s.slice(slash + 1)] as const;
    }),
    scope: r.scope ?? '*',
  };
}

function isNamespaceObject(t: RuleTarget): boolean {
  return t.group === '' && t.resource === 'namespaces';
}

function resourceMatches(r: CompiledRule, t: RuleTarget): boolean {
  for (const [res, sub] of r.resources) {
    if ((res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource)) return true;
  }
  return false;
}

function ruleMatches(r: CompiledRule, t: RuleTarget): boolean {
  // The resource first: it is what tells most rules apart.
  if (!resourceMatches(r, t)) return false;
  if (r.operations && !r.operations.has(t.operation)) return false;
  if (r.groups && !r.groups.has(t.group)) return false;
  if (r.versions && !r.versions.has(t.version)) return false;
  // Namespace objects are cluster-scoped even though requests for them carry a namespace upstream.
  if (r.scope === 'Namespaced' && (isNamespaceObject(t) || t.namespace === '')) return false;
  if (r.scope === 'Cluster' && !(isNamespaceObject(t) || t.namespace === '')) return false;
  return true;
}

/** The resource names a rule list mentions (`*` included), for indexing hooks by resource. */
export function ruleResourceNames(rules: RuleWithOperations[] | undefined): Set<string> {
  const names = new Set<string>();
  for (const r of rules ?? []) for (const s of r.resources ?? []) names.add(s.split('/')[0]!);
  return names;
}

export function compileRules(rules: RuleWithOperations[] | undefined): RuleMatcher {
  const compiled = (rules ?? []).map(compileRule);
  if (compiled.length === 0) return () => false;
  return (t) => {
    for (const r of compiled) if (ruleMatches(r, t)) return true;
    return false;
  };
}

const exemptResources = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings']);

/** Webhooks never see admission configuration objects, so a broken webhook cannot lock its own fix out. */
export function isExemptConfigurationResource(t: { group: string; resource: string }): boolean {
  return t.group === 'admissionregistration.k8s.io' && exemptResources.has(t.resource);
}
