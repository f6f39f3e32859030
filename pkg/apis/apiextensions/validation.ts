// CustomResourceDefinition validation with upstream's paths and messages (upstream:
// apiextensions-apiserver pkg/apis/apiextensions/validation). Upstream validates the
// internal type, to which v1 converts by moving schema, subresources and printer
// columns to the top level (spec.validation, spec.subresources,
// spec.additionalPrinterColumns) when every version has the same; paths follow that.
import type { FieldError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../validation/objectmeta.js';
import { deepEqual } from '../../util/deep-equal.js';
import { child, forbidden, index, invalid, key, notSupported, required } from '../validation/field.js';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../validation/names.js';
import { validateWebhookService, validateWebhookURL } from '../admissionregistration/webhook-validation.js';
import { validateRuleDefinitions } from './celrules/index.js';
import { goStrings, goVersions } from './gofmt.js';
import { validateOpenAPISchema } from './openapi.js';
import { unsupportedFields, validateStructural } from './structural.js';
import { asObject, crdSpec, crdStatus, crdVersions, isConditionTrue, type CRDColumn, type CRDConversion, type ServiceReference, type CRDNames, type CRDSpec, type CRDSubresources,
  type CRDVersion, type JSONSchemaProps } from './types.js';

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const conversionReviewVersions = ['v1', 'v1beta1'];
/** Go field names allowed at a schema's root when the status subresource is on, in upstream's order. */
const rootFields: Array<[goName: string, json: string]> = [
  ['Description', 'description'], ['Type', 'type'], ['Format', 'format'], ['Title', 'title'], ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'], ['Minimum', 'minimum'], ['ExclusiveMinimum', 'exclusiveMinimum'], ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'], ['Pattern', 'pattern'], ['MaxItems', 'maxItems'], ['MinItems', 'minItems'], ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'], ['Required', 'required'], ['Items', 'items'], ['Properties', 'properties'], ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'], ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'], ['XValidations', 'x-kubernetes-validations'],
];
/** Every JSONSchemaProps field in the internal struct's order (the root check stops at the first). */
const schemaFieldOrder = ['id', '$schema', '$ref', 'description', 'type', 'nullable', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum',
  'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties',
  'patternProperties', 'dependencies', 'additionalItems', 'definitions', 'externalDocs', 'example', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type',
  'x-kubernetes-map-type', 'x-kubernetes-validations'];
const valueBools = new Set(['nullable', 'exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']);

/** Which per-version fields the v1 -> internal conversion moves to the top level. */
interface Hoisted { schema: boolean; subresources: boolean; columns: boolean }

function hoisted(versions: CRDVersion[]): Hoisted {
  if (versions.length === 0) return { schema: false, subresources: false, columns: false };
  const same = (f: (v: CRDVersion) => unknown) => versions.every((v) => deepEqual(f(v), f(versions[0])));
  const cols = (v: CRDVersion) => (v.additionalPrinterColumns && v.additionalPrinterColumns.length > 0 ? v.additionalPrinterColumns : undefined);
  return { schema: same((v) => v.schema), subresources: same((v) => v.subresources), columns: same(cols) };
}

interface Options {
  requireOpenAPISchema: boolean;
  requireStructuralSchema: boolean;
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
}

const createOptions: Options = {
  requireOpenAPISchema: true, requireStructuralSchema: true, requireRecognizedConversionReviewVersion: true, requireImmutableNames: false,
};

export function validateCustomResourceDefinition(obj: KubeObject): FieldError[] {
  const spec = crdSpec(obj);
  const requiredName = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
  const nameValidator = (name: string, prefix: boolean) => [
    ...nameIsDNSSubdomain(name, prefix), ...(name !== requiredName ? ['must be spec.names.plural+"."+spec.group'] : []),
  ];
  return [
    ...validateObjectMeta(obj.metadata, { namespaced: false, nameValidator }),
    ...validateSpec(spec, createOptions),
    ...validateStatus(obj),
    ...validateApproval(obj, undefined),
    ...validatePreserveUnknownFields(obj, undefined),
  ];
}

export function validateCustomResourceDefinitionUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = crdSpec(obj);
  const oldSpec = crdSpec(old);
  const oldReviewVersions = oldSpec.conversion?.webhook?.conversionReviewVersions ?? [];
  const opts: Options = {
    requireOpenAPISchema: crdVersions(old).every((v) => isPlainObject(v.schema?.openAPIV3Schema)),
    requireStructuralSchema: true,
    requireRecognizedConversionReviewVersion: oldReviewVersions.length === 0 || oldReviewVersions.some((v) => conversionReviewVersions.includes(v)),
    requireImmutableNames: isConditionTrue(old, 'Established'),
  };
  const errs = [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateSpec(spec, opts)];
  if (opts.requireImmutableNames) {
    errs.push(...validateImmutableField(spec.scope ?? '', oldSpec.scope ?? '', 'spec.scope'));
    errs.push(...validateImmutableField(spec.names?.kind ?? '', oldSpec.names?.kind ?? '', 'spec.names.kind'));
  }
  errs.push(...validateImmutableField(spec.group ?? '', oldSpec.group ?? '', 'spec.group'));
  errs.push(...validateImmutableField(spec.names?.plural ?? '', oldSpec.names?.plural ?? '', 'spec.names.plural'));
  return [...errs, ...validateStatus(obj), ...validateApproval(obj, old), ...validatePreserveUnknownFields(obj, old)];
}

/** The status endpoint: metadata and accepted names only. */
export function validateCustomResourceDefinitionStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateNames(crdStatus(obj).acceptedNames ?? {}, 'status.acceptedNames')];
}

function validateStatus(obj: KubeObject): FieldError[] {
  const status = crdStatus(obj);
  const errs = validateNames(status.acceptedNames ?? {}, 'status.acceptedNames');
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions : undefined;
  const path = 'status.storedVersions';
  if (!stored || stored.length === 0) return [...errs, invalid(path, goStrings(stored), 'must have at least one stored version')];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of crdVersions(obj)) {
    if (v.storage === true && !remaining.has(v.name ?? '')) errs.push(invalid(path, goStrings(stored), `must have the storage version ${v.name ?? ''}`));
    remaining.delete(v.name ?? '');
  }
  for (const [v, i] of remaining) errs.push(invalid(index(path, i), v, 'must appear in spec.versions'));
  return errs;
}

function schemaOf(v: CRDVersion): JSONSchemaProps | undefined {
  return isPlainObject(v.schema?.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined;
}

function hasStatus(s: CRDSubresources | undefined): boolean {
  return isPlainObject(s) && isPlainObject(s.status);
}

function validateSpec(spec: CRDSpec, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const group = spec.group ?? '';
  if (group === '') errs.push(required('spec.group'));
  else if (isDNS1123Subdomain(group).length > 0) errs.push(invalid('spec.group', group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errs.push(invalid('spec.group', group, 'should be a domain with at least one dot'));
  if (!spec.scope) errs.push(required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));

  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isPlainObject) as CRDVersion[] : [];
  const top = hoisted(versions);
  const topSchema = top.schema && versions.length > 0 ? schemaOf(versions[0]) : undefined;
  const preserve = spec.preserveUnknownFields === true;
  const hasDefaults = versions.some((v) => schemaHas(schemaOf(v), (s) => s.default !== undefined));
  const hasExtensions = versions.some((v) => schemaHas(schemaOf(v), hasKubernetesExtensions));
  const structural = opts.requireStructuralSchema && (!preserve || hasDefaults || hasExtensions);
  if (!topSchema) {
    versions.forEach((v, i) => {
      const p = child(index('spec.versions', i), 'schema', 'openAPIV3Schema');
      if (opts.requireOpenAPISchema && !schemaOf(v)) errs.push(required(p, 'schemas are required'));
      else if (!opts.requireOpenAPISchema && !preserve && v.served === true && !schemaOf(v)) errs.push(required(p, 'because otherwise all fields are pruned'));
    });
  }
  if (hasDefaults && preserve) errs.push(invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));

  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const name = v.name ?? '';
    if (v.storage === true) storageCount++;
    if (seen.has(name)) unique = false;
    seen.add(name);
    const vp = index('spec.versions', i);
    const nameErrs = isDNS1035Label(name);
    if (nameErrs.length > 0) errs.push(invalid(child(vp, 'name'), name, nameErrs.join(',')));
    errs.push(...validateDeprecationWarning(v, vp));
    const statusEnabled = hasStatus(top.subresources ? versions[0].subresources : v.subresources);
    if (!top.schema && schemaOf(v)) errs.push(...validateSchema(schemaOf(v)!, child(vp, 'schema'), statusEnabled, structural));
    if (!top.subresources) errs.push(...validateSubresources(v.subresources, child(vp, 'subresources')));
    if (!top.columns) (v.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, index(child(vp, 'additionalPrinterColumns'), j))));
  });
  const goVers = goVersions(Array.isArray(spec.versions) ? versions : undefined, top);
  if (!unique) errs.push(invalid('spec.versions', goVers, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalid('spec.versions', goVers, 'must have exactly one version marked as storage version'));
  // The internal spec.version is the first version's name.
  if (versions.length > 0 && versions[0].name) {
    const e = isDNS1035Label(versions[0].name);
    if (e.length > 0) errs.push(invalid('spec.version', versions[0].name, e.join(',')));
  }
  const names = isPlainObject(spec.names) ? spec.names : {};
  for (const n of ['plural', 'singular', 'kind', 'listKind'] as const) if (!names[n]) errs.push(required(child('spec.names', n)));
  errs.push(...validateNames(names, 'spec.names'));
  const anyStatus = versions.some((v) => hasStatus(v.subresources));
  if (topSchema) errs.push(...validateSchema(topSchema, 'spec.validation', anyStatus, structural));
  if (top.subresources && versions.length > 0) errs.push(...validateSubresources(versions[0].subresources, 'spec.subresources'));
  if (top.columns && versions.length > 0) {
    (versions[0].additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, index('spec.additionalPrinterColumns', j))));
  }
  const conversion = isPlainObject(spec.conversion) ? spec.conversion : undefined;
  if (conversion && conversion.strategy !== 'None' && preserve) {
    errs.push(invalid('spec.conversion.strategy', conversion.strategy ?? '', 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec, opts.requireRecognizedConversionReviewVersion));
  return errs;
}

function validateDeprecationWarning(v: CRDVersion, path: string): FieldError[] {
  const w = v.deprecationWarning;
  if (w === undefined || w === null) return [];
  const p = child(path, 'deprecationWarning');
  if (v.deprecated !== true) return [invalid(p, w, 'can only be set for deprecated versions')];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(w) > 256) errs.push(invalid(p, w, 'must be <= 256 characters long'));
  if (w.length === 0) errs.push(invalid(p, w, 'must not be an empty string'));
  let byteIndex = 0;
  for (const ch of w) {
    if (/[\p{Cc}]/u.test(ch)) {
      errs.push(invalid(p, w, `must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`));
      break;
    }
    byteIndex += Buffer.byteLength(ch);
  }
  return errs;
}

export function validateNames(names: CRDNames, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const label = (field: string, value: string | undefined, mixedCase = false) => {
    if (!value) return;
    const e = isDNS1035Label(mixedCase ? value.toLowerCase() : value);
    if (e.length > 0) errs.push(invalid(child(path, field), value, `${mixedCase ? 'may have mixed case, but should otherwise match: ' : ''}${e.join(',')}`));
  };
  label('plural', names.plural);
  label('singular', names.singular);
  label('kind', names.kind, true);
  label('listKind', names.listKind, true);
  (names.shortNames ?? []).forEach((s, i) => {
    const e = isDNS1035Label(s);
    if (e.length > 0) errs.push(invalid(index(child(path, 'shortNames'), i), s, e.join(',')));
  });
  if (names.kind && names.kind === names.listKind) errs.push(invalid(child(path, 'listKind'), names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => {
    const e = isDNS1035Label(c);
    if (e.length > 0) errs.push(invalid(index(child(path, 'categories'), i), c, e.join(',')));
  });
  return errs;
}

function validateColumn(c: CRDColumn, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(required(child(path, 'name')));
  const typesMsg = `must be one of ${printerColumnTypes.join(',')}`;
  if (!c.type) errs.push(required(child(path, 'type'), typesMsg));
  else if (!printerColumnTypes.includes(c.type)) errs.push(invalid(child(path, 'type'), c.type, typesMsg));
  if (c.format && !columnFormats.includes(c.format)) errs.push(invalid(child(path, 'format'), c.format, `must be one of ${columnFormats.join(',')}`));
  // The internal field is JSONPath, and so is the path upstream reports.
  if (!c.jsonPath) errs.push(required(child(path, 'JSONPath')));
  else errs.push(...validateSimpleJSONPath(c.jsonPath, child(path, 'JSONPath')));
  return errs;
}

function validateSimpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

function validateSubresources(sub: CRDSubresources | undefined, path: string): FieldError[] {
  const scale = asObject<NonNullable<CRDSubresources['scale']>>(sub?.scale);
  if (!scale) return [];
  const errs: FieldError[] = [];
  const check = (field: 'specReplicasPath' | 'statusReplicasPath', prefix: string, under: string) => {
    const p = child(path, `scale.${field}`);
    const v = scale[field];
    if (!v) { errs.push(required(p)); return; }
    const e = validateSimpleJSONPath(v, p);
    if (e.length > 0) errs.push(...e);
    else if (!v.startsWith(prefix)) errs.push(invalid(p, v, `should be a json path under ${under}`));
  };
  check('specReplicasPath', '.spec.', '.spec');
  check('statusReplicasPath', '.status.', '.status');
  const sel = scale.labelSelectorPath;
  if (sel) {
    const p = child(path, 'scale.labelSelectorPath');
    const e = validateSimpleJSONPath(sel, p);
    if (e.length > 0) errs.push(...e);
    else if (!sel.startsWith('.spec.') && !sel.startsWith('.status.')) errs.push(invalid(p, sel, 'should be a json path under either .spec or .status'));
  }
  return errs;
}

function validateSchema(schema: JSONSchemaProps, path: string, statusEnabled: boolean, structural: boolean): FieldError[] {
  const sp = child(path, 'openAPIV3Schema');
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...rootFieldErrors(schema, path));
  if (schema.nullable === true) errs.push(forbidden(child(path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));
  const schemaErrs: FieldError[] = [];
  if (structural && !unsupportedFields(schema)) schemaErrs.push(...validateStructural(sp, schema));
  schemaErrs.push(...validateOpenAPISchema(schema, sp, true));
  // As upstream, rules are compiled only against a valid structural schema.
  if (structural && !unsupportedFields(schema) && schemaErrs.length === 0) schemaErrs.push(...validateRuleDefinitions(schema, sp));
  return [...errs, ...schemaErrs];
}

function rootFieldErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  const allowed = new Map(rootFields.map(([go, json]) => [json, go]));
  for (const f of schemaFieldOrder) {
    const v = schema[f];
    if (v === undefined || v === null || v === '' || (v === false && valueBools.has(f))) continue;
    if (f === 'type') {
      if (v !== 'object') return [invalid(child(path, 'openAPIV3Schema.type'), v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!allowed.has(f)) {
      return [invalid(child(path, 'openAPIV3Schema'), new GoSchema(schema),
        `only [${rootFields.map(([go]) => go).join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** Upstream prints the whole internal struct; its JSON stands in for it. */
class GoSchema {
  constructor(readonly schema: JSONSchemaProps) {}
  toJSON(): unknown { return this.schema; }
}

function validateConversion(spec: CRDSpec, requireRecognized: boolean): FieldError[] {
  const c = asObject<CRDConversion>(spec.conversion);
  if (!c) return [];
  const errs: FieldError[] = [];
  const strategy = c.strategy ?? '';
  if (strategy === '') errs.push(required('spec.conversion.strategy'));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
  const webhook = asObject<NonNullable<CRDConversion['webhook']>>(c.webhook);
  const cc = asObject<NonNullable<NonNullable<CRDConversion['webhook']>['clientConfig']>>(webhook?.clientConfig);
  const versions = Array.isArray(webhook?.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  if (strategy === 'Webhook') {
    const ccPath = 'spec.conversion.webhookClientConfig';
    if (!cc) errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    else if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required(ccPath, 'exactly one of url or service is required'));
    else if (cc.url !== undefined) errs.push(...validateWebhookURL(child(ccPath, 'url'), cc.url, true));
    else {
      const s = asObject<ServiceReference>(cc.service) ?? {};
      errs.push(...validateWebhookService(child(ccPath, 'service'), s.name ?? '', s.namespace ?? '', s.path, s.port ?? 443));
    }
    errs.push(...validateReviewVersions(versions, requireRecognized));
  } else {
    if (cc) errs.push(forbidden('spec.conversion.webhookClientConfig', 'should not be set when strategy is not set to Webhook'));
    if (versions.length > 0) errs.push(forbidden('spec.conversion.conversionReviewVersions', 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

function validateReviewVersions(versions: string[], requireRecognized: boolean): FieldError[] {
  const path = 'spec.conversion.conversionReviewVersions';
  if (versions.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) { errs.push(invalid(index(path, i), v, 'duplicate version')); return; }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(index(path, i), v, m));
  });
  if (requireRecognized && !versions.some((v) => conversionReviewVersions.includes(v))) {
    errs.push(invalid(path, goStrings(versions), `must include at least one of ${conversionReviewVersions.join(', ')}`));
  }
  return errs;
}

const approvalAnnotation = 'api-approved.kubernetes.io';

function isProtectedGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

type Approval = 'missing' | 'bypassed' | 'invalid' | 'approved';

function approvalState(annotations: Record<string, string> | undefined): [Approval, string] {
  const a = annotations?.[approvalAnnotation] ?? '';
  if (a === '') return ['missing', `protected groups must have approval annotation "${approvalAnnotation}", see https://github.com/kubernetes/enhancements/pull/1111`];
  if (a.startsWith('unapproved')) return ['bypassed', `not approved: "${a}"`];
  if (!/^(\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(a)) {
    return ['invalid', `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`];
  }
  return ['approved', ''];
}

/** CRDs in the community's groups (*.k8s.io, *.kubernetes.io) carry the API review approval. */
function validateApproval(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (!isProtectedGroup(crdSpec(obj).group ?? '')) return [];
  const [state, reason] = approvalState(obj.metadata.annotations);
  if (old && approvalState(old.metadata.annotations)[0] === state) return [];
  const path = key('metadata.annotations', approvalAnnotation);
  if (state === 'missing') return [required(path, reason)];
  if (state === 'invalid') return [invalid(path, obj.metadata.annotations?.[approvalAnnotation] ?? '', reason)];
  return [];
}

function validatePreserveUnknownFields(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (old && crdSpec(old).preserveUnknownFields === true) return [];
  if (crdSpec(obj).preserveUnknownFields === true) {
    return [invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in openAPIV3Schema instead')];
  }
  return [];
}

function hasKubernetesExtensions(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-embedded-resource'] === true || s['x-kubernetes-preserve-unknown-fields'] !== undefined
    || s['x-kubernetes-int-or-string'] === true || (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0)
    || s['x-kubernetes-list-type'] !== undefined || (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0);
}

/** Whether pred holds anywhere in the schema tree. */
export function schemaHas(s: unknown, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!isPlainObject(s)) return false;
  if (pred(s)) return true;
  const kids: unknown[] = [s.not, s.additionalItems, s.additionalProperties];
  if (Array.isArray(s.items)) kids.push(...s.items); else kids.push(s.items);
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) kids.push(...(s[k] as unknown[]));
  for (const k of ['properties', 'patternProperties', 'definitions', 'dependencies']) if (isPlainObject(s[k])) kids.push(...Object.values(s[k] as object));
  return kids.some((k) => schemaHas(k, pred));
}
