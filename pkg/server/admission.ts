// Builds the admission chain: the enabled plugins (ordered.ts decides which and in what
// order), each made by its factory below from the replica's parts and its configuration
// from --admission-control-config-file. A plugin without a factory yet is accepted and
// does nothing, so flags written for upstream keep working while plugins land.
import { AdmissionChain, type Admission, type AdmissionPlugin } from '../admission/interfaces.js';
import { readAdmissionConfiguration, type PluginConfig } from '../admission/config.js';
import { enabledAdmissionPlugins, type AdmissionPluginName } from '../admission/ordered.js';
import { NamespaceLifecycle, type NamespaceSource } from '../admission/plugins/namespacelifecycle/index.js';
import { NodeRestriction } from '../admission/plugins/noderestriction/index.js';
import { CertificateApproval, CertificateSigning, CertificateSubjectRestriction, ClusterTrustBundleAttest } from '../admission/plugins/certificates/index.js';
import { AlwaysAdmit } from '../admission/plugins/alwaysadmit/index.js';
import { AlwaysDeny } from '../admission/plugins/alwaysdeny/index.js';
import { AlwaysPullImages } from '../admission/plugins/alwayspullimages/index.js';
import { ExtendedResourceToleration } from '../admission/plugins/extendedresourcetoleration/index.js';
import { LimitPodHardAntiAffinityTopology } from '../admission/plugins/limitpodhardantiaffinitytopology/index.js';
import { PodNodeSelector, podNodeSelectorConfig } from '../admission/plugins/podnodeselector/index.js';
import { PodTolerationRestriction, podTolerationRestrictionConfig } from '../admission/plugins/podtolerationrestriction/index.js';
import { newSecurityContextDeny } from '../admission/plugins/securitycontextdeny/index.js';
import { DenyServiceExternalIPs } from '../admission/plugins/denyserviceexternalips/index.js';
import { EventRateLimit, eventRateLimitConfig } from '../admission/plugins/eventratelimit/index.js';
import { featureGates } from '../features/gates.js';
import { PodSecurity } from '../admission/plugins/podsecurity/index.js';
import { podSecurityMetrics } from '../admission/plugins/podsecurity/metrics.js';
import { LimitRanger } from '../admission/plugins/limitranger/index.js';
import { ServiceAccount } from '../admission/plugins/serviceaccount/index.js';
import { Priority } from '../admission/plugins/priority/index.js';
import { DefaultTolerationSeconds } from '../admission/plugins/defaulttolerationseconds/index.js';
import { TaintNodesByCondition } from '../admission/plugins/taintnodesbycondition/index.js';
import { RuntimeClass } from '../admission/plugins/runtimeclass/index.js';
import { objectsOf } from '../admission/source.js';
import { lookupNamespace } from '../admission/namespaces.js';
import { ResourceQuota, parseQuotaConfiguration, quotaAccess } from '../admission/plugins/resourcequota/index.js';
import { DefaultIngressClass } from '../admission/plugins/defaultingressclass/index.js';
import { DefaultStorageClass } from '../admission/plugins/defaultstorageclass/index.js';
import { PersistentVolumeClaimResize } from '../admission/plugins/persistentvolumeclaimresize/index.js';
import { StorageObjectInUseProtection } from '../admission/plugins/storageobjectinuseprotection/index.js';
import { NamespaceExists } from '../admission/plugins/namespaceexists/index.js';
import { NamespaceAutoProvision, type NamespaceProvisioner } from '../admission/plugins/namespaceautoprovision/index.js';
import { OwnerReferencesPermissionEnforcement, type KindResolver } from '../admission/plugins/ownerreferencespermissionenforcement/index.js';
import { imagePolicyWebhookFromConfig } from '../admission/plugins/imagepolicywebhook/factory.js';
import type { Lister } from '../admission/lister.js';
import { internalScope } from '../registry/generic/internal-scope.js';
import { apiserverUser } from '../client/identities.js';
import { newMutatingWebhook, newValidatingWebhook, setMatchConditionCompiler } from '../admission/plugins/webhook/index.js';
import { compileMatchConditions } from '../cel/matchconditions.js';
import type { Authorizer } from '../authorization/interfaces.js';
import type { KubeObject } from '../runtime/object.js';
import type { ServerDeps } from './deps.js';
import { apiserverMetrics } from '../endpoints/metrics/metrics.js';
import { validatingAdmissionPolicyPlugin } from './validatingadmissionpolicy.js';
import { syncedWithin } from '../util/resolved-within.js';

/** Makes one plugin; `config` is its entry in the AdmissionConfiguration, if any. */
export type PluginFactory = (d: ServerDeps, config: PluginConfig | undefined) => AdmissionPlugin | Promise<AdmissionPlugin>;

const factories: Partial<Record<AdmissionPluginName, PluginFactory>> = {
  NamespaceLifecycle: (d) => new NamespaceLifecycle(namespaceSource(d)),
  NodeRestriction: (d) => {
    const nodes = d.informers.informerFor('', 'nodes');
    return new NodeRestriction({ get: (name) => nodes.get('', name) });
  },
  CertificateApproval: (d) => new CertificateApproval(authorizerOf(d)),
  CertificateSigning: (d) => new CertificateSigning(authorizerOf(d)),
  CertificateSubjectRestriction: () => new CertificateSubjectRestriction(),
  ClusterTrustBundleAttest: (d) => new ClusterTrustBundleAttest(authorizerOf(d), featureGates().enabled('ClusterTrustBundle')),
  AlwaysAdmit: () => new AlwaysAdmit(),
  AlwaysDeny: () => new AlwaysDeny(),
  AlwaysPullImages: () => new AlwaysPullImages(),
  ExtendedResourceToleration: () => new ExtendedResourceToleration(),
  LimitPodHardAntiAffinityTopology: () => new LimitPodHardAntiAffinityTopology(),
  PodNodeSelector: (d, c) => new PodNodeSelector(namespaceSource(d), podNodeSelectorConfig(c?.configuration)),
  PodTolerationRestriction: (d, c) => new PodTolerationRestriction(namespaceSource(d), podTolerationRestrictionConfig(c?.configuration)),
  SecurityContextDeny: () => newSecurityContextDeny(featureGates().enabled('SecurityContextDeny')),
  DenyServiceExternalIPs: () => new DenyServiceExternalIPs(),
  EventRateLimit: (_d, c) => new EventRateLimit(eventRateLimitConfig(c?.configuration)),
  PodSecurity: (d, config) => new PodSecurity(podSecuritySources(d), config?.configuration, { metrics: podSecurityMetrics(apiserverMetrics().registry) }),
  LimitRanger: (d) => new LimitRanger(objectsOf(d, '', 'limitranges')),
  ServiceAccount: (d) => new ServiceAccount(objectsOf(d, '', 'serviceaccounts')),
  Priority: (d) => new Priority(objectsOf(d, 'scheduling.k8s.io', 'priorityclasses')),
  DefaultTolerationSeconds: (d) => new DefaultTolerationSeconds({ notReadySeconds: d.o.defaultNotReadyTolerationSeconds, unreachableSeconds: d.o.defaultUnreachableTolerationSeconds }),
  TaintNodesByCondition: () => new TaintNodesByCondition(),
  RuntimeClass: (d) => new RuntimeClass(objectsOf(d, 'node.k8s.io', 'runtimeclasses')),
  ResourceQuota: (d, c) => new ResourceQuota(quotaAccess(d.registry.store('', 'resourcequotas'), objectsOf(d, '', 'resourcequotas')), parseQuotaConfiguration(c?.configuration)),
  DefaultIngressClass: (d) => new DefaultIngressClass(lister(d, 'networking.k8s.io', 'ingressclasses')),
  DefaultStorageClass: (d) => new DefaultStorageClass(lister(d, 'storage.k8s.io', 'storageclasses')),
  PersistentVolumeClaimResize: (d) => new PersistentVolumeClaimResize(lister(d, 'storage.k8s.io', 'storageclasses')),
  StorageObjectInUseProtection: () => new StorageObjectInUseProtection(),
  NamespaceExists: (d) => new NamespaceExists(namespaceSource(d)),
  NamespaceAutoProvision: (d) => new NamespaceAutoProvision(namespaceProvisioner(d)),
  OwnerReferencesPermissionEnforcement: (d) => new OwnerReferencesPermissionEnforcement(authorizerOf(d), kindResolver(d)),
  ImagePolicyWebhook: (_d, config) => imagePolicyWebhookFromConfig(config),
  MutatingAdmissionWebhook: (d, c) => newMutatingWebhook({ ...d, metricsRegistry: apiserverMetrics().registry }, c),
  ValidatingAdmissionWebhook: (d, c) => newValidatingWebhook({ ...d, metricsRegistry: apiserverMetrics().registry }, c),
  ValidatingAdmissionPolicy: (d) => validatingAdmissionPolicyPlugin(d),
};

export async function buildAdmission(d: ServerDeps): Promise<Admission> {
  // Webhook matchConditions are CEL, compiled by the same layer as ValidatingAdmissionPolicy.
  setMatchConditionCompiler(compileMatchConditions);
  const configs = readAdmissionConfiguration(d.o.admissionControlConfigFile);
  const plugins: AdmissionPlugin[] = [];
  for (const name of enabledAdmissionPlugins(d.o.enableAdmissionPlugins, d.o.disableAdmissionPlugins)) {
    const make = factories[name];
    if (!make) continue;
    try {
      plugins.push(await make(d, configs.get(name)));
    } catch (err) {
      throw new Error(`couldn't init admission plugin "${name}": ${(err as Error).message}`);
    }
  }
  const metrics = apiserverMetrics();
  return new AdmissionChain(plugins, (plugin, operation, type) => metrics.admissionRecorder(plugin, operation, type));
}

function authorizerOf(d: ServerDeps): Authorizer {
  if (!d.authorizer) throw new Error('admission: the authorizer must be built before the admission chain');
  return d.authorizer;
}

/** Namespaces for admission: this replica's shared informer, and storage behind it. */
function namespaceSource(d: ServerDeps): NamespaceSource {
  const informer = d.informers.informerFor('', 'namespaces');
  const objects = objectsOf(d, '', 'namespaces');
  return {
    cached: (name) => informer.get('', name),
    waitForSync: (timeoutMs) => syncedWithin(informer, timeoutMs),
    hasSynced: () => informer.hasSynced(),
    live: (name) => objects.liveGet('', name),
  };
}

/** Namespaces and pods for PodSecurity: the shared informers, storage behind the namespace cache. */
function podSecuritySources(d: ServerDeps): { namespace(name: string): Promise<KubeObject | undefined>; pods(ns: string): Promise<KubeObject[]> } {
  const namespaces = namespaceSource(d);
  const pods = d.informers.informerFor('', 'pods');
  return {
    namespace: (name) => lookupNamespace(namespaces, name),
    pods: async (ns) => {
      await syncedWithin(pods, 1000);
      return pods.list(ns);
    },
  };
}

/** One resource's shared informer, as plugins read it. */
function lister(d: ServerDeps, group: string, resource: string): Lister {
  const informer = d.informers.informerFor(group, resource);
  return {
    get: (namespace, name) => informer.get(namespace, name),
    list: (namespace) => informer.list(namespace),
    ready: (timeoutMs) => syncedWithin(informer, timeoutMs),
  };
}

/** NamespaceAutoProvision creates namespaces as the API server itself, past admission. */
function namespaceProvisioner(d: ServerDeps): NamespaceProvisioner {
  const source = namespaceSource(d);
  const store = d.registry.store('', 'namespaces');
  return {
    cached: source.cached,
    waitForSync: source.waitForSync,
    create: async (name) => { await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, internalScope(apiserverUser, 'kube-apiserver')); },
  };
}

/** Kinds to resources as discovery has them: built-in resources, then served custom resources. */
function kindResolver(d: ServerDeps): KindResolver {
  const crds = d.informers.informerFor('apiextensions.k8s.io', 'customresourcedefinitions');
  return (group, version, kind) => {
    const builtIn = d.scheme.kind(group, version, kind);
    if (builtIn) return builtIn.plural;
    for (const crd of crds.list()) {
      const spec = crd.spec as { group?: string; names?: { kind?: string; plural?: string }; versions?: Array<{ name?: string; served?: boolean }> } | undefined;
      if (spec?.group === group && spec.names?.kind === kind && spec.versions?.some((v) => v.name === version && v.served)) return spec.names.plural;
    }
    return undefined;
  };
}
