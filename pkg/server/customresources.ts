// Serving of custom resources in this replica (upstream: apiextensions-apiserver's
// crdHandler): the CRD informer keeps the Scheme's custom resources current, so every
// replica serves a CRD as soon as its watch sees it established.
import type { Logger } from 'pino';
import type { Scheme } from '../runtime/scheme.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import type { InformerFactory } from '../client/factory.js';
import { CustomResourceServing } from '../registry/apiextensions/customresources/serving.js';
import { noneConverter } from '../registry/apiextensions/customresources/index.js';
import { versionSchema } from '../registry/apiextensions/customresources/schema.js';

const apiextensionsGroup = 'apiextensions.k8s.io';

export function serveCustomResources(d: { scheme: Scheme; registry: StoreRegistry; informers: InformerFactory; log: Logger }): CustomResourceServing | undefined {
  if (!d.scheme.resource(apiextensionsGroup, 'v1', 'customresourcedefinitions')) return undefined;
  const serving = new CustomResourceServing(d.scheme, () => ({ converter: noneConverter, schemaFor: versionSchema }), ({ added, removed }) => {
    for (const def of removed) d.registry.forget(def);
    if (added.length || removed.length) {
      d.log.info({ added: added.map((r) => `${r.plural}.${r.group}/${r.version}`), removed: removed.map((r) => `${r.plural}.${r.group}/${r.version}`) },
        'custom resources served');
    }
  });
  d.informers.informerFor(apiextensionsGroup, 'customresourcedefinitions').addHandlers({
    add: (crd) => serving.update(crd),
    update: (crd) => serving.update(crd),
    delete: (crd) => serving.remove(crd.metadata.name ?? ''),
  });
  return serving;
}
