// The seam between a custom resource's strategy and its version's schema: defaulting,
// pruning of unknown fields, and validation (OpenAPI value rules, embedded resources,
// list types, CEL rules). One instance per served version, built when the CRD is read.
import type { FieldError } from '../../../runtime/errors.js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/types.js';

export interface CustomResourceSchema {
  /** The version's openAPIV3Schema, as the CRD declares it (absent: anything goes). */
  readonly openAPISchema?: JSONSchemaProps;
  /** Fills in schema defaults, in place (request bodies and objects read from storage). */
  applyDefaults(obj: unknown): void;
  /** Drops, in place, fields the schema does not declare; returns their paths. */
  prune(obj: unknown): string[];
  /** Every schema rule the object breaks; `old` is the stored object on update. */
  validate(obj: unknown, old: unknown | undefined): FieldError[];
}
