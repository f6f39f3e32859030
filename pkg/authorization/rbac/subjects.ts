// Whether a binding's subject names this user. Subjects that cannot be evaluated
// (an unknown kind, a namespace on a User or Group) grant nothing and are reported.
import type { Subject, UserLike } from './types.js';

export const serviceAccountPrefix = 'system:serviceaccount:';

export type SubjectMatch = { applies: true } | { applies: false; error?: string };

/** `namespace` is the binding's (empty for a ClusterRoleBinding). */
export function subjectApplies(user: UserLike, s: Subject, namespace: string): SubjectMatch {
  switch (s.kind) {
    case 'User':
    case 'Group': {
      const named = s.kind === 'User' ? user.name === s.name : user.groups.includes(s.name ?? '');
      if (!named) return { applies: false };
      if (s.namespace) return { applies: false, error: `${s.kind} subject "${s.name}" must not have a namespace (found "${s.namespace}")` };
      return { applies: true };
    }
    case 'ServiceAccount': {
      const ns = s.namespace || namespace;
      if (!ns) return { applies: false };
      return { applies: user.name === `${serviceAccountPrefix}${ns}:${s.name}` };
    }
    default:
      return { applies: false, error: `unknown subject kind "${s.kind ?? ''}" for subject "${s.name ?? ''}"` };
  }
}

export interface SubjectsResult {
  /** Index of the first subject that applies, or -1. */
  index: number;
  errors: string[];
}

export function appliesTo(user: UserLike, subjects: Subject[] | null | undefined, namespace: string): SubjectsResult {
  const errors: string[] = [];
  const all = subjects ?? [];
  for (let i = 0; i < all.length; i++) {
    const m = subjectApplies(user, all[i] ?? {}, namespace);
    if (m.applies) return { index: i, errors };
    if (m.error) errors.push(m.error);
  }
  return { index: -1, errors };
}

/** `system:serviceaccount:<ns>:<name>` -> [ns, name]. */
export function serviceAccountOf(userName: string): [string, string] | undefined {
  if (!userName.startsWith(serviceAccountPrefix)) return undefined;
  const parts = userName.slice(serviceAccountPrefix.length).split(':');
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0], parts[1]] : undefined;
}
