// Serving of custom resources in this replica (upstream: apiextensions-apiserver's
// crdHandler): the CRD informer keeps the Scheme's custom resources current, so every
// replica serves a CRD as soon as its watch sees it established.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KubeObject } from '../runtime/object.js';
import { storageSegment } from '../runtime/scheme.js';
import type { ResourceDef } from '../registry/rest/resource.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import type { InformerFactory } from '../client/factory.js';
import { CustomResourceServing } from '../registry/apiextensions/customresources/serving.js';
import { converterFor } from '../apiextensions/conversion/index.js';
import { versionSchema } from '../registry/apiextensions/customresources/schema.js';

const apiextensionsGroup = 'apiextensions.k8s.io';

export interface CustomResourceServingDeps {
  scheme: ResourceScheme;
  registry: StoreRegistry;
  informers: InformerFactory;
  log: Logger;
  /** Where the conversion webhook metrics go. */
  metricsRegistry?: Registry;
  /** The watch cache, when on: custom resources are cached like built-in ones. */
  cache?: { addRoot(root: string): void; removeRoot(root: string): void };
  etcdPrefix: string;
}

export function serveCustomResources(d: CustomResourceServingDeps): CustomResourceServing | undefined {
  if (!d.scheme.resource(apiextensionsGroup, 'v1', 'customresourcedefinitions')) return undefined;
  const services = d.informers.informerFor('', 'services');
  const depsFor = (crd: KubeObject) => {
    const converter = converterFor(crd, { services, metricsRegistry: d.metricsRegistry });
    return { converter, schemaFor: versionSchema, close: () => converter.close() };
  };
  const root = (def: ResourceDef) => `${d.etcdPrefix}/${storageSegment(def)}/`;
  const serving = new CustomResourceServing(d.scheme, depsFor, ({ added, removed }) => {
    for (const def of removed) d.registry.forget(def);
    for (const def of added) d.cache?.addRoot(root(def));
    // A version dropped from a CRD that still serves others keeps the shared storage cached.
    const stillServed = new Set(d.scheme.resources().map(root));
    for (const def of removed) if (!stillServed.has(root(def))) d.cache?.removeRoot(root(def));
    if (added.length || removed.length) {
      d.log.info({ added: added.map((r) => `${r.plural}.${r.group}/${r.version}`), removed: removed.map((r) => `${r.plural}.${r.group}/${r.version}`) },
        'custom resources served');
    }
  });
  // A CRD this replica cannot serve (its conversion settings) must not stop the informer.
  const update = (crd: KubeObject) => {
    try {
      serving.update(crd);
    } catch (err) {
      d.log.error({ crd: crd.metadata.name, err: (err as Error).message }, 'cannot serve custom resources');
    }
  };
  d.informers.informerFor(apiextensionsGroup, 'customresourcedefinitions').addHandlers({
    add: update,
    update,
    delete: (crd) => serving.remove(crd.metadata.name ?? ''),
  });
  return serving;
}
