// The configuration every cluster starts with (upstream v1.28's APF bootstrap set, in
// v1beta3 form and already defaulted): the mandatory objects, which the server keeps
// exactly as they are, and the suggested ones, which it keeps up to date unless an
// operator has taken them over (apf.kubernetes.io/autoupdate-spec).
import type { KubeObject } from '../../runtime/object.js';

export const AutoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';
const apiVersion = 'flowcontrol.apiserver.k8s.io/v1beta3';

type Obj = Record<string, unknown>;
const all = '*';

const group = (name: string): Obj => ({ kind: 'Group', group: { name } });
const user = (name: string): Obj => ({ kind: 'User', user: { name } });
const kubeSystemSA = (name: string): Obj => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } });

function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): Obj {
  const r: Obj = { verbs, apiGroups, resources };
  if (clusterScope) r.clusterScope = true;
  r.namespaces = namespaces;
  return r;
}

const everyResource = resourceRule([all], [all], [all], [all], true);
const everyNonResource = { verbs: [all], nonResourceURLs: [all] };

function flowSchema(name: string, pl: string, matchingPrecedence: number, distinguisher: string, rule: Obj): KubeObject {
  const spec: Obj = { priorityLevelConfiguration: { name: pl }, matchingPrecedence };
  if (distinguisher) spec.distinguisherMethod = { type: distinguisher };
  spec.rules = [rule];
  return { apiVersion, kind: 'FlowSchema', metadata: { name, annotations: { [AutoUpdateAnnotation]: 'true' } }, spec };
}

/** Matches every request of the given subjects. */
const allRequests = (subjects: Obj[]): Obj => ({ subjects, resourceRules: [everyResource], nonResourceRules: [everyNonResource] });

function priorityLevel(name: string, spec: Obj): KubeObject {
  return { apiVersion, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: { [AutoUpdateAnnotation]: 'true' } }, spec };
}

function queued(shares: number, lendablePercent: number, queues: number, handSize: number, queueLengthLimit: number): Obj {
  return {
    type: 'Limited',
    limited: { nominalConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } }, lendablePercent },
  };
}

const everyone = [group('system:unauthenticated'), group('system:authenticated')];

export const mandatoryPriorityLevels: KubeObject[] = [
  priorityLevel('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 } }),
  priorityLevel('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

export const mandatoryFlowSchemas: KubeObject[] = [
  flowSchema('exempt', 'exempt', 1, '', allRequests([group('system:masters')])),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', allRequests(everyone)),
];

export const suggestedPriorityLevels: KubeObject[] = [
  priorityLevel('system', queued(30, 33, 64, 6, 50)),
  priorityLevel('node-high', queued(40, 25, 64, 6, 50)),
  priorityLevel('leader-election', queued(10, 0, 16, 4, 50)),
  priorityLevel('workload-high', queued(40, 50, 128, 6, 50)),
  priorityLevel('workload-low', queued(100, 90, 128, 6, 50)),
  priorityLevel('global-default', queued(20, 50, 128, 6, 50)),
];

const getCreateUpdate = ['get', 'create', 'update'];

export const suggestedFlowSchemas: KubeObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', allRequests([group('system:nodes')])),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: [group('system:nodes')],
    resourceRules: [
      resourceRule([all], [''], ['nodes', 'nodes/status'], [all], true),
      resourceRule([all], ['coordination.k8s.io'], ['leases'], [all], false),
    ],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: everyone,
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), kubeSystemSA(all)],
    resourceRules: [resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], [all], false)],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: [kubeSystemSA(all)],
    resourceRules: [
      resourceRule(getCreateUpdate, [''], ['endpoints', 'configmaps'], [all], false),
      resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], [all], false),
    ],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), kubeSystemSA('endpoint-controller'), kubeSystemSA('endpointslicemirroring-controller')],
    resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints'], [all], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', allRequests([user('system:kube-controller-manager')])),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', allRequests([user('system:kube-scheduler')])),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', allRequests([kubeSystemSA(all)])),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', allRequests([group('system:serviceaccounts')])),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', allRequests(everyone)),
];

export const mandatoryFlowSchemaSpec = (name: string): Obj | undefined =>
  mandatoryFlowSchemas.find((o) => o.metadata.name === name)?.spec as Obj | undefined;

export const mandatoryPriorityLevelSpec = (name: string): Obj | undefined =>
  mandatoryPriorityLevels.find((o) => o.metadata.name === name)?.spec as Obj | undefined;
