// Serving of custom resources in this replica (upstream: apiextensions-apiserver's
// crdHandler): the CRD informer keeps the Scheme's custom resources current, so every
// replica serves a CRD as soon as its watch sees it established.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KubeObject } from '../runtime/object.js';
import type { Scheme } from '../runtime/scheme.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import type { InformerFactory } from '../client/factory.js';
import { CustomResourceServing } from '../registry/apiextensions/customresources/serving.js';
import { converterFor } from '../apiextensions/conversion/index.js';
import { versionSchema } from '../registry/apiextensions/customresources/schema.js';

const apiextensionsGroup = 'apiextensions.k8s.io';

export interface CustomResourceServingDeps {
  scheme: Scheme;
  registry: StoreRegistry;
  informers: InformerFactory;
  log: Logger;
  /** Where the conversion webhook metrics go. */
  metricsRegistry?: Registry;
}

export function serveCustomResources(d: CustomResourceServingDeps): CustomResourceServing | undefined {
  if (!d.scheme.resource(apiextensionsGroup, 'v1', 'customresourcedefinitions')) return undefined;
  const services = d.informers.informerFor('', 'services');
  const depsFor = (crd: KubeObject) => {
    const converter = converterFor(crd, { services, metricsRegistry: d.metricsRegistry });
    return { converter, schemaFor: versionSchema, close: () => converter.close() };
  };
  const serving = new CustomResourceServing(d.scheme, depsFor, ({ added, removed }) => {
    for (const def of removed) d.registry.forget(def);
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
