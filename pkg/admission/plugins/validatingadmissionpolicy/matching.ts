// Which requests a policy's matchConstraints (or a binding's matchResources) select:
// namespaceSelector, objectSelector, resourceRules minus excludeResourceRules, with
// matchPolicy Equivalent letting a rule for one version of a resource match the others
// (upstream: admission/plugin/policy/matching and webhook/predicates).
import { labelSelectorFromObject, type LabelSelectorObject } from '../../../apis/meta/labels.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes } from '../../interfaces.js';

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export interface MatchContext {
  /** The namespace of a namespaced request, for namespaceSelector (undefined: not found). */
  namespace(name: string): Promise<KubeObject | undefined>;
  /** Versions in which the request's group serves its resource (for matchPolicy Equivalent). */
  servedVersions(group: string, resource: string): string[];
}

function selectorMatches(sel: unknown, labels: Record<string, string> | undefined): boolean {
  if (!isPlainObject(sel)) return true;
  try {
    return labelSelectorFromObject(sel as LabelSelectorObject).matches(labels ?? {});
  } catch {
    return false;
  }
}

async function namespaceMatches(mr: Obj, a: AdmissionAttributes, ctx: MatchContext): Promise<boolean> {
  const sel = mr.namespaceSelector;
  if (!isPlainObject(sel) || Object.keys(sel).length === 0) return true;
  // A Namespace is matched by its own labels; other cluster-scoped objects always match.
  if (a.group === '' && a.resource === 'namespaces') {
    return selectorMatches(sel, (a.object ?? a.oldObject)?.metadata.labels);
  }
  if (!a.namespace) return true;
  const ns = await ctx.namespace(a.namespace);
  return selectorMatches(sel, ns?.metadata.labels);
}

function objectMatches(mr: Obj, a: AdmissionAttributes): boolean {
  const sel = mr.objectSelector;
  if (!isPlainObject(sel) || Object.keys(sel).length === 0) return true;
  return [a.object, a.oldObject].some((o) => o !== undefined && selectorMatches(sel, o.metadata.labels ?? {}));
}

function listMatches(list: string[], v: string): boolean {
  return list.includes('*') || list.includes(v);
}

function resourceMatches(resources: string[], resource: string, subresource: string): boolean {
  const full = subresource ? `${resource}/${subresource}` : resource;
  return resources.some((r) => {
    if (r === '*/*' || r === full) return true;
    const [res, sub] = r.includes('/') ? r.split('/', 2) as [string, string] : [r, ''];
    if (!subresource) return res === '*' && sub === '';
    return (res === '*' && sub === subresource) || (res === resource && sub === '*');
  });
}

function ruleMatches(rule: Obj, a: AdmissionAttributes, version: string): boolean {
  if (!listMatches(strings(rule.operations), a.operation)) return false;
  if (!listMatches(strings(rule.apiGroups), a.group)) return false;
  if (!listMatches(strings(rule.apiVersions), version)) return false;
  if (!resourceMatches(strings(rule.resources), a.resource, a.subresource)) return false;
  const scope = typeof rule.scope === 'string' ? rule.scope : '*';
  const clusterScoped = a.namespace === '' || (a.group === '' && a.resource === 'namespaces');
  if (scope === 'Cluster' && !clusterScoped) return false;
  if (scope === 'Namespaced' && clusterScoped) return false;
  const names = strings(rule.resourceNames);
  return names.length === 0 || names.includes(a.name);
}

function rulesMatch(rules: unknown[], a: AdmissionAttributes, equivalent: boolean, ctx: MatchContext): boolean {
  const versions = equivalent ? [a.version, ...ctx.servedVersions(a.group, a.resource).filter((v) => v !== a.version)] : [a.version];
  return rules.some((r) => isPlainObject(r) && versions.some((v) => ruleMatches(r, a, v)));
}

/** Whether `mr` selects the request; `requireRules`: an empty resourceRules matches nothing (policies) or everything (bindings). */
export async function matchResources(mr: Obj, a: AdmissionAttributes, ctx: MatchContext, requireRules: boolean): Promise<boolean> {
  if (!objectMatches(mr, a)) return false;
  const equivalent = mr.matchPolicy !== 'Exact';
  const exclude = Array.isArray(mr.excludeResourceRules) ? mr.excludeResourceRules : [];
  if (rulesMatch(exclude, a, equivalent, ctx)) return false;
  const rules = Array.isArray(mr.resourceRules) ? mr.resourceRules : [];
  if (rules.length === 0 ? requireRules : !rulesMatch(rules, a, equivalent, ctx)) return false;
  return namespaceMatches(mr, a, ctx);
}
