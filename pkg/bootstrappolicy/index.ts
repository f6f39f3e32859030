// The default policy kube-apiserver v1.28 creates: ClusterRoles and ClusterRoleBindings,
// and Roles and RoleBindings in kube-system and kube-public. Every object carries the
// bootstrapping label and the autoupdate annotation that reconciliation honours.
import type { BindingObject, ClusterRoleObject, RoleObject, Subject } from '../authorization/rbac/types.js';
import { clusterRoles, nodeRules } from './clusterroles.js';
import { controllerRoles } from './controllerroles.js';
import { beyondUpstreamBindings, beyondUpstreamClusterRoles } from './beyond.js';
import { r, read } from './rules.js';

export { nodeRules };

export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';
const rbac = 'rbac.authorization.k8s.io';
const apiVersion = `${rbac}/v1`;

const meta = (name: string, extraLabels?: Record<string, string>, namespace?: string) => ({
  name, ...(namespace ? { namespace } : {}),
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...extraLabels },
  annotations: { [autoUpdateAnnotation]: 'true' },
});

const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbac, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbac, name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function clusterBinding(name: string, subjects: Subject[], role = name): BindingObject {
  return { apiVersion, kind: 'ClusterRoleBinding', metadata: meta(name), roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role }, subjects };
}

function roleBinding(namespace: string, name: string, role: string, subjects: Subject[]): BindingObject {
  return { apiVersion, kind: 'RoleBinding', metadata: meta(name, undefined, namespace), roleRef: { apiGroup: rbac, kind: 'Role', name: role }, subjects };
}

export interface BootstrapPolicy {
  clusterRoles: ClusterRoleObject[];
  clusterRoleBindings: BindingObject[];
  roles: RoleObject[];
  roleBindings: BindingObject[];
}

export function bootstrapPolicy(): BootstrapPolicy {
  const crs: ClusterRoleObject[] = [...clusterRoles, ...beyondUpstreamClusterRoles].map((c) => {
    const obj: ClusterRoleObject = { apiVersion, kind: 'ClusterRole', metadata: meta(c.name, c.labels) };
    if (c.aggregateFrom) {
      obj.aggregationRule = { clusterRoleSelectors: c.aggregateFrom.map((to) => ({ matchLabels: { [`${rbac}/aggregate-to-${to}`]: 'true' } })) };
      obj.rules = null;
    } else {
      obj.rules = structuredClone(c.rules ?? []);
    }
    return obj;
  });
  for (const c of controllerRoles) {
    crs.push({ apiVersion, kind: 'ClusterRole', metadata: meta(`system:controller:${c.name}`), rules: structuredClone(c.rules) });
  }

  const crbs: BindingObject[] = [
    clusterBinding('cluster-admin', [group('system:masters')]),
    clusterBinding('system:monitoring', [group('system:monitoring')]),
    clusterBinding('system:discovery', [group('system:authenticated')]),
    clusterBinding('system:basic-user', [group('system:authenticated')]),
    clusterBinding('system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    clusterBinding('system:node-proxier', [user('system:kube-proxy')]),
    clusterBinding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
    clusterBinding('system:kube-dns', [sa('kube-system', 'kube-dns')]),
    clusterBinding('system:kube-scheduler', [user('system:kube-scheduler')]),
    clusterBinding('system:volume-scheduler', [user('system:kube-scheduler')]),
    // Kept without subjects since the Node authorizer replaced it (upstream does the same).
    { ...clusterBinding('system:node', []), subjects: undefined },
    clusterBinding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  ];
  for (const b of beyondUpstreamBindings) crbs.push(clusterBinding(b.role, b.groups.map(group)));
  for (const c of controllerRoles) {
    crbs.push(clusterBinding(`system:controller:${c.name}`, [sa('kube-system', c.name)]));
  }

  const role = (namespace: string, name: string, rules: RoleObject['rules']): RoleObject =>
    ({ apiVersion, kind: 'Role', metadata: meta(name, undefined, namespace), rules });
  const roles: RoleObject[] = [
    role('kube-system', 'extension-apiserver-authentication-reader', [r(read, '', 'configmaps', 'extension-apiserver-authentication')]),
    role('kube-system', 'system::leader-locking-kube-controller-manager', [r('watch', '', 'configmaps'), r('get,update', '', 'configmaps', 'kube-controller-manager')]),
    role('kube-system', 'system::leader-locking-kube-scheduler', [r('watch', '', 'configmaps'), r('get,update', '', 'configmaps', 'kube-scheduler')]),
    role('kube-system', 'system:controller:bootstrap-signer', [r(read, '', 'secrets')]),
    role('kube-system', 'system:controller:cloud-provider', [r('create,get,list,watch', '', 'configmaps')]),
    role('kube-system', 'system:controller:token-cleaner', [r('delete,get,list,watch', '', 'secrets'), r('create,update,patch', ',events.k8s.io', 'events')]),
    role('kube-public', 'system:controller:bootstrap-signer', [r(read, '', 'configmaps'), r('update', '', 'configmaps', 'cluster-info'), r('create,update,patch', ',events.k8s.io', 'events')]),
  ];
  const roleBindings: BindingObject[] = [
    roleBinding('kube-system', 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader',
      [user('system:kube-controller-manager'), user('system:kube-scheduler')]),
    roleBinding('kube-system', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager',
      [user('system:kube-controller-manager'), sa('kube-system', 'kube-controller-manager')]),
    roleBinding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler',
      [user('system:kube-scheduler'), sa('kube-system', 'kube-scheduler')]),
    roleBinding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('kube-system', 'bootstrap-signer')]),
    roleBinding('kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', [sa('kube-system', 'cloud-provider')]),
    roleBinding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [sa('kube-system', 'token-cleaner')]),
    roleBinding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [sa('kube-system', 'bootstrap-signer')]),
  ];
  return { clusterRoles: crs, clusterRoleBindings: crbs, roles, roleBindings };
}
