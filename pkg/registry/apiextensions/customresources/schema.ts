// A CRD version's schema as the strategy uses it: structural defaulting, pruning of
// unknown fields and validation (OpenAPI value rules, embedded resources and list types).
// A version without a schema keeps what it is given.
import type { CRDVersion } from '../../../apis/apiextensions/types.js';
import {
  defaultCustomResource, pruneCustomResource, validateCustomResource, validateEmbeddedAndListTypes,
} from '../../../apis/apiextensions/schema/index.js';
import type { CustomResourceSchema } from './validation.js';

export function versionSchema(version: CRDVersion): CustomResourceSchema {
  const schema = version.schema?.openAPIV3Schema;
  if (!schema) return { applyDefaults: () => {}, prune: () => [], validate: () => [] };
  return {
    openAPISchema: schema,
    applyDefaults: (obj) => defaultCustomResource(obj, schema),
    prune: (obj) => pruneCustomResource(obj, schema),
    validate: (obj) => [...validateCustomResource(obj, schema), ...validateEmbeddedAndListTypes(obj, schema)],
  };
}
