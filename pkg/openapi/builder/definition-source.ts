// Where one document set finds its definitions: the built-in ones from the generated
// schema, plus those of the custom resources the Scheme serves at the moment the documents
// are built. Each set of documents gets its own source, so custom resources never enter
// global state and a CRD's change is a new source, not a mutation.
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { definition, definitionNameForGVK } from '../schema.js';
import { withPublishedDescriptions } from '../meta-descriptions.js';
import { customResourceDefinitions, type RenderedDefinition } from './custom-resource-schema.js';
import { collectRefs, convert } from './definitions.js';
import type { DefinitionSource } from './source.js';

export type { DefinitionSource } from './source.js';

/** The definitions generated from the built-in Go types. */
export const builtinDefinitions: DefinitionSource = {
  nameForGVK: definitionNameForGVK,
  has: (name) => definition(name) !== undefined,
  render(name, v3) {
    const def = definition(name);
    return def ? convert(withPublishedDescriptions(name, def), v3) : undefined;
  },
  refs(name) {
    const def = definition(name);
    const out: string[] = [];
    if (def) collectRefs(def, out);
    return out;
  },
};

/** Built-in definitions, and for every custom resource in `scheme` its kind and list definitions. */
export function schemeDefinitions(scheme: ResourceScheme): DefinitionSource {
  const custom = new Map<string, RenderedDefinition>();
  const byGVK = new Map<string, string>();
  for (const def of scheme.resources()) {
    if (!def.customResource) continue;
    for (const rendered of customResourceDefinitions(def)) {
      custom.set(rendered.name, rendered);
      byGVK.set(`${rendered.gvk.group}/${rendered.gvk.version}/${rendered.gvk.kind}`, rendered.name);
    }
  }
  return {
    nameForGVK: (group, version, kind) =>
      byGVK.get(`${group}/${version}/${kind}`) ?? builtinDefinitions.nameForGVK(group, version, kind),
    has: (name) => custom.has(name) || builtinDefinitions.has(name),
    render(name, v3) {
      const cr = custom.get(name);
      if (cr) return v3 ? cr.v3 : cr.v2;
      return builtinDefinitions.render(name, v3);
    },
    refs(name, v3) {
      const cr = custom.get(name);
      if (cr) return v3 ? cr.v3Refs : cr.v2Refs;
      return builtinDefinitions.refs(name, v3);
    },
  };
}
