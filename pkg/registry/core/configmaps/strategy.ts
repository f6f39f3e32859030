// ConfigMap: key format, 1 MiB total, and the `immutable` switch.
import type { FieldError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { byteLength, forbidden, invalid, key, tooLong } from '../../../apis/validation/field.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

/** Shared by ConfigMaps and Secrets (upstream's MaxSecretSize). */
export const MaxDataSize = 1024 * 1024;
export const ImmutableFieldMsg = 'field is immutable when `immutable` is set';

export function stringMap(v: unknown): Record<string, string> {
  if (!isPlainObject(v)) return {};
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stringValue(x)]));
}

function stringValue(x: unknown): string {
  return typeof x === 'string' ? x : String(x ?? '');
}

/** Size of a base64 field's decoded bytes, which is what upstream counts. */
export function decodedLength(b64: string): number {
  return Buffer.from(b64, 'base64').length;
}

export class ConfigMapStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain });
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    // Read in place (stringMap's values), each key's path built only for an error: every
    // ConfigMap write runs this.
    const data = isPlainObject(obj.data) ? obj.data : {};
    const binary = isPlainObject(obj.binaryData) ? obj.binaryData : {};
    let total = 0;
    for (const k of Object.keys(data)) {
      for (const msg of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, msg));
      // Own keys only: `in` also finds Object.prototype's (a data key named `constructor`).
      if (Object.prototype.hasOwnProperty.call(binary, k)) errs.push(invalid(key('data', k), k, 'duplicate of key present in binaryData'));
      total += byteLength(stringValue(data[k]));
    }
    for (const k of Object.keys(binary)) {
      for (const msg of isConfigMapKey(k)) errs.push(invalid(key('binaryData', k), k, msg));
      total += decodedLength(stringValue(binary[k]));
    }
    // Upstream names the whole object with an empty path, which renders as "[]".
    if (total > MaxDataSize) errs.push(tooLong('[]', MaxDataSize));
    return errs;
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    const errs: FieldError[] = [];
    if (old.immutable === true) {
      if (obj.immutable !== true) errs.push(forbidden('immutable', ImmutableFieldMsg));
      if (!mapsEqual(obj.data, old.data)) errs.push(forbidden('data', ImmutableFieldMsg));
      if (!mapsEqual(obj.binaryData, old.binaryData)) errs.push(forbidden('binaryData', ImmutableFieldMsg));
    }
    return [...errs, ...this.validateObject(obj)];
  }
}

/** Go compares nil and empty maps as different; JSON cannot tell them apart after a round trip, so we don't. */
function mapsEqual(a: unknown, b: unknown): boolean {
  return deepEqual(stringMap(a), stringMap(b));
}
