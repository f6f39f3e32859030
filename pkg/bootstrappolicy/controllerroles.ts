// The roles of the controller manager's controllers (system:controller:<name>), each
// bound to the service account kube-system/<name>, as kube-apiserver v1.28 creates them.
import type { PolicyRule } from '../authorization/rbac/types.js';
import { eventsRule, r, read } from './rules.js';

const ev = eventsRule;

export const controllerRoles: Array<{ name: string; rules: PolicyRule[] }> = [
  { name: 'attachdetach-controller', rules: [
    r('list,watch', '', 'persistentvolumes,persistentvolumeclaims'), r(read, '', 'nodes'), r('patch,update', '', 'nodes/status'),
    r('list,watch', '', 'pods'), ev(), r('get,create,delete,list,watch', 'storage.k8s.io', 'volumeattachments'),
    r(read, 'storage.k8s.io', 'csidrivers'), r(read, 'storage.k8s.io', 'csinodes'),
  ] },
  { name: 'clusterrole-aggregation-controller', rules: [r('escalate,get,list,watch,update,patch', 'rbac.authorization.k8s.io', 'clusterroles')] },
  { name: 'cronjob-controller', rules: [
    r('get,list,watch,update', 'batch', 'cronjobs'), r('get,list,watch,create,update,delete,patch', 'batch', 'jobs'),
    r('update', 'batch', 'cronjobs/status'), r('update', 'batch', 'cronjobs/finalizers'), r('list,watch,delete', '', 'pods'), ev(),
  ] },
  { name: 'daemon-set-controller', rules: [
    r(read, 'apps,extensions', 'daemonsets'), r('update', 'apps,extensions', 'daemonsets/status'), r('update', 'apps,extensions', 'daemonsets/finalizers'),
    r('list,watch', '', 'nodes'), r('list,watch,create,delete,patch', '', 'pods'), r('create', '', 'pods/binding'),
    r('get,list,watch,create,delete,update,patch', 'apps', 'controllerrevisions'), ev(),
  ] },
  { name: 'deployment-controller', rules: [
    r('get,list,watch,update', 'apps,extensions', 'deployments'), r('update', 'apps,extensions', 'deployments/status'),
    r('update', 'apps,extensions', 'deployments/finalizers'), r('get,list,watch,create,update,patch,delete', 'apps,extensions', 'replicasets'),
    r('get,list,watch,update', '', 'pods'), ev(),
  ] },
  { name: 'disruption-controller', rules: [
    r(read, 'apps,extensions', 'deployments'), r(read, 'apps,extensions', 'replicasets'), r(read, '', 'replicationcontrollers'),
    r(read, 'policy', 'poddisruptionbudgets'), r(read, 'apps', 'statefulsets'), r('update', 'policy', 'poddisruptionbudgets/status'),
    r('patch,update', '', 'pods/status'), r('get', '*', '*/scale'), ev(),
  ] },
  { name: 'endpoint-controller', rules: [
    r(read, '', 'services,pods'), r('get,list,create,update,delete,watch', '', 'endpoints'), r('create', '', 'endpoints/restricted'), ev(),
  ] },
  { name: 'endpointslice-controller', rules: [
    r(read, '', 'services,pods,nodes'), r('update', '', 'services/finalizers'),
    r('get,list,create,update,delete,watch', 'discovery.k8s.io', 'endpointslices'), ev(),
  ] },
  { name: 'endpointslicemirroring-controller', rules: [
    r(read, '', 'services,endpoints'), r('update', '', 'services/finalizers'), r('update', '', 'endpoints/finalizers'),
    r('get,list,create,update,delete,watch', 'discovery.k8s.io', 'endpointslices'), ev(),
  ] },
  { name: 'expand-controller', rules: [
    r('get,list,watch,update,patch', '', 'persistentvolumes'), r('update,patch', '', 'persistentvolumeclaims/status'),
    r(read, '', 'persistentvolumeclaims'), ev(),
  ] },
  { name: 'ephemeral-volume-controller', rules: [
    r(read, '', 'pods'), r('update', '', 'pods/finalizers'), r('get,list,watch,create', '', 'persistentvolumeclaims'), ev(),
  ] },
  { name: 'generic-garbage-collector', rules: [r('get,list,watch,patch,update,delete', '*', '*'), ev()] },
  { name: 'horizontal-pod-autoscaler', rules: [
    r(read, 'autoscaling', 'horizontalpodautoscalers'), r('update', 'autoscaling', 'horizontalpodautoscalers/status'),
    r('get,update', '*', '*/scale'), r('list,watch', '', 'pods'), r('list,watch', 'metrics.k8s.io', 'pods'),
    r(read, 'custom.metrics.k8s.io', '*'), r(read, 'external.metrics.k8s.io', '*'), ev(),
  ] },
  { name: 'job-controller', rules: [
    r('get,list,watch,update,patch', 'batch', 'jobs'), r('update', 'batch', 'jobs/status'), r('update', 'batch', 'jobs/finalizers'),
    r('list,watch,create,delete,patch', '', 'pods'), ev(),
  ] },
  { name: 'namespace-controller', rules: [
    r('get,list,watch,delete', '', 'namespaces'), r('update', '', 'namespaces/finalize,namespaces/status'),
    r('get,list,watch,delete,deletecollection', '*', '*'),
  ] },
  { name: 'node-controller', rules: [
    r('get,list,watch,update,delete,patch', '', 'nodes'), r('patch,update', '', 'nodes/status'), r('patch,update', '', 'pods/status'),
    r('list,watch,get,delete', '', 'pods'), ev(),
  ] },
  { name: 'persistent-volume-binder', rules: [
    r('get,list,watch,update,create,delete', '', 'persistentvolumes'), r('update', '', 'persistentvolumes/status'),
    r('get,list,watch,update', '', 'persistentvolumeclaims'), r('update', '', 'persistentvolumeclaims/status'),
    r('get,list,watch,create,delete', '', 'pods'), r(read, 'storage.k8s.io', 'storageclasses'), r('list,watch', '', 'nodes'),
    ev(), r('watch', '', 'events'),
  ] },
  { name: 'pod-garbage-collector', rules: [r('list,watch,delete', '', 'pods'), r(read, '', 'nodes'), r('patch', '', 'pods/status')] },
  { name: 'replicaset-controller', rules: [
    r('get,list,watch,update', 'apps,extensions', 'replicasets'), r('update', 'apps,extensions', 'replicasets/status'),
    r('update', 'apps,extensions', 'replicasets/finalizers'), r('list,watch,patch,create,delete', '', 'pods'), ev(),
  ] },
  { name: 'replication-controller', rules: [
    r('get,list,watch,update', '', 'replicationcontrollers'), r('update', '', 'replicationcontrollers/status'),
    r('update', '', 'replicationcontrollers/finalizers'), r('list,watch,patch,create,delete', '', 'pods'), ev(),
  ] },
  { name: 'resourcequota-controller', rules: [r('list,watch', '*', '*'), r('update', '', 'resourcequotas/status'), ev()] },
  { name: 'route-controller', rules: [r('list,watch', '', 'nodes'), r('patch', '', 'nodes/status'), ev()] },
  { name: 'service-account-controller', rules: [r('create', '', 'serviceaccounts'), ev()] },
  { name: 'service-controller', rules: [
    r(read, '', 'services'), r('patch,update', '', 'services/status'), r('list,watch', '', 'nodes'), ev(),
  ] },
  { name: 'statefulset-controller', rules: [
    r('list,watch', '', 'pods'), r(read, 'apps', 'statefulsets'), r('update', 'apps', 'statefulsets/status'),
    r('update', 'apps', 'statefulsets/finalizers'), r('get,create,delete,update,patch', '', 'pods'),
    r('get,list,watch,create,delete,update,patch', 'apps', 'controllerrevisions'), r('get,create', '', 'persistentvolumeclaims'),
    r('update,delete', '', 'persistentvolumeclaims'), r('update', '', 'pods/finalizers'), ev(),
  ] },
  { name: 'ttl-controller', rules: [r('update,patch,list,watch', '', 'nodes'), ev()] },
  { name: 'certificate-controller', rules: [
    r('get,list,watch,delete', 'certificates.k8s.io', 'certificatesigningrequests'),
    r('update', 'certificates.k8s.io', 'certificatesigningrequests/status,certificatesigningrequests/approval'),
    r('approve', 'certificates.k8s.io', 'signers', 'kubernetes.io/kube-apiserver-client-kubelet'),
    r('sign', 'certificates.k8s.io', 'signers', 'kubernetes.io/kube-apiserver-client,kubernetes.io/kube-apiserver-client-kubelet,kubernetes.io/kubelet-serving,kubernetes.io/legacy-unknown'),
    r('create', 'authorization.k8s.io', 'subjectaccessreviews'), ev(),
  ] },
  { name: 'pvc-protection-controller', rules: [r('get,list,watch,update', '', 'persistentvolumeclaims'), r('list,watch,get', '', 'pods'), ev()] },
  { name: 'pv-protection-controller', rules: [r('get,list,watch,update', '', 'persistentvolumes'), ev()] },
  { name: 'ttl-after-finished-controller', rules: [r('get,list,watch,delete', 'batch', 'jobs'), ev()] },
  { name: 'root-ca-cert-publisher', rules: [r('create,update', '', 'configmaps'), ev()] },
  { name: 'legacy-service-account-token-cleaner', rules: [
    r('get', '', 'configmaps', 'kube-apiserver-legacy-service-account-token-tracking'), r('patch,delete', '', 'secrets'),
  ] },
];
