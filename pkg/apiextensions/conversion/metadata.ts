// What a conversion webhook may change in metadata: only labels and annotations. The
// identity fields must come back as sent (validateConvertedObject) and everything else
// is taken from the original (restoreObjectMeta), as upstream's webhook converter does.
import { validateAnnotations, validateLabels } from '../../apis/validation/objectmeta.js';
import { fieldErrorMessage, type FieldError } from '../../runtime/errors.js';
import { deepCopy, isPlainObject, type KubeObject } from '../../runtime/object.js';
import { goTypeName } from './errors.js';

function metaString(obj: Record<string, unknown>, field: string): string {
  const meta = obj.metadata;
  const v = isPlainObject(meta) ? meta[field] : undefined;
  return typeof v === 'string' ? v : '';
}

/** Upstream's check that kind, name, namespace and uid survived; the error text, or undefined. */
export function identityChange(original: KubeObject, converted: Record<string, unknown>): string | undefined {
  const kind = (o: Record<string, unknown>) => (typeof o.kind === 'string' ? o.kind : '');
  if (kind(original) !== kind(converted)) return `must have the same kind: ${kind(original)} != ${kind(converted)}`;
  for (const [field, word] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
    const a = metaString(original, field);
    const b = metaString(converted, field);
    if (a !== b) return `must have the same ${word}: ${a} != ${b}`;
  }
  return undefined;
}

export class MetadataError extends Error {}

/**
 * The converted object with the original's metadata, except labels and annotations,
 * which are the webhook's (validated when they differ). Throws MetadataError in
 * upstream's words when the webhook's metadata is unusable.
 */
export function restoreObjectMeta(original: KubeObject, converted: Record<string, unknown>): KubeObject {
  if (!('metadata' in converted)) throw new MetadataError('missing metadata in converted object');
  const answered = converted.metadata;
  if (!isPlainObject(answered)) throw new MetadataError(`invalid metadata of type ${goTypeName(answered)} in converted object`);
  const meta: Record<string, unknown> = isPlainObject(original.metadata) ? deepCopy(original.metadata) as Record<string, unknown> : {};
  for (const field of ['labels', 'annotations'] as const) {
    const theirs = answered[field];
    if (theirs === undefined || theirs === null) {
      delete meta[field];
      continue;
    }
    if (!isPlainObject(theirs)) throw new MetadataError(`invalid metadata.${field} of type ${goTypeName(theirs)} in converted object`);
    const ours = meta[field];
    if (ours !== undefined && ours !== null && !isPlainObject(ours)) {
      throw new MetadataError(`invalid metadata.${field} of type ${goTypeName(ours)} in original object`);
    }
    const before = (ours ?? {}) as Record<string, unknown>;
    let changed = Object.keys(before).length !== Object.keys(theirs).length;
    for (const [k, v] of Object.entries(theirs)) {
      if (typeof v !== 'string') throw new MetadataError(`metadata.${field}[${k}] must be a string, but is ${goTypeName(v)} in converted object`);
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const strings = theirs as Record<string, string>;
      // Upstream names the annotations path in the singular here.
      const errs = field === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
      if (errs.length > 0) throw new MetadataError(aggregate(errs));
    }
    meta[field] = theirs;
  }
  return { ...converted, metadata: meta } as KubeObject;
}

/** Go's ErrorList.ToAggregate().Error(): one message, or the distinct ones in brackets. */
function aggregate(errs: FieldError[]): string {
  const msgs = [...new Set(errs.map((e) => fieldErrorMessage(e)))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
