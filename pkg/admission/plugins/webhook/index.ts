// MutatingAdmissionWebhook and ValidatingAdmissionWebhook, built from narrow parts of a
// replica: its shared informers (configurations, namespaces, services), the scheme (for
// matchPolicy Equivalent), the authorizer (matchConditions) and a metrics registry.
import type { Registry } from 'prom-client';
import type { Authorizer } from '../../../authorization/interfaces.js';
import type { Informer } from '../../../client/informer.js';
import { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { storageSegment } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../../registry/rest/resource.js';
import type { ResourceScheme } from '../../../registry/rest/resource-scheme.js';
import type { PluginConfig } from '../../config.js';
import { credentialResolverFromConfig } from './auth.js';
import type { DispatchDeps, EquivalentResource, ResourceEquivalence } from './dispatch.js';
import { webhookMetrics } from './metrics.js';
import { MutatingWebhook } from './mutating.js';
import { WebhookConfigurations } from './source.js';
import { ValidatingWebhook } from './validating.js';

export { MutatingWebhook } from './mutating.js';
export { ValidatingWebhook } from './validating.js';
export { setMatchConditionCompiler, type MatchConditionCompiler, type MatchConditionInput } from './matchconditions.js';

export interface WebhookPluginDeps {
  informers: { informerFor(group: string, resource: string): Informer };
  registry: { store(group: string, plural: string): { get(namespace: string, name: string): Promise<KubeObject> } };
  scheme: ResourceScheme;
  authorizer?: Authorizer;
  metricsRegistry: Registry;
}

const group = 'admissionregistration.k8s.io';

export function newMutatingWebhook(d: WebhookPluginDeps, config: PluginConfig | undefined): MutatingWebhook {
  return new MutatingWebhook(configurations(d, 'mutatingwebhookconfigurations', config), dispatchDeps(d));
}

export function newValidatingWebhook(d: WebhookPluginDeps, config: PluginConfig | undefined): ValidatingWebhook {
  return new ValidatingWebhook(configurations(d, 'validatingwebhookconfigurations', config), dispatchDeps(d));
}

function configurations(d: WebhookPluginDeps, resource: string, config: PluginConfig | undefined): WebhookConfigurations {
  const services = d.informers.informerFor('', 'services');
  return new WebhookConfigurations(d.informers.informerFor(group, resource), credentialResolverFromConfig(config), services,
    (name) => equivalentNames(d.scheme, name));
}

/** Other plurals of resources stored together with one named `plural` (rare: usually none). */
function equivalentNames(scheme: ResourceScheme, plural: string): string[] {
  const defs = scheme.resources().filter((r) => !r.virtual && !r.read);
  const segments = new Set(defs.filter((r) => r.plural === plural).map(storageSegment));
  return [...new Set(defs.filter((r) => r.plural !== plural && segments.has(storageSegment(r))).map((r) => r.plural))];
}

function dispatchDeps(d: WebhookPluginDeps): DispatchDeps {
  const namespaces = d.informers.informerFor('', 'namespaces');
  const nsStore = d.registry.store('', 'namespaces');
  return {
    namespaces: {
      cached: (name) => namespaces.get('', name),
      live: async (name) => {
        try {
          return await nsStore.get('', name);
        } catch (err) {
          if (err instanceof StatusError && err.code === 404) return undefined;
          throw err;
        }
      },
    },
    equivalence: schemeEquivalence(d.scheme),
    metrics: webhookMetrics(d.metricsRegistry),
    authorizer: d.authorizer,
  };
}

/** Resources served over the same storage are equivalent (upstream's equivalent resource mapper). */
export function schemeEquivalence(scheme: ResourceScheme): ResourceEquivalence {
  // Keyed group → version → resource so a lookup on the request path builds no string.
  const cache = new Map<string, Map<string, Map<string, readonly EquivalentResource[]>>>();
  const served = (def: ResourceDef | undefined) => def && !def.virtual && !def.read;
  return {
    equivalents(g, v, r) {
      let byVersion = cache.get(g);
      if (!byVersion) cache.set(g, byVersion = new Map());
      let byResource = byVersion.get(v);
      if (!byResource) byVersion.set(v, byResource = new Map());
      let eq = byResource.get(r);
      if (!eq) {
        const self = scheme.resource(g, v, r);
        eq = served(self)
          ? scheme.resources().filter((o) => o !== self && served(o) && storageSegment(o) === storageSegment(self!))
            .map((o) => ({ group: o.group, version: o.version, resource: o.plural, kind: o.kind }))
          : [];
        byResource.set(r, eq);
      }
      return eq;
    },
    convert(obj, from, to) {
      const a = scheme.resource(from.group, from.version, from.resource);
      const b = scheme.resource(to.group, to.version, to.resource);
      const stored = a?.conversion ? a.conversion.toStorage(obj) : obj;
      return b?.conversion ? b.conversion.fromStorage(stored) : structuredClone(stored);
    },
  };
}
