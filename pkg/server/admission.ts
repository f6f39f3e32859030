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
import type { Authorizer } from '../authorization/interfaces.js';
import { StatusError } from '../runtime/errors.js';
import type { ServerDeps } from './deps.js';
import { validatingAdmissionPolicyPlugin } from './validatingadmissionpolicy.js';

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
  ValidatingAdmissionPolicy: (d) => validatingAdmissionPolicyPlugin(d),
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
    waitForSync: (timeoutMs) => Promise.race([
      informer.waitForSync().then(() => true),
      new Promise<boolean>((resolve) => { setTimeout(() => resolve(false), timeoutMs).unref(); }),
    ]),
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
