// The default ClusterRoles of kube-apiserver v1.28 (upstream bootstrappolicy), with the
// aggregation labels that fold system:aggregate-to-* into admin, edit and view.
import type { PolicyRule } from '../authorization/rbac/types.js';
import { eventsRule, r, read, readWrite, u, write } from './rules.js';

export interface RoleSpec {
  name: string;
  rules?: PolicyRule[];
  labels?: Record<string, string>;
  /** Label values selected by the aggregationRule (each one selector of `key: "true"`). */
  aggregateFrom?: string[];
}

const agg = (to: string): Record<string, string> => ({ [`rbac.authorization.k8s.io/aggregate-to-${to}`]: 'true' });

export const nodeRules: PolicyRule[] = [
  r('create', 'authentication.k8s.io', 'tokenreviews'),
  r('create', 'authorization.k8s.io', 'subjectaccessreviews,localsubjectaccessreviews'),
  r(read, '', 'services'),
  r('create,get,list,watch', '', 'nodes'),
  r('update,patch', '', 'nodes/status'),
  r('update,patch', '', 'nodes'),
  r('create,update,patch', '', 'events'),
  r(read, '', 'pods'),
  r('create,delete', '', 'pods'),
  r('update,patch', '', 'pods/status'),
  r('create', '', 'pods/eviction'),
  r(read, '', 'secrets,configmaps'),
  r('get', '', 'persistentvolumeclaims,persistentvolumes'),
  r('get', '', 'endpoints'),
  r('create,get,list,watch', 'certificates.k8s.io', 'certificatesigningrequests'),
  r('get,create,update,patch,delete', 'coordination.k8s.io', 'leases'),
  r('get', 'storage.k8s.io', 'volumeattachments'),
  r('create', '', 'serviceaccounts/token'),
  r('get,update,patch', '', 'persistentvolumeclaims/status'),
  r(read, 'storage.k8s.io', 'csidrivers'),
  r('get,create,update,patch,delete', 'storage.k8s.io', 'csinodes'),
  r(read, 'node.k8s.io', 'runtimeclasses'),
];

export const clusterRoles: RoleSpec[] = [
  { name: 'cluster-admin', rules: [r('*', '*', '*'), u('*', '*')] },
  { name: 'system:discovery', rules: [u('get', '/api,/api/*,/apis,/apis/*,/healthz,/livez,/openapi,/openapi/*,/readyz,/version,/version/')] },
  { name: 'system:monitoring', rules: [u('get', '/metrics,/metrics/slis,/livez,/readyz,/healthz,/livez/*,/readyz/*,/healthz/*')] },
  { name: 'system:basic-user', rules: [
    r('create', 'authorization.k8s.io', 'selfsubjectaccessreviews,selfsubjectrulesreviews'),
    r('create', 'authentication.k8s.io', 'selfsubjectreviews'),
  ] },
  { name: 'system:public-info-viewer', rules: [u('get', '/healthz,/livez,/readyz,/version,/version/')] },
  { name: 'admin', aggregateFrom: ['admin'] },
  { name: 'edit', labels: agg('admin'), aggregateFrom: ['edit'] },
  { name: 'view', labels: agg('edit'), aggregateFrom: ['view'] },
  { name: 'system:aggregate-to-admin', labels: agg('admin'), rules: [
    r('create', 'authorization.k8s.io', 'localsubjectaccessreviews'),
    r(readWrite, 'rbac.authorization.k8s.io', 'roles,rolebindings'),
  ] },
  { name: 'system:aggregate-to-edit', labels: agg('edit'), rules: [
    r(read, '', 'pods/attach,pods/proxy,pods/exec,pods/portforward,secrets,services/proxy'),
    r('impersonate', '', 'serviceaccounts'),
    r(write, '', 'pods,pods/attach,pods/proxy,pods/exec,pods/portforward'),
    r('create', '', 'pods/eviction'),
    r(write, '', 'replicationcontrollers,replicationcontrollers/scale,serviceaccounts,services,services/proxy,persistentvolumeclaims,configmaps,secrets,events'),
    r('create', '', 'serviceaccounts/token'),
    r(write, 'apps', 'statefulsets,statefulsets/scale,daemonsets,deployments,deployments/scale,deployments/rollback,replicasets,replicasets/scale'),
    r(write, 'autoscaling', 'horizontalpodautoscalers'),
    r(write, 'batch', 'jobs,cronjobs'),
    r(write, 'extensions', 'daemonsets,deployments,deployments/scale,deployments/rollback,ingresses,replicasets,replicasets/scale,replicationcontrollers/scale,networkpolicies'),
    r(write, 'policy', 'poddisruptionbudgets'),
    r(write, 'networking.k8s.io', 'networkpolicies,ingresses'),
    r(readWrite, 'coordination.k8s.io', 'leases'),
  ] },
  { name: 'system:aggregate-to-view', labels: agg('view'), rules: [
    r(read, '', 'pods,replicationcontrollers,replicationcontrollers/scale,serviceaccounts,services,services/status,endpoints,persistentvolumeclaims,persistentvolumeclaims/status,configmaps'),
    r(read, '', 'limitranges,resourcequotas,bindings,events,pods/status,resourcequotas/status,namespaces/status,replicationcontrollers/status,pods/log'),
    r(read, '', 'namespaces'),
    r(read, 'discovery.k8s.io', 'endpointslices'),
    r(read, 'apps', 'controllerrevisions,statefulsets,statefulsets/status,statefulsets/scale,daemonsets,daemonsets/status,deployments,deployments/status,deployments/scale,replicasets,replicasets/status,replicasets/scale'),
    r(read, 'autoscaling', 'horizontalpodautoscalers,horizontalpodautoscalers/status'),
    r(read, 'batch', 'jobs,cronjobs,cronjobs/status,jobs/status'),
    r(read, 'extensions', 'daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,ingresses,ingresses/status,replicasets,replicasets/scale,replicasets/status,replicationcontrollers/scale,networkpolicies'),
    r(read, 'policy', 'poddisruptionbudgets,poddisruptionbudgets/status'),
    r(read, 'networking.k8s.io', 'ingresses,ingresses/status,networkpolicies'),
  ] },
  { name: 'system:heapster', rules: [r(read, '', 'events,pods,nodes,namespaces'), r(read, 'extensions', 'deployments')] },
  { name: 'system:node', rules: nodeRules },
  { name: 'system:node-problem-detector', rules: [r('get', '', 'nodes'), r('patch', '', 'nodes/status'), eventsRule()] },
  { name: 'system:kubelet-api-admin', rules: [
    r(read, '', 'nodes'), r('proxy', '', 'nodes'), r('*', '', 'nodes/proxy,nodes/metrics,nodes/stats,nodes/log'),
  ] },
  { name: 'system:node-bootstrapper', rules: [r('create,get,list,watch', 'certificates.k8s.io', 'certificatesigningrequests')] },
  { name: 'system:auth-delegator', rules: [
    r('create', 'authentication.k8s.io', 'tokenreviews'), r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
  ] },
  { name: 'system:kube-aggregator', rules: [r(read, '', 'endpoints,services')] },
  { name: 'system:kube-controller-manager', rules: [
    eventsRule(),
    r('create', 'coordination.k8s.io', 'leases'),
    r('get,update', 'coordination.k8s.io', 'leases', 'kube-controller-manager'),
    r('create', '', 'secrets,serviceaccounts'),
    r('delete', '', 'secrets'),
    r('get', '', 'namespaces,secrets,serviceaccounts,configmaps'),
    r('update', '', 'secrets,serviceaccounts'),
    r('create', 'authentication.k8s.io', 'tokenreviews'),
    r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
    r('list,watch', '*', '*'),
    r('create', '', 'serviceaccounts/token'),
  ] },
  { name: 'system:kube-dns', rules: [r('list,watch', '', 'endpoints,services')] },
  { name: 'system:persistent-volume-provisioner', rules: [
    r('create,delete,get,list,watch', '', 'persistentvolumes'),
    r('get,list,watch,update', '', 'persistentvolumeclaims'),
    r(read, 'storage.k8s.io', 'storageclasses'),
    r('watch', '', 'events'),
    eventsRule(),
  ] },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [r('create', 'certificates.k8s.io', 'certificatesigningrequests/nodeclient')] },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [r('create', 'certificates.k8s.io', 'certificatesigningrequests/selfnodeclient')] },
  { name: 'system:volume-scheduler', rules: [
    r('get,list,watch,update,patch', '', 'persistentvolumes'),
    r(read, 'storage.k8s.io', 'storageclasses'),
    r('get,list,watch,update,patch', '', 'persistentvolumeclaims'),
  ] },
  { name: 'system:certificates.k8s.io:legacy-unknown-approver', rules: [r('approve', 'certificates.k8s.io', 'signers', 'kubernetes.io/legacy-unknown')] },
  { name: 'system:certificates.k8s.io:kubelet-serving-approver', rules: [r('approve', 'certificates.k8s.io', 'signers', 'kubernetes.io/kubelet-serving')] },
  { name: 'system:certificates.k8s.io:kube-apiserver-client-approver', rules: [r('approve', 'certificates.k8s.io', 'signers', 'kubernetes.io/kube-apiserver-client')] },
  { name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', rules: [r('approve', 'certificates.k8s.io', 'signers', 'kubernetes.io/kube-apiserver-client-kubelet')] },
  { name: 'system:service-account-issuer-discovery', rules: [u('get', '/.well-known/openid-configuration,/openid/v1/jwks')] },
  { name: 'system:node-proxier', rules: [
    r('list,watch', '', 'services,endpoints'), r(read, '', 'nodes'), eventsRule(), r('list,watch', 'discovery.k8s.io', 'endpointslices'),
  ] },
  { name: 'system:kube-scheduler', rules: [
    eventsRule(),
    r('create', 'coordination.k8s.io', 'leases'),
    r('get,update', 'coordination.k8s.io', 'leases', 'kube-scheduler'),
    r(read, '', 'nodes'),
    r('get,list,watch,delete', '', 'pods'),
    r('create', '', 'pods/binding,bindings'),
    r('patch,update', '', 'pods/status'),
    r(read, '', 'replicationcontrollers,services'),
    r(read, 'apps,extensions', 'replicasets'),
    r(read, 'apps', 'statefulsets'),
    r(read, 'policy', 'poddisruptionbudgets'),
    r(read, '', 'persistentvolumeclaims,persistentvolumes'),
    r('create', 'authentication.k8s.io', 'tokenreviews'),
    r('create', 'authorization.k8s.io', 'subjectaccessreviews'),
    r(read, 'storage.k8s.io', 'csinodes'),
    r(read, '', 'namespaces'),
    r(read, 'storage.k8s.io', 'csidrivers'),
    r(read, 'storage.k8s.io', 'csistoragecapacities'),
  ] },
];
