// Upstream v1.28's admission plugins in the fixed order kube-apiserver runs them
// (AllOrderedPlugins). The order of --enable-admission-plugins never matters: this
// table decides. Webhooks, ResourceQuota and AlwaysDeny come last on purpose: quota
// charges only requests every other plugin let through.
export const orderedAdmissionPlugins = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'SecurityContextDeny',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'PersistentVolumeLabel',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;

export type AdmissionPluginName = typeof orderedAdmissionPlugins[number];

/** On when no flag says otherwise (upstream v1.28's DefaultOffAdmissionPlugins complement). */
export const defaultOnAdmissionPlugins: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority',
  'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning',
  'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
  'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
]);

export function isKnownAdmissionPlugin(name: string): name is AdmissionPluginName {
  return (orderedAdmissionPlugins as readonly string[]).includes(name);
}

/**
 * The plugins that run, in upstream's order: the default set plus --enable-admission-plugins,
 * minus --disable-admission-plugins. A name in both lists is refused, as upstream refuses it.
 */
export function enabledAdmissionPlugins(enable: readonly string[], disable: readonly string[]): AdmissionPluginName[] {
  const overlap = enable.filter((p) => disable.includes(p));
  if (overlap.length > 0) {
    throw new Error(`[${overlap.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
  return orderedAdmissionPlugins.filter((p) => (defaultOnAdmissionPlugins.has(p) || enable.includes(p)) && !disable.includes(p));
}
