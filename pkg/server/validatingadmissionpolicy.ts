// Wires the ValidatingAdmissionPolicy plugin to this replica: the policy and binding
// informers, namespaces and param objects from shared informers, the authorizer, and the
// status controller. Without the feature gate, or when --runtime-config does not serve
// the API, the plugin is present and does nothing, as upstream's.
import { ValidatingAdmissionPolicy } from '../admission/plugins/validatingadmissionpolicy/index.js';
import type { ParamSource } from '../admission/plugins/validatingadmissionpolicy/params.js';
import { PolicyStatusController } from '../admission/plugins/validatingadmissionpolicy/status.js';
import type { AdmissionPlugin } from '../admission/interfaces.js';
import { definitionNameForGVK } from '../openapi/schema.js';
import { StatusError } from '../runtime/errors.js';
import type { KubeObject } from '../runtime/object.js';
import type { ServerDeps } from './deps.js';
import { featureGates } from '../features/gates.js';

const group = 'admissionregistration.k8s.io';

const inactive: AdmissionPlugin = { name: 'ValidatingAdmissionPolicy', handles: () => false };

export function validatingAdmissionPolicyPlugin(d: ServerDeps): AdmissionPlugin {
  if (!featureGates().enabled('ValidatingAdmissionPolicy')) return inactive;
  if (!d.scheme.resourceInGroup(group, 'validatingadmissionpolicies') || !d.scheme.resourceInGroup(group, 'validatingadmissionpolicybindings')) {
    return inactive;
  }
  const policies = d.informers.informerFor(group, 'validatingadmissionpolicies');
  const bindings = d.informers.informerFor(group, 'validatingadmissionpolicybindings');
  const namespaces = d.informers.informerFor('', 'namespaces');
  const nsStore = d.registry.store('', 'namespaces');
  new PolicyStatusController(policies, d.registry.store(group, 'validatingadmissionpolicies'), {
    kindFor: (g, v, res) => d.scheme.resource(g, v, res)?.kind,
    definitionFor: (g, v, kind) => definitionNameForGVK(g, v, kind),
  }, d.log).start();
  const paramSources = new Map<string, ParamSource | undefined>();
  return new ValidatingAdmissionPolicy({
    policies,
    bindings,
    authorizer: d.authorizer,
    match: {
      namespace: async (name): Promise<KubeObject | undefined> => {
        const cached = namespaces.get('', name);
        if (cached) return cached;
        try {
          return await nsStore.get('', name);
        } catch (err) {
          if (err instanceof StatusError && err.code === 404) return undefined;
          throw err;
        }
      },
      servedVersions: (g, res) => d.scheme.versionsOf(g).filter((v) => d.scheme.resource(g, v, res)),
    },
    params: (apiVersion, kind) => {
      const key = `${apiVersion}/${kind}`;
      if (!paramSources.has(key)) {
        const [g, v] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
        const def = d.scheme.kind(g, v, kind);
        if (!def) {
          paramSources.set(key, undefined);
        } else {
          const inf = d.informers.informerFor(g, def.plural);
          paramSources.set(key, {
            namespaced: def.namespaced,
            ready: () => inf.waitForSync(),
            get: (ns, name) => inf.get(ns, name),
            list: (ns) => inf.list(ns || undefined),
          });
        }
      }
      return paramSources.get(key);
    },
  });
}
