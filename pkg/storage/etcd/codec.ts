// How objects sit in etcd: JSON without metadata.resourceVersion (the mod revision is
// the version, so storing it would only let the two disagree).
import type { KubeObject } from '../../runtime/object.js';

export function encodeForStorage(obj: KubeObject): Buffer {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  return Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
}

export function decodeFromStorage(value: Buffer, modRevision: string | number): KubeObject {
  const obj = JSON.parse(value.toString('utf8')) as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(modRevision) };
  return obj;
}
