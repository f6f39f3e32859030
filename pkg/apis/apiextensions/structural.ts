// Structural-schema rules for CRD schemas (upstream: apiextensions-apiserver
// pkg/apiserver/schema ValidateStructural): every specified field has a type, value
// validations (allOf, anyOf, oneOf, not) only restrict what the structure declares,
// metadata at the root may only restrict name and generateName. Errors come sorted by
// their text, as upstream sorts them.
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/object.js';
import { child, forbidden, index, invalid, key, required } from '../validation/field.js';
import type { JSONSchemaProps } from './types.js';

type Level = 'root' | 'item' | 'field';

/** Fields that keep a schema from being converted to a structural one at all. */
export function unsupportedFields(s: JSONSchemaProps): boolean {
  if (typeof s.id === 'string' && s.id !== '') return true;
  if (s.additionalItems !== undefined || s.dependencies !== undefined || s.$ref !== undefined) return true;
  if (isPlainObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0) return true;
  if (isPlainObject(s.definitions) && Object.keys(s.definitions).length > 0) return true;
  if (Array.isArray(s.items)) return true;
  return subSchemas(s).some(unsupportedFields);
}

function subSchemas(s: JSONSchemaProps): JSONSchemaProps[] {
  const out: unknown[] = [s.items, s.not, isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined];
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(s[k])) out.push(...(s[k] as unknown[]));
  if (isPlainObject(s.properties)) out.push(...Object.values(s.properties));
  return out.filter(isPlainObject);
}

export function validateStructural(path: string, s: JSONSchemaProps): FieldError[] {
  const errs = invariants(s, 'root', path);
  const text = (e: FieldError) => fieldErrorMessage(e);
  return errs.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

function props(s: JSONSchemaProps): Record<string, JSONSchemaProps> {
  return isPlainObject(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : {};
}

function typeOf(s: JSONSchemaProps): string {
  return typeof s.type === 'string' ? s.type : '';
}

function invariants(s: JSONSchemaProps, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeOf(s);
  if (type === 'array' && s.items === undefined) errs.push(required(child(path, 'items'), 'must be specified'));
  if (isPlainObject(s.items)) errs.push(...invariants(s.items, 'item', child(path, 'items')));
  for (const [k, v] of Object.entries(props(s))) {
    if (isPlainObject(v)) errs.push(...invariants(v, 'field', key(child(path, 'properties'), k)));
  }
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (lvl === 'root') errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (isPlainObject(s.additionalProperties)) errs.push(...invariants(s.additionalProperties, 'field', child(path, 'additionalProperties')));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAllOf(s), lvl, path));

  if (embedded && type !== 'object') {
    errs.push(type === '' ? required(child(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true')
      : invalid(child(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(required(child(path, 'type'), `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalid(child(path, 'type'), type, 'must be object at the root'));
  const checkMetadata = lvl === 'root' || embedded;
  const p = props(s);
  for (const k of ['kind', 'apiVersion']) {
    if (checkMetadata && isPlainObject(p[k]) && typeOf(p[k]) !== 'string') {
      errs.push(invalid(child(key(child(path, 'properties'), k), 'type'), typeOf(p[k]), 'must be string'));
    }
  }
  if (isPlainObject(p.metadata)) errs.push(...metadataInvariants(p.metadata, checkMetadata, lvl, key(child(path, 'properties'), 'metadata')));
  if (embedded && !preserve && Object.keys(p).length === 0) {
    errs.push(required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** At the root, metadata may be typed object and restrict name and generateName, nothing else. */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && typeOf(s) !== 'object') errs.push(invalid(child(path, 'type'), typeOf(s), 'must be object'));
  if (lvl !== 'root') return errs;
  const rest: JSONSchemaProps = { ...s };
  delete rest.type;
  delete rest.default;
  const names = Object.keys(props(s));
  const onlyNames = names.length > 0 && names.every((n) => n === 'name' || n === 'generateName');
  if (onlyNames || names.length === 0) delete rest.properties;
  const zero = (k: string, v: unknown) => v === undefined || v === null || v === '' || (v === false && k !== 'x-kubernetes-preserve-unknown-fields');
  if (Object.entries(rest).some(([k, v]) => !zero(k, v))) {
    errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  return errs;
}

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  const only = (x: unknown, t: string) => isPlainObject(x) && Object.keys(x).length === 1 && x.type === t;
  return only(anyOf[0], 'integer') && only(anyOf[1], 'string');
}

function isIntOrStringAllOf(s: JSONSchemaProps): boolean {
  return Array.isArray(s.allOf) && isPlainObject(s.allOf[0]) && isIntOrStringAnyOf(s.allOf[0].anyOf);
}

function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = (k: string) => (Array.isArray(v[k]) ? (v[k] as unknown[]) : []);
  if (!skipAnyOf) list('anyOf').forEach((x, i) => errs.push(...nested(x, false, lvl, index(child(path, 'anyOf'), i))));
  list('allOf').forEach((x, i) => errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, lvl, index(child(path, 'allOf'), i))));
  list('oneOf').forEach((x, i) => errs.push(...nested(x, false, lvl, index(child(path, 'oneOf'), i))));
  if (v.not !== undefined) errs.push(...nested(v.not, false, lvl, child(path, 'not')));
  if (typeof v.pattern === 'string' && v.pattern !== '') {
    try {
      new RegExp(v.pattern, 'u');
    } catch (err) {
      errs.push(invalid(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  return errs;
}

/** A schema under allOf/anyOf/oneOf/not: it may validate values, never add structure. */
function nested(x: unknown, skipAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  if (!isPlainObject(x)) return [];
  const errs = valueValidation(x, skipAnyOf, false, lvl, path);
  if (x.items !== undefined) errs.push(...nested(x.items, false, lvl, child(path, 'items')));
  for (const [k, fld] of Object.entries(props(x))) errs.push(...nested(fld, false, 'field', key(child(path, 'properties'), k)));
  const set = (k: string) => x[k] !== undefined && x[k] !== null;
  if (typeof x.type === 'string' && x.type !== '') errs.push(forbidden(child(path, 'type'), 'must be empty to be structural'));
  if (set('additionalProperties')) errs.push(forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  if (set('default')) errs.push(forbidden(child(path, 'default'), 'must be undefined to be structural'));
  if (typeof x.title === 'string' && x.title !== '') errs.push(forbidden(child(path, 'title'), 'must be empty to be structural'));
  if (typeof x.description === 'string' && x.description !== '') errs.push(forbidden(child(path, 'description'), 'must be empty to be structural'));
  if (x.nullable === true) errs.push(forbidden(child(path, 'nullable'), 'must be false to be structural'));
  if (set('externalDocs')) errs.push(forbidden(child(path, 'externalDocs'), 'must be undefined to be structural'));
  for (const ext of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']) {
    if (x[ext] === true) errs.push(forbidden(child(path, ext), 'must be false to be structural'));
  }
  if (Array.isArray(x['x-kubernetes-list-map-keys']) && x['x-kubernetes-list-map-keys'].length > 0) {
    errs.push(forbidden(child(path, 'x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  }
  if (set('x-kubernetes-list-type')) errs.push(forbidden(child(path, 'x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (set('x-kubernetes-map-type')) errs.push(forbidden(child(path, 'x-kubernetes-map-type'), 'must be undefined to be structural'));
  if (Array.isArray(x['x-kubernetes-validations']) && x['x-kubernetes-validations'].length > 0) {
    errs.push(forbidden(child(path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  }
  if (props(x).metadata !== undefined) errs.push(forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}
