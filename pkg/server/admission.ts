// Builds the admission chain from --enable-admission-plugins / --disable-admission-plugins.
import { AdmissionChain, type Admission, type AdmissionPlugin } from '../admission/interfaces.js';
import { NamespaceLifecycle, type NamespaceSource } from '../admission/plugins/namespacelifecycle/index.js';
import { NodeRestriction, pluginName as nodeRestriction } from '../admission/plugins/noderestriction/index.js';
import { certificatePlugins } from '../admission/plugins/certificates/index.js';
import { StatusError } from '../runtime/errors.js';
import type { ServerDeps } from './deps.js';

export async function buildAdmission(d: ServerDeps): Promise<Admission> {
  const { enableAdmissionPlugins: enabled, disableAdmissionPlugins: disabled } = d.o;
  // NamespaceLifecycle is on unless disabled (as upstream); NodeRestriction only when enabled.
  const plugins: AdmissionPlugin[] = [];
  if (!disabled.includes('NamespaceLifecycle')) plugins.push(new NamespaceLifecycle(namespaceSource(d)));
  plugins.push(...certificatePlugins(d.authorizer));
  if (enabled.includes(nodeRestriction) && !disabled.includes(nodeRestriction)) {
    const nodes = d.informers.informerFor('', 'nodes');
    plugins.push(new NodeRestriction({ get: (name) => nodes.get('', name) }));
  }
  return new AdmissionChain(plugins);
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
