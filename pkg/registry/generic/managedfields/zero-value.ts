// The value a created object's fields are compared with to tell what the create added.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { decodeBytes } from '../../../runtime/serializer/protobuf/codec.js';
import { messageForKind } from '../../../runtime/serializer/protobuf/schema.js';
import { deepFreeze } from '../../../util/deep-freeze.js';

const zeroValues = new Map<string, KubeObject>();

/**
 * What a new object is compared with on create: upstream compares with the kind's Go zero
 * value, in which value structs exist (a Deployment's spec.template.spec) and nil slices
 * are null, so only what the request adds below them counts as added. The protobuf
 * descriptors know the Go shape; kinds without them start from their empty top-level structs.
 */
export function zeroValueOf(apiVersion: string, kind: string, obj: KubeObject): KubeObject {
  const message = messageForKind(apiVersion, kind);
  if (message) {
    // Decoded once per kind (every create compared with it), frozen: only read.
    let zero = zeroValues.get(message);
    if (!zero) zeroValues.set(message, zero = deepFreeze(decodeBytes(new Uint8Array(0), message) as KubeObject));
    return zero;
  }
  const zero: KubeObject = { metadata: {} };
  for (const [k, v] of Object.entries(obj)) {
    if (k !== 'metadata' && isPlainObject(v) && Object.keys(v).length === 0) zero[k] = {};
  }
  return zero;
}
