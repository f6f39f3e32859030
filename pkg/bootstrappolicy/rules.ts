// A compact notation for the default policy: comma lists of verbs, groups (`` is the
// core group) and resources, as the written-out YAML would be too long to review.
import type { PolicyRule } from '../authorization/rbac/types.js';

const split = (s: string): string[] => s.split(',');

/** Resource rule. */
export function r(verbs: string, groups: string, resources: string, names?: string): PolicyRule {
  const rule: PolicyRule = { verbs: split(verbs), apiGroups: split(groups), resources: split(resources) };
  if (names) rule.resourceNames = split(names);
  return rule;
}

/** Non-resource rule. */
export function u(verbs: string, urls: string): PolicyRule {
  return { verbs: split(verbs), nonResourceURLs: split(urls) };
}

export const read = 'get,list,watch';
export const readWrite = 'get,list,watch,create,update,patch,delete,deletecollection';
export const write = 'create,update,patch,delete,deletecollection';
/** Every controller records events in both event groups. */
export const eventsRule = (): PolicyRule => r('create,update,patch', ',events.k8s.io', 'events');
