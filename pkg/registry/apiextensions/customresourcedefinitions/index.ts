// apiextensions.k8s.io/v1 customresourcedefinitions (+status), stored as JSON under
// /registry/apiextensions.k8s.io/customresourcedefinitions/<name>. Only the definitions
// are served here; serving the custom resources they define builds on this.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { CustomResourceDefinitionStrategy } from './strategy.js';

export const customresourcedefinitions: ResourceDef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  verbs: [...allVerbs],
  subresources: [{ name: 'status', kind: 'CustomResourceDefinition', verbs: ['get', 'patch', 'update'] }],
  strategy: new CustomResourceDefinitionStrategy(),
};
