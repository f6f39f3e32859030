// TypeMeta and ObjectMeta of x-kubernetes-embedded-resource values (upstream:
// apiextensions schema/objectmeta Validate and Coerce). Validation requires apiVersion and
// kind and checks metadata as ObjectMeta; coercion rewrites metadata the way a round trip
// through metav1.ObjectMeta does (unknown fields dropped, times normalised) and, when asked
// to, drops fields of the wrong type instead of failing.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type ObjectMeta } from '../../../runtime/object.js';
import { decodeErrorFor } from '../../../openapi/type-check.js';
import { child, index, invalid, key, required } from '../../validation/field.js';
import { isDNS1035Label, validatePathSegmentName } from '../../validation/names.js';
import { validateObjectMeta } from '../../validation/objectmeta.js';
import { type Schema } from './compiled.js';
import { badValue } from './gofmt.js';

const objectMetaDefinition = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The json.Unmarshal error of metadata into metav1.ObjectMeta, or undefined when it decodes. */
export function objectMetaDecodeError(metadata: unknown): string | undefined {
  return decodeErrorFor(objectMetaDefinition, metadata);
}

/** objectmeta.Validate with isResourceRoot=false: only embedded resources below the root. */
export function validateEmbeddedResources(path: string, x: unknown, s: Schema | undefined): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    x.forEach((v, i) => errs.push(...validateEmbeddedResources(index(path, i), v, s.items)));
  } else if (isPlainObject(x)) {
    if (s.embeddedResource) errs.push(...validateEmbeddedResource(path, x));
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties.get(k);
      if (prop) errs.push(...validateEmbeddedResources(child(path, k), v, prop));
      else if (s.additionalProperties) errs.push(...validateEmbeddedResources(key(path, k), v, s.additionalProperties.schema));
    }
  }
  return errs;
}

function validateEmbeddedResource(path: string, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(child(path, 'apiVersion')));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(child(path, 'kind')));
  for (const [k, v] of Object.entries(x)) {
    const p = child(path, k);
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(p, badValue(v), 'must be a string'));
      else if (v === '') errs.push(required(p));
      else if ((v.match(/\//g) ?? []).length > 1) errs.push(invalid(p, v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(p, badValue(v), 'must be a string'));
      else if (v === '') errs.push(required(p));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) errs.push(invalid(p, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
      }
    } else if (k === 'metadata') {
      const decodeErr = objectMetaDecodeError(v);
      if (decodeErr) {
        errs.push(invalid(p, badValue(v), decodeErr));
        continue;
      }
      const meta = { ...(isPlainObject(v) ? v : {}) } as ObjectMeta;
      if (!meta.name) meta.name = 'fakename'; // upstream sets one so a missing name is no error
      errs.push(...validateObjectMeta(meta, { namespaced: Boolean(meta.namespace), nameValidator: validatePathSegmentName }, p));
    }
  }
  return errs;
}

export interface CoerceOptions {
  /** Treat the value as a resource root (apiVersion, kind, metadata at its top). */
  isResourceRoot: boolean;
  /** Drop apiVersion/kind/metadata fields of the wrong type instead of failing. */
  dropInvalidFields: boolean;
}

/** objectmeta.Coerce: returns the first error when dropInvalidFields is false. */
export function coerceEmbeddedMetadata(path: string, x: unknown, s: Schema | undefined, opts: CoerceOptions): FieldError | undefined {
  if (!s) return undefined;
  const schema = opts.isResourceRoot && !s.embeddedResource ? { ...s, embeddedResource: true } : s;
  return coerce(path, x, schema, opts.dropInvalidFields);
}

function coerce(path: string, x: unknown, s: Schema | undefined, drop: boolean): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = coerce(index(path, i), x[i], s.items, drop);
      if (err) return err;
    }
    return undefined;
  }
  if (!isPlainObject(x)) return undefined;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s.embeddedResource && (k === 'apiVersion' || k === 'kind') && typeof v !== 'string') {
      if (!drop) return invalid(child(path, k), badValue(v), 'must be a string');
      delete x[k];
    } else if (s.embeddedResource && k === 'metadata') {
      const err = objectMetaDecodeError(v);
      if (err && !drop) return invalid(child(path, k), badValue(v), err);
      if (!err || isPlainObject(v)) x.metadata = normalizeObjectMeta(v, drop);
    }
    const prop = s.properties.get(k);
    const sub = prop ?? s.additionalProperties?.schema;
    if (sub && Object.hasOwn(x, k)) {
      const err = coerce(prop ? child(path, k) : key(path, k), x[k], sub, drop);
      if (err) return err;
    }
  }
  return undefined;
}

const metaStrings = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'];

/**
 * metadata after JSON -> metav1.ObjectMeta -> unstructured: known fields only, in struct
 * order, empty values omitted, times in RFC 3339 seconds; a zero creationTimestamp is
 * removed. With `drop`, each field that would not decode on its own is left out.
 */
export function normalizeObjectMeta(v: unknown, drop: boolean): Record<string, unknown> {
  const m = isPlainObject(v) ? v : {};
  const ok = (k: string) => m[k] !== undefined && m[k] !== null && (!drop || objectMetaDecodeError({ [k]: m[k] }) === undefined);
  const out: Record<string, unknown> = {};
  for (const k of metaStrings) if (ok(k) && m[k] !== '') out[k] = m[k];
  if (ok('generation') && m.generation !== 0) out.generation = m.generation;
  if (ok('creationTimestamp')) out.creationTimestamp = rfc3339(m.creationTimestamp as string);
  if (ok('deletionTimestamp')) out.deletionTimestamp = rfc3339(m.deletionTimestamp as string);
  if (ok('deletionGracePeriodSeconds')) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  for (const k of ['labels', 'annotations']) {
    if (!ok(k)) continue;
    const entries = Object.entries(m[k] as Record<string, unknown>).map(([a, b]) => [a, b ?? '']);
    if (entries.length > 0) out[k] = Object.fromEntries(entries);
  }
  if (ok('ownerReferences') && (m.ownerReferences as unknown[]).length > 0) {
    out.ownerReferences = (m.ownerReferences as Array<Record<string, unknown> | null>).map((r) => ownerReference(r ?? {}));
  }
  if (ok('finalizers') && (m.finalizers as unknown[]).length > 0) out.finalizers = (m.finalizers as unknown[]).map((f) => f ?? '');
  if (ok('managedFields') && (m.managedFields as unknown[]).length > 0) {
    out.managedFields = (m.managedFields as Array<Record<string, unknown> | null>).map((e) => managedFieldsEntry(e ?? {}));
  }
  return out;
}

function rfc3339(t: string): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function ownerReference(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: r.apiVersion ?? '', kind: r.kind ?? '', name: r.name ?? '', uid: r.uid ?? '' };
  if (typeof r.controller === 'boolean') out.controller = r.controller;
  if (typeof r.blockOwnerDeletion === 'boolean') out.blockOwnerDeletion = r.blockOwnerDeletion;
  return out;
}

function managedFieldsEntry(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['manager', 'operation', 'apiVersion']) if (typeof e[k] === 'string' && e[k] !== '') out[k] = e[k];
  if (typeof e.time === 'string') out.time = rfc3339(e.time);
  for (const k of ['fieldsType', 'fieldsV1', 'subresource']) {
    if (e[k] !== undefined && e[k] !== null && e[k] !== '') out[k] = e[k];
  }
  return out;
}
