// An object version the watch cache keeps only for its history (a watch resuming from an
// earlier revision, a continue page read at one), held as its JSON text rather than
// decoded. Why: at 1,000 nodes the history of the last 75 s (upstream's sizing) was about
// a quarter of a replica's heap objects, a hundred or more per pod version, and every
// major collection marked them all again; a string is one object with no pointers for the
// collector to follow. Such versions are read rarely, and decoded again when they are.
// The text is the value etcd sent when the cache has it (a copy costs about a microsecond,
// where encoding a pod again costs 16-30), otherwise JSON, which round-trips any object
// exactly whatever encoding it was read from.
import type { KubeObject } from '../../runtime/object.js';
import { markShared } from '../../runtime/serializer/shared-encodings.js';
import { decodeFromStorage } from '../etcd/codec.js';

export class ColdVersion {
  /**
   * `text`: the object's JSON, or with `storedAt` its value in etcd (one byte a character)
   * at that mod revision. `fields`: the cache's indexed fields and this version's values,
   * [field, value, ...], read while it was decoded, so a watch selecting on one needs no
   * decode to tell whether the version concerns it.
   */
  constructor(readonly text: string, readonly storedAt: string | undefined, private readonly fields: readonly string[] | undefined) {}

  /** The version's value of an indexed field, if it was read when the version was frozen. */
  field(name: string): string | undefined {
    const f = this.fields;
    if (f) for (let i = 0; i < f.length; i += 2) if (f[i] === name) return f[i + 1];
    return undefined;
  }
}

/** A version the cache either still holds decoded (its key's current one) or has frozen. */
export type Version = KubeObject | ColdVersion;

export function freeze(obj: KubeObject, fields?: string[]): ColdVersion {
  return new ColdVersion(JSON.stringify(obj), undefined, fields);
}

/**
 * The version decoded (a new shared object each time for a cold one); `resourceVersion`
 * replaces its own (a deletion reports the last version at the deletion's revision).
 */
export function thaw(v: Version, resourceVersion?: string): KubeObject {
  if (!(v instanceof ColdVersion)) {
    return resourceVersion === undefined ? v : { ...v, metadata: { ...v.metadata, resourceVersion } };
  }
  if (v.storedAt !== undefined) return markShared(decodeFromStorage(Buffer.from(v.text, 'latin1'), resourceVersion ?? v.storedAt));
  const obj = JSON.parse(v.text) as KubeObject;
  if (resourceVersion !== undefined) obj.metadata = { ...obj.metadata, resourceVersion };
  return markShared(obj);
}

export function thawed(v: Version | undefined): KubeObject | undefined {
  return v === undefined ? undefined : thaw(v);
}
