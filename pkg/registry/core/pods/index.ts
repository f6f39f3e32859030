// core/v1 pods with status, binding, ephemeralcontainers (eviction: see eviction.ts),
// and the legacy namespaced `bindings` resource.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { obj, str } from '../../../apis/core/types.js';
import { fieldLabels } from '../../../apis/meta/fields.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { bindingCreate } from './binding.js';
import { evictionCreate } from './eviction.js';
import { PodStrategy } from './strategy.js';
import { podConnect } from './connect.js';
import { podTable } from './table.js';

export const pods: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [
    { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'], connect: podConnect.attach },
    { name: 'binding', kind: 'Binding', verbs: ['create'], create: bindingCreate(true) },
    { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', alternateVersions: ['v1beta1'], verbs: ['create'], create: evictionCreate },
    { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'], connect: podConnect.exec },
    { name: 'log', kind: 'Pod', verbs: ['get'], connect: podConnect.log },
    { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'], connect: podConnect.portforward },
    { name: 'proxy', kind: 'PodProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'], connect: podConnect.proxy },
    { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  ],
  strategy: new PodStrategy(),
  table: podTable,
  // DELETE answers with the pod, as upstream's pod storage does.
  returnDeletedObject: true,
  fieldLabels: fieldLabels([
    'metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName',
    'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.podIPs',
    'status.nominatedNodeName',
  ], { renamed: { 'spec.host': 'spec.nodeName' } }), // spec.host: what pre-v1 clients still send
  // Every kubelet lists and watches the pods of its node (upstream: NodeNameTriggerFunc, Indexers).
  indexFields: ['spec.nodeName'],
  selectableFields: (o) => {
    const spec = obj(o.spec) ?? {};
    const status = obj(o.status) ?? {};
    // The first of podIPs (podIP alone when a client set only that, as decoding fills podIPs from it).
    const firstIP = Array.isArray(status.podIPs) ? str(obj(status.podIPs[0])?.ip) : '';
    return {
      'spec.nodeName': str(spec.nodeName),
      'spec.restartPolicy': str(spec.restartPolicy),
      'spec.schedulerName': str(spec.schedulerName),
      'spec.serviceAccountName': str(spec.serviceAccountName),
      'spec.hostNetwork': spec.hostNetwork === true ? 'true' : 'false',
      'status.phase': str(status.phase),
      'status.podIP': firstIP || str(status.podIP),
      'status.nominatedNodeName': str(status.nominatedNodeName),
    };
  },
};

/** POST /api/v1/namespaces/<ns>/bindings: the Binding names the pod. */
export const bindings: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Binding',
  plural: 'bindings',
  singular: 'binding',
  namespaced: true,
  verbs: ['create'],
  strategy: new BaseStrategy({ namespaced: true, nameValidator: nameIsDNSSubdomain }),
  virtual: bindingCreate(false),
};
