// Builds the admission chain: the enabled plugins (ordered.ts decides which and in what
// order), each made by its factory below from the replica's parts and its configuration
// from --admission-control-config-file. A plugin without a factory yet is accepted and
// does nothing, so flags written for upstream keep working while plugins land.
import { AdmissionChain, type Admission, type AdmissionPlugin } from '../admission/interfaces.js';
import { readAdmissionConfiguration, type PluginConfig } from '../admission/config.js';
import { enabledAdmissionPlugins, type AdmissionPluginName } from '../admission/ordered.js';
import { NamespaceLifecycle, type NamespaceSource } from '../admission/plugins/namespacelifecycle/index.js';
import { NodeRestriction } from '../admission/plugins/noderestriction/index.js';
import { CertificateApproval, CertificateSigning, CertificateSubjectRestriction } from '../admission/plugins/certificates/index.js';
import { DefaultIngressClass } from '../admission/plugins/defaultingressclass/index.js';
import { DefaultStorageClass } from '../admission/plugins/defaultstorageclass/index.js';
import { PersistentVolumeClaimResize } from '../admission/plugins/persistentvolumeclaimresize/index.js';
import { StorageObjectInUseProtection } from '../admission/plugins/storageobjectinuseprotection/index.js';
import { NamespaceExists } from '../admission/plugins/namespaceexists/index.js';
import { NamespaceAutoProvision, type NamespaceProvisioner } from '../admission/plugins/namespaceautoprovision/index.js';
import { OwnerReferencesPermissionEnforcement, type KindResolver } from '../admission/plugins/ownerreferencespermissionenforcement/index.js';
import { imagePolicyWebhookFromConfig } from '../admission/plugins/imagepolicywebhook/factory.js';
import type { Lister } from '../admission/lister.js';
import { apiserverUser, internalScope } from '../registry/generic/internal-scope.js';
import type { Authorizer } from '../authorization/interfaces.js';
import { StatusError } from '../runtime/errors.js';
import type { ServerDeps } from './deps.js';

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
  DefaultIngressClass: (d) => new DefaultIngressClass(lister(d, 'networking.k8s.io', 'ingressclasses')),
  DefaultStorageClass: (d) => new DefaultStorageClass(lister(d, 'storage.k8s.io', 'storageclasses')),
  PersistentVolumeClaimResize: (d) => new PersistentVolumeClaimResize(lister(d, 'storage.k8s.io', 'storageclasses')),
  StorageObjectInUseProtection: () => new StorageObjectInUseProtection(),
  NamespaceExists: (d) => new NamespaceExists(namespaceSource(d)),
  NamespaceAutoProvision: (d) => new NamespaceAutoProvision(namespaceProvisioner(d)),
  OwnerReferencesPermissionEnforcement: (d) => new OwnerReferencesPermissionEnforcement(authorizerOf(d), kindResolver(d)),
  ImagePolicyWebhook: (_d, config) => imagePolicyWebhookFromConfig(config),
};

export async function buildAdmission(d: ServerDeps): Promise<Admission> {
  const configs = readAdmissionConfiguration(d.o.admissionControlConfigFile);
  const plugins: AdmissionPlugin[] = [];
  for (const name of enabledAdmissionPlugins(d.o.enableAdmissionPlugins, d.o.disableAdmissionPlugins)) {
    const make = factories[name];
    if (make) plugins.push(await make(d, configs.get(name)));
  }
  return new AdmissionChain(plugins);
}

function authorizerOf(d: ServerDeps): Authorizer {
  if (!d.authorizer) throw new Error('admission: the authorizer must be built before the admission chain');
  return d.authorizer;
}

/** Namespaces for admission: this replica's shared informer, and storage behind it. */
function namespaceSource(d: ServerDeps): NamespaceSource {
  const informer = d.informers.informerFor('', 'namespaces');
  const store = d.registry.store('', 'namespaces');
  return {
    cached: (name) => informer.get('', name),
    waitForSync: (timeoutMs) => syncedWithin(informer, timeoutMs),
    live: async (name) => {
      try {
        return await store.get('', name);
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
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

/** True once the informer has its first list, false if that takes longer than timeoutMs. */
function syncedWithin(informer: { waitForSync(): Promise<void> }, timeoutMs: number): Promise<boolean> {
  return Promise.race([
    informer.waitForSync().then(() => true),
    new Promise<boolean>((resolve) => { setTimeout(() => resolve(false), timeoutMs).unref(); }),
  ]);
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
