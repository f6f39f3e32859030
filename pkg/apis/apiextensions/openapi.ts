// The OpenAPI v3 subset a CRD schema may use (upstream: validation.go
// ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3), checked
// node by node. CEL rules (x-kubernetes-validations) are checked for form only.
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/object.js';
import { child, forbidden, index, invalid, key, notSupported, required } from '../validation/field.js';
import type { JSONSchemaProps } from './types.js';

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);
const validationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

interface NodeContext {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  insideResourceMeta: boolean;
}

export function validateOpenAPISchema(s: JSONSchemaProps, path: string, allowDefaults: boolean): FieldError[] {
  return node(s, path, { allowDefaults, insideResourceMeta: false }, true);
}

function forbidDefaults(ctx: NodeContext, reason: string): NodeContext {
  return { ...ctx, allowDefaults: false, disallowDefaultsReason: reason };
}

function schemasOf(v: unknown): JSONSchemaProps[] {
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

function entriesOf(v: unknown): Array<[string, JSONSchemaProps]> {
  if (!isPlainObject(v)) return [];
  return Object.keys(v).sort().filter((k) => isPlainObject(v[k])).map((k) => [k, v[k] as JSONSchemaProps]);
}

/** specStandardValidatorV3: keywords of JSON schema that Kubernetes does not support. */
function standard(s: JSONSchemaProps, path: string, ctx: NodeContext): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  if (type !== '' && !openapiV3Types.includes(type)) errs.push(notSupported(child(path, 'type'), type, openapiV3Types));
  if (s.default !== undefined && !ctx.allowDefaults) {
    errs.push(forbidden(child(path, 'default'), `must not be set${ctx.disallowDefaultsReason ? ` ${ctx.disallowDefaultsReason}` : ''}`));
  }
  if (typeof s.id === 'string' && s.id !== '') errs.push(forbidden(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (entriesOf(s.patternProperties).length > 0) errs.push(forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (entriesOf(s.definitions).length > 0) errs.push(forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(child(path, '$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

function node(s: JSONSchemaProps, path: string, ctx: NodeContext, isRoot: boolean): FieldError[] {
  const errs = standard(s, path, ctx);
  if (s.uniqueItems === true) errs.push(forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const properties = entriesOf(s.properties);
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (properties.length > 0 && (ap === false || isPlainObject(ap))) {
      errs.push(forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ctx.insideResourceMeta ? forbidDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
    if (isPlainObject(ap)) errs.push(...node(ap, child(path, 'additionalProperties'), sub, false));
  }
  for (const [name, prop] of properties) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
    }
    errs.push(...node(prop, key(child(path, 'properties'), name), sub, false));
  }
  if (isPlainObject(s.not)) errs.push(...node(s.not, child(path, 'not'), ctx, false));
  for (const k of ['allOf', 'oneOf', 'anyOf']) schemasOf(s[k]).forEach((x, i) => errs.push(...node(x, index(child(path, k), i), ctx, false)));
  for (const [name, d] of entriesOf(s.definitions)) errs.push(...node(d, key(child(path, 'definitions'), name), ctx, false));
  if (isPlainObject(s.items)) errs.push(...node(s.items, child(path, 'items'), ctx, false));
  else schemasOf(s.items).forEach((x, i) => errs.push(...node(x, index(child(path, 'items'), i), ctx, false)));
  for (const [name, d] of entriesOf(s.dependencies)) errs.push(...node(d, key(child(path, 'dependencies'), name), ctx, false));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  errs.push(...listAndMapTypes(s, path), ...celRules(s, path));
  return errs;
}

function listAndMapTypes(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as string[]) : [];
  const typeErr = (want: string, ext: string) => (type === '' ? required(child(path, 'type'), `must be ${want} if ${ext} is specified`)
    : invalid(child(path, 'type'), type, `must be ${want} if ${ext} is specified`));
  if (typeof mapType === 'string' && type !== 'object') errs.push(typeErr('object', 'x-kubernetes-map-type'));
  if (typeof mapType === 'string' && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const items = isPlainObject(s.items) ? s.items : undefined;
  if (typeof listType === 'string' && type !== 'array') {
    errs.push(typeErr('array', 'x-kubernetes-list-type'));
  } else if (listType === 'set' && items) {
    if (items.type === 'array' && typeof items['x-kubernetes-list-type'] === 'string' && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(invalid(child(path, 'items', 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(invalid(child(path, 'items', 'x-kubernetes-map-type'), listType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (typeof listType === 'string' && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    if (listType === undefined) errs.push(required(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(child(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errs.push(required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') {
      errs.push(invalid(child(path, 'items', 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items && items.type === 'object') {
      const itemProps = isPlainObject(items.properties) ? items.properties : {};
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = itemProps[k];
        if (isPlainObject(p)) {
          if (p.type === 'array' || p.type === 'object') {
            errs.push(invalid(child(key(child(path, 'items', 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
      const req = Array.isArray(items.required) ? (items.required as string[]) : [];
      if (items.nullable === true) errs.push(forbidden(child(path, 'items', 'nullable'), 'cannot be nullable when x-kubernetes-list-type is map'));
      for (const k of mapKeys) {
        const p = itemProps[k];
        if (!isPlainObject(p)) continue;
        if (!req.includes(k) && p.default === undefined) {
          errs.push(required(child(key(child(path, 'items', 'properties'), k), 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
        }
        if (p.nullable === true) errs.push(forbidden(child(key(child(path, 'items', 'properties'), k), 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  } else if (listType === 'set' && items?.nullable === true) {
    errs.push(forbidden(child(path, 'items', 'nullable'), 'cannot be nullable when x-kubernetes-list-type is set'));
  }
  return errs;
}

/** The form of x-kubernetes-validations entries; the CEL expressions are not compiled here. */
function celRules(s: JSONSchemaProps, path: string): FieldError[] {
  const rules = Array.isArray(s['x-kubernetes-validations']) ? (s['x-kubernetes-validations'] as unknown[]) : [];
  const errs: FieldError[] = [];
  const newline = /[\n\r]+/;
  rules.forEach((r, i) => {
    const rule = isPlainObject(r) ? r : {};
    const p = index(child(path, 'x-kubernetes-validations'), i);
    const str = (k: string) => (typeof rule[k] === 'string' ? (rule[k] as string) : '');
    const trimmedRule = str('rule').trim();
    const msg = str('message');
    if (trimmedRule === '') errs.push(required(child(p, 'rule'), 'rule is not specified'));
    else if (msg.length > 0 && msg.trim() === '') errs.push(invalid(child(p, 'message'), msg, 'message must be non-empty if specified'));
    else if (newline.test(msg.trim())) errs.push(invalid(child(p, 'message'), msg, 'message must not contain line breaks'));
    else if (newline.test(trimmedRule) && msg.trim() === '') errs.push(required(child(p, 'message'), 'message must be specified if rule contains line breaks'));
    const me = str('messageExpression');
    if (me.length > 0 && me.trim() === '') errs.push(required(child(p, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    if (typeof rule.reason === 'string' && !validationReasons.includes(rule.reason)) {
      errs.push(notSupported(child(p, 'reason'), rule.reason, validationReasons));
    }
    const fp = str('fieldPath');
    if (fp.length > 0 && fp.trim() === '') errs.push(invalid(child(p, 'fieldPath'), fp, 'fieldPath must be non-empty if specified'));
    if (newline.test(fp)) errs.push(invalid(child(p, 'fieldPath'), fp, 'fieldPath must not contain line breaks'));
  });
  return errs;
}
