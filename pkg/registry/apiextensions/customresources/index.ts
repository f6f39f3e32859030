// The served form of a CustomResourceDefinition: one ResourceDef per served version,
// each over storage that converts to and from the CRD's storage version. Nothing here is
// per resource: a CRD adds only its names, schema, subresources and columns.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef, ScaleDef, SubresourceDef } from '../../rest/resource.js';
import type { KubeObject } from '../../../runtime/object.js';
import { crdSpec, crdStatus, crdVersions, storageVersion, type CRDVersion } from '../../../apis/apiextensions/types.js';
import { CustomResourceStrategy } from './strategy.js';
import { customResourceTable } from './table.js';
import { customResourcePatchSchema } from './patch-schema.js';
import { ConvertingStorage, type Converter } from './converting-storage.js';
import type { CustomResourceSchema } from './validation.js';

export { ConvertingStorage, type Converter } from './converting-storage.js';
export type { CustomResourceSchema } from './validation.js';

export interface CustomResourceDeps {
  /** How objects move between the CRD's versions (strategy None or Webhook). */
  converter: Converter;
  /** The defaulting, pruning and validation of one version's schema. */
  schemaFor(version: CRDVersion): CustomResourceSchema;
}

/** `.spec.replicas` → ['spec', 'replicas']. */
function pathOf(jsonPath: string | undefined): string[] | undefined {
  if (!jsonPath) return undefined;
  return jsonPath.replace(/^\./, '').split('.');
}

function scaleOf(v: CRDVersion): ScaleDef | undefined {
  const s = v.subresources?.scale;
  if (!s) return undefined;
  return {
    specReplicasPath: pathOf(s.specReplicasPath) ?? ['spec', 'replicas'],
    statusReplicasPath: pathOf(s.statusReplicasPath) ?? ['status', 'replicas'],
    selectorPath: pathOf(s.labelSelectorPath),
  };
}

/** The group/version/kind names the CRD's status has accepted (upstream serves those, not the spec's). */
export function customResourceDefs(crd: KubeObject, deps: CustomResourceDeps): ResourceDef[] {
  const spec = crdSpec(crd);
  const names = crdStatus(crd).acceptedNames ?? {};
  const group = spec.group ?? '';
  const kind = names.kind ?? '';
  const plural = names.plural ?? '';
  const stored = storageVersion(crd);
  const terminating = Boolean(crd.metadata.deletionTimestamp);
  const namespaced = spec.scope === 'Namespaced';
  const listKind = names.listKind ?? `${kind}List`;
  return crdVersions(crd).filter((v) => v.served === true && v.name).map((v) => {
    const version = v.name!;
    const scale = scaleOf(v);
    const schema = deps.schemaFor(v);
    const hasStatus = v.subresources?.status !== undefined && v.subresources.status !== null;
    const subresources: SubresourceDef[] = [];
    if (hasStatus) subresources.push({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
    if (scale) subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'], scale });
    const def: ResourceDef = {
      group, version, kind, plural, singular: names.singular ?? kind.toLowerCase(),
      shortNames: names.shortNames?.length ? names.shortNames : undefined,
      categories: names.categories?.length ? names.categories : undefined,
      namespaced,
      verbs: allVerbs,
      subresources: subresources.length ? subresources : undefined,
      strategy: new CustomResourceStrategy({ namespaced, hasStatus, scale, schema, terminating, group, plural }),
      table: customResourceTable(v.additionalPrinterColumns),
      storageResource: `${group}/${plural}`,
      listKind,
      customResource: {
        openAPISchema: v.schema?.openAPIV3Schema,
        patchSchema: customResourcePatchSchema(v.schema?.openAPIV3Schema),
        pruning: { unknownFields: (obj) => schema.prune(structuredClone(obj)), prune: (obj) => { schema.prune(obj); } },
      },
      wrapStorage: (storage) => new ConvertingStorage(storage, deps.converter, `${group}/${version}`, `${group}/${stored ?? version}`, listKind),
    };
    if (v.deprecated) def.deprecationWarning = v.deprecationWarning ?? `${group}/${version} ${kind} is deprecated`;
    return def;
  });
}
