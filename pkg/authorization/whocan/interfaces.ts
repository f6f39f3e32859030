// Who can: the inverse of an authorization decision. Given an action (the attributes of
// a request without its user), the users and groups an authorizer would allow to do it.
import type { Attributes } from '../interfaces.js';

export type Action = Omit<Attributes, 'user'>;

export interface AllowedSubjects {
  users: Set<string>;
  groups: Set<string>;
  /** Problems met on the way (a missing role, a mode that cannot enumerate): the answer may be incomplete. */
  errors: string[];
}

export interface SubjectLocator {
  allowedSubjects(action: Action): Promise<AllowedSubjects>;
}

export function noSubjects(): AllowedSubjects {
  return { users: new Set(), groups: new Set(), errors: [] };
}

/** Adds `from` into `into`, keeping each error once. */
export function mergeSubjects(into: AllowedSubjects, from: AllowedSubjects): void {
  for (const u of from.users) into.users.add(u);
  for (const g of from.groups) into.groups.add(g);
  for (const e of from.errors) if (!into.errors.includes(e)) into.errors.push(e);
}
