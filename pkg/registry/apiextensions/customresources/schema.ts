// A CRD version's schema as the strategy uses it: structural defaulting, pruning of
// unknown fields and validation (OpenAPI value rules, embedded resources and list types,
// then the x-kubernetes-validations CEL rules, transition rules against the old object).
// A version without a schema keeps what it is given.
import type { FieldError, FieldErrorType } from '../../../runtime/errors.js';
import type { CRDVersion } from '../../../apis/apiextensions/types.js';
import {
  defaultCustomResource, pruneCustomResource, validateCustomResource, validateEmbeddedAndListTypes,
} from '../../../apis/apiextensions/schema/index.js';
import { compileRules, validateRules } from '../../../apis/apiextensions/celrules/index.js';
import type { CustomResourceSchema } from './validation.js';

/** Schema failures that keep the CEL rules from running (upstream's hasBlockingErr). */
const blockingTypes = new Set<FieldErrorType>(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

const rulesNotChecked: FieldError = {
  type: 'FieldValueInvalid', field: '<nil>', value: 'null',
  detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

export function versionSchema(version: CRDVersion): CustomResourceSchema {
  const schema = version.schema?.openAPIV3Schema;
  if (!schema) return { applyDefaults: () => {}, prune: () => [], validate: () => [] };
  const rules = compileRules(schema);
  return {
    openAPISchema: schema,
    applyDefaults: (obj) => defaultCustomResource(obj, schema),
    prune: (obj) => pruneCustomResource(obj, schema),
    validate: (obj, old) => {
      const errs = [...validateCustomResource(obj, schema), ...validateEmbeddedAndListTypes(obj, schema)];
      // Rules would see values of the wrong shape: upstream skips them and says so.
      if (!rules.root) return errs;
      if (errs.some((e) => blockingTypes.has(e.type))) return [...errs, rulesNotChecked];
      return [...errs, ...validateRules(rules, obj, old)];
    },
  };
}
