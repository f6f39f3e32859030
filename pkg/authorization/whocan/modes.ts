// The subject locators of the modes that need no state, and of those that cannot
// enumerate whom they allow (a webhook decides remotely, ABAC policy lines may match
// by wildcard and are not indexed): those are named in the answer's error instead.
import { noSubjects, type AllowedSubjects, type SubjectLocator } from './interfaces.js';

const fixed = (groups: string[], errors: string[] = []): SubjectLocator => ({
  async allowedSubjects(): Promise<AllowedSubjects> {
    const out = noSubjects();
    for (const g of groups) out.groups.add(g);
    out.errors.push(...errors);
    return out;
  },
});

/** Upstream's privileged-group authorizer, always first. */
export const privilegedGroupsLocator = fixed(['system:masters']);

/** Every request is authenticated or not: these two groups are everyone. */
export const alwaysAllowLocator = fixed(['system:authenticated', 'system:unauthenticated']);

export const alwaysDenyLocator = fixed([]);

export function cannotEnumerate(mode: string): SubjectLocator {
  return fixed([], [`the ${mode} authorizer cannot list the subjects it allows`]);
}
