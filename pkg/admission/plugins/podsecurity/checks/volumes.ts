// Restricted volumes: besides hostPath (which it replaces), only inline sources that
// cannot reach node or network storage directly are allowed.
import { hostPathVolumesID } from './host.js';
import { joinQuote, list, pluralize, sortedSet, type Check, type CheckFn } from './types.js';

const allowed = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

// In upstream's order of precedence, for a volume naming more than one source.
const restricted = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume',
  'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk',
  'portworxVolume', 'scaleIO', 'storageos',
];

const restrictedVolumes: CheckFn = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of list(spec.volumes)) {
    if (allowed.some((k) => v[k] != null)) continue;
    bad.push(String(v.name ?? ''));
    types.push(restricted.find((k) => v[k] != null) ?? 'unknown');
  }
  if (bad.length === 0) return undefined;
  const distinct = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', distinct.length)} ${joinQuote(distinct)}`,
  };
};

export const volumeChecks: Check[] = [
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumVersion: 0, check: restrictedVolumes, overrides: [hostPathVolumesID] }] },
];
