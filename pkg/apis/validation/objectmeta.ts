// ObjectMeta validation (upstream: apimachinery api/validation/objectmeta.go, with the
// core group's extra finalizer rule as an option).
import type { FieldError } from '../../runtime/errors.js';
import type { ObjectMeta, OwnerReference } from '../../runtime/object.js';
import { parseApiVersion } from '../../runtime/scheme.js';
import { byteLength, child, forbidden, index, invalid, required, tooLong } from './field.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel, type NameValidator } from './names.js';
import { goStringSlice, isPrintable, isPrintableAscii } from '../../runtime/gofmt.js';
import { deepEqual } from '../../util/deep-equal.js';

export const FieldImmutableErrorMsg = 'field is immutable';
export const TotalAnnotationSizeLimitB = 256 * 1024;
export const IsNegativeErrorMsg = 'must be greater than or equal to 0';

const FinalizerOrphanDependents = 'orphan';
const FinalizerDeleteDependents = 'foregroundDeletion';
/** Unqualified finalizer names the core group accepts. */
const standardFinalizers = new Set(['kubernetes', FinalizerOrphanDependents, FinalizerDeleteDependents]);

export interface ObjectMetaOptions {
  namespaced: boolean;
  nameValidator: NameValidator;
  /**
   * Core-group rule (pkg/apis/core/validation): a finalizer without a `/` must be one of
   * the standard names. Off for the generic check every stored object gets.
   */
  standardFinalizers?: boolean;
}

export function validateObjectMeta(meta: ObjectMeta, opts: ObjectMetaOptions, fieldPath = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of opts.nameValidator(meta.generateName, true)) {
      errs.push(invalid(child(fieldPath, 'generateName'), meta.generateName, msg));
    }
  }
  if (!meta.name) {
    errs.push(required(child(fieldPath, 'name'), 'name or generateName is required'));
  } else {
    for (const msg of opts.nameValidator(meta.name, false)) errs.push(invalid(child(fieldPath, 'name'), meta.name, msg));
  }
  if (opts.namespaced) {
    if (!meta.namespace) {
      errs.push(required(child(fieldPath, 'namespace')));
    } else {
      for (const msg of nameIsDNSLabel(meta.namespace, false)) {
        errs.push(invalid(child(fieldPath, 'namespace'), meta.namespace, msg));
      }
    }
  } else if (meta.namespace) {
    errs.push(forbidden(child(fieldPath, 'namespace'), 'not allowed on this type'));
  }
  // Each check only for a field that is set: nothing unset can fail one, and every write
  // runs this two or three times, building each field's path before any error.
  if ((meta.generation ?? 0) < 0) errs.push(...validateNonnegativeField(meta.generation ?? 0, child(fieldPath, 'generation')));
  if (meta.labels) errs.push(...validateLabels(meta.labels, child(fieldPath, 'labels')));
  if (meta.annotations) errs.push(...validateAnnotations(meta.annotations, child(fieldPath, 'annotations')));
  if (meta.ownerReferences) errs.push(...validateOwnerReferences(meta.ownerReferences, child(fieldPath, 'ownerReferences')));
  if (meta.finalizers) errs.push(...validateFinalizers(meta.finalizers, child(fieldPath, 'finalizers')));
  if (meta.managedFields) errs.push(...validateManagedFields(meta.managedFields, child(fieldPath, 'managedFields')));
  if (opts.standardFinalizers) {
    for (const f of meta.finalizers ?? []) errs.push(...validateKubeFinalizerName(f, child(fieldPath, 'finalizers')));
  }
  return errs;
}

const immutableMeta: ReadonlyArray<keyof ObjectMeta> = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds'];

/** What an update may not change; labels and the rest are re-checked on the new object. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, fieldPath = 'metadata'): FieldError[] {
  const errs = validateObjectMetaChange(meta, old, fieldPath);
  if (meta.labels) errs.push(...validateLabels(meta.labels, child(fieldPath, 'labels')));
  if (meta.annotations) errs.push(...validateAnnotations(meta.annotations, child(fieldPath, 'annotations')));
  if (meta.ownerReferences) errs.push(...validateOwnerReferences(meta.ownerReferences, child(fieldPath, 'ownerReferences')));
  if (meta.managedFields) errs.push(...validateManagedFields(meta.managedFields, child(fieldPath, 'managedFields')));
  return errs;
}

/**
 * validateObjectMetaUpdate without its re-check of the new object's labels, annotations,
 * owner references and managed fields: for a caller that has run validateObjectMeta on the
 * same object first and drops exact repeats (dedupe), to which that re-check adds only repeats.
 */
export function validateObjectMetaChange(meta: ObjectMeta, old: ObjectMeta, fieldPath = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp) {
    const before = new Set(old.finalizers ?? []);
    const added = [...new Set((meta.finalizers ?? []).filter((f) => !before.has(f)))].sort();
    if (added.length > 0) {
      errs.push(forbidden(child(fieldPath, 'finalizers'),
        `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`));
    }
  }
  if (!meta.resourceVersion) {
    errs.push(invalid(child(fieldPath, 'resourceVersion'), meta.resourceVersion ?? '', 'must be specified for an update'));
  }
  if ((meta.generation ?? 0) < (old.generation ?? 0)) {
    errs.push(invalid(child(fieldPath, 'generation'), meta.generation ?? 0, 'must not be decremented'));
  }
  // The path only for a field that changed: every update checks all six.
  for (const f of immutableMeta) {
    if (!deepEqual(meta[f] ?? null, old[f] ?? null)) errs.push(...validateImmutableField(meta[f] ?? null, old[f] ?? null, child(fieldPath, f)));
  }
  return errs;
}

export function validateImmutableField(value: unknown, old: unknown, fieldPath: string): FieldError[] {
  return deepEqual(value, old) ? [] : [invalid(fieldPath, value, FieldImmutableErrorMsg)];
}

export function validateNonnegativeField(value: number, fieldPath: string): FieldError[] {
  return value < 0 ? [invalid(fieldPath, value, IsNegativeErrorMsg)] : [];
}

export function validateQualifiedName(value: string, fieldPath: string): FieldError[] {
  return isQualifiedName(value).map((msg) => invalid(fieldPath, value, msg));
}

export function validateLabelName(name: string, fieldPath: string): FieldError[] {
  return validateQualifiedName(name, fieldPath);
}

export function validateLabels(labels: Record<string, string> | undefined | null, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, fieldPath));
    const value = typeof v === 'string' ? v : String(v);
    for (const msg of isValidLabelValue(value)) errs.push(invalid(fieldPath, value, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: Record<string, string> | undefined | null, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    // Keys are qualified names, except that case does not matter.
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(fieldPath, k, msg));
    total += byteLength(k) + byteLength(typeof v === 'string' ? v : String(v));
  }
  if (total > TotalAnnotationSizeLimitB) errs.push(tooLong(fieldPath, TotalAnnotationSizeLimitB));
  return errs;
}

function validateOwnerReference(ref: OwnerReference, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const gv = parseApiVersion(ref.apiVersion ?? '');
  if (!gv.version) errs.push(invalid(child(fieldPath, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
  if (!ref.kind) errs.push(invalid(child(fieldPath, 'kind'), ref.kind ?? '', 'kind must not be empty'));
  if (!ref.name) errs.push(invalid(child(fieldPath, 'name'), ref.name ?? '', 'name must not be empty'));
  if (!ref.uid) errs.push(invalid(child(fieldPath, 'uid'), ref.uid ?? '', 'uid must not be empty'));
  // Core Events are short-lived and never owners (upstream's BannedOwners).
  if (gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
    errs.push(invalid(fieldPath, ref, '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

export function validateOwnerReferences(refs: OwnerReference[] | undefined | null, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, fieldPath));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(invalid(fieldPath, refs,
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

export function validateFinalizerName(name: string, fieldPath: string): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(fieldPath, name, msg));
}

/** Core-group rule: unqualified finalizer names must be standard ones. */
export function validateKubeFinalizerName(name: string, fieldPath: string): FieldError[] {
  if (name.split('/').length === 1 && !standardFinalizers.has(name)) {
    return [invalid(fieldPath, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

export function validateFinalizers(finalizers: string[] | undefined | null, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) errs.push(...validateFinalizerName(f, fieldPath));
  if (list.includes(FinalizerOrphanDependents) && list.includes(FinalizerDeleteDependents)) {
    errs.push(invalid(fieldPath, list,
      `finalizer ${FinalizerOrphanDependents} and ${FinalizerDeleteDependents} cannot be both set`));
  }
  return errs;
}

export const FieldManagerMaxLength = 128;
const MaxSubresourceNameLength = 256;

export function validateManagedFields(entries: ObjectMeta['managedFields'] | null, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    // Nearly every entry is one this server wrote: its paths are built only when it may be wrong.
    if (plainEntry(e)) return;
    const p = index(fieldPath, i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push(invalid(child(p, 'operation'), e.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') {
      errs.push(invalid(child(p, 'fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(e.manager ?? '', child(p, 'manager')));
    if (byteLength(e.subresource ?? '') > MaxSubresourceNameLength) {
      errs.push(tooLong(child(p, 'subresource'), MaxSubresourceNameLength));
    }
  });
  return errs;
}

/** An entry no check below can fault: a known operation and fields type, short printable ASCII names. */
function plainEntry(e: NonNullable<ObjectMeta['managedFields']>[number]): boolean {
  return (e.operation === 'Apply' || e.operation === 'Update') && (!e.fieldsType || e.fieldsType === 'FieldsV1')
    && plainName(e.manager ?? '', FieldManagerMaxLength) && plainName(e.subresource ?? '', MaxSubresourceNameLength);
}

/** ASCII printable and, being ASCII, as many bytes as characters. */
function plainName(s: string, max: number): boolean {
  return s.length <= max && isPrintableAscii(s);
}

/**
 * Upstream's ValidateFieldManager, for a write's fieldManager and every managedFields
 * entry's manager alike: too long, and one error per character Go's unicode.IsPrint refuses
 * (its %#U, which for such a character is only U+XXXX, at its byte position).
 */
export function validateFieldManager(manager: string, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (byteLength(manager) > FieldManagerMaxLength) errs.push(tooLong(fieldPath, FieldManagerMaxLength));
  if (isPrintableAscii(manager)) return errs;
  let pos = 0;
  for (const ch of manager) {
    if (!isPrintable(ch)) {
      const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(fieldPath, manager, `invalid character U+${hex} (at position ${pos})`));
    }
    pos += byteLength(ch);
  }
  return errs;
}
