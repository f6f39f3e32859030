// certificates.k8s.io/v1alpha1 clustertrustbundles. Upstream v1.28 serves it only when
// --runtime-config enables certificates.k8s.io/v1alpha1 AND the ClusterTrustBundle
// feature gate (alpha, off) is on; buildScheme applies both (featureGate below).
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { fieldLabels } from '../../../apis/meta/fields.js';
import { bundleSpec } from '../../../apis/certificates/clustertrustbundle.js';
import { ClusterTrustBundleStrategy } from './strategy.js';
import { clusterTrustBundleTable } from './table.js';

/** The feature gate that must also be on for the resource to be served. */
export const clusterTrustBundleFeatureGate = 'ClusterTrustBundle';

export const clustertrustbundles: ResourceDef = {
  group: 'certificates.k8s.io',
  version: 'v1alpha1',
  kind: 'ClusterTrustBundle',
  plural: 'clustertrustbundles',
  singular: 'clustertrustbundle',
  namespaced: false,
  verbs: [...allVerbs],
  strategy: new ClusterTrustBundleStrategy(),
  table: clusterTrustBundleTable,
  fieldLabels: fieldLabels(['metadata.name', 'spec.signerName']),
  selectableFields: (obj) => ({ 'spec.signerName': bundleSpec(obj as never).signerName }),
};
