// What the custom-resource strategy needs from a CRD version's schema: validation,
// pruning, defaulting and the embedded-resource/list-type checks (upstream:
// apiextensions-apiserver pkg/apiserver/validation and pkg/apiserver/schema/*). Every
// function takes the plain JSON of spec.versions[i].schema.openAPIV3Schema, already
// known to be structural; compiled forms are cached per schema object.
import type { FieldError } from '../../../runtime/errors.js';
import type { JSONSchemaProps } from '../types.js';
import { compile } from './compiled.js';
import { validateListSetsAndMaps } from './listtype.js';
import { coerceEmbeddedMetadata, validateEmbeddedResources, type CoerceOptions } from './objectmeta.js';

export { validateCustomResource } from './validate.js';
export { pruneCustomResource } from './prune.js';
export { defaultCustomResource } from './defaulting.js';
export type { CoerceOptions } from './objectmeta.js';

/**
 * The strategy's extra checks after schema validation: apiVersion/kind/metadata of every
 * x-kubernetes-embedded-resource value below the root (the root's own metadata is
 * checked as ObjectMeta elsewhere), then set/map uniqueness of x-kubernetes-list-type arrays.
 */
export function validateEmbeddedAndListTypes(obj: unknown, schema: JSONSchemaProps): FieldError[] {
  const s = compile(schema);
  return [...validateEmbeddedResources('', obj, s), ...validateListSetsAndMaps('', s, obj)];
}

/**
 * Rewrites metadata of the root (with isResourceRoot) and of embedded resources as a
 * round trip through ObjectMeta does; with dropInvalidFields, wrongly typed fields are
 * dropped instead of reported. Returns the first error otherwise.
 */
export function coerceCustomResourceMetadata(obj: unknown, schema: JSONSchemaProps, opts: CoerceOptions): FieldError | undefined {
  return coerceEmbeddedMetadata('', obj, compile(schema), opts);
}
