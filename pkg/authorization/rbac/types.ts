// The RBAC object shapes the authorizer reads (rbac.authorization.k8s.io/v1).
import type { KubeObject } from '../../runtime/object.js';
import type { PolicyRule, RoleRef, Subject } from '../../apis/validation/rbac.js';

export type { PolicyRule, RoleRef, Subject };

export interface RoleObject extends KubeObject {
  rules?: PolicyRule[] | null;
}

export interface ClusterRoleObject extends RoleObject {
  aggregationRule?: { clusterRoleSelectors?: Array<Record<string, unknown>> | null } | null;
}

export interface BindingObject extends KubeObject {
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

/** Read access to the four kinds; implementations answer from memory. */
export interface PolicySource {
  getRole(namespace: string, name: string): RoleObject | undefined;
  getClusterRole(name: string): ClusterRoleObject | undefined;
  /** Bindings in a namespace (or cluster-wide) that may apply to this user. */
  roleBindingsFor(namespace: string, user: UserLike): Iterable<BindingObject>;
  clusterRoleBindingsFor(user: UserLike): Iterable<BindingObject>;
}

export interface UserLike {
  name: string;
  groups: string[];
}

export const rbacGroup = 'rbac.authorization.k8s.io';
