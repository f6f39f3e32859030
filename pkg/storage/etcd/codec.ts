// How objects sit in etcd: upstream's encodings, without metadata.resourceVersion (the
// mod revision is the version, so storing it would only let the two disagree). Reads
// accept every encoding whatever the server writes, so a store written by upstream
// kube-apiserver, or by this server with another --storage-media-type, is served as is.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { withProperty, type KubeObject } from '../../runtime/object.js';
import { parseApiVersion } from '../../runtime/scheme.js';
import { canEncode, decodeObject, encodeObject, hasProtobufMagic } from '../../runtime/serializer/protobuf/envelope.js';
import { encodingsSurelyDiffer } from '../../runtime/serializer/protobuf/differ.js';
import { messageForKind } from '../../runtime/serializer/protobuf/schema.js';
import { goJson } from '../../runtime/serializer/json/go-escapes.js';

export type StorageMediaType = 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf';
export const storageMediaTypes: StorageMediaType[] = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/**
 * Upstream's extension servers (apiextensions-apiserver, kube-aggregator) store their
 * objects as JSON whatever --storage-media-type says; custom resources have no protobuf.
 */
const jsonOnlyGroups = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

/** A value that no codec can read; the key and the reason reach logs and clients. */
export class UndecodableValueError extends Error {}

export function encodeForStorage(obj: KubeObject, mediaType: StorageMediaType = 'application/json'): Buffer {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  const stored = { ...obj, metadata: meta };
  if (mediaType === 'application/vnd.kubernetes.protobuf' && canEncode(obj.apiVersion ?? '', obj.kind ?? '')
    && !jsonOnlyGroups.has(parseApiVersion(obj.apiVersion ?? '').group)) {
    return encodeObject(stored);
  }
  if (mediaType === 'application/yaml') return Buffer.from(stringifyYaml(stored));
  // As upstream's storage codec writes JSON (Go's json.Encoder): its escapes, and a newline after the document.
  return Buffer.from(`${goJson(stored)}\n`);
}

/** What encodeForStorage leaves out of every object's protobuf. */
const notStored = new Map([['k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta', new Set(['resourceVersion'])]]);

/**
 * Whether `obj` encodes for storage to `bytes`, the encoding of `written`. An update with
 * the watch cache's copy (which keeps no bytes) compared them by encoding the copy again;
 * when a string the two objects set differently already says no, that is not needed.
 */
export function encodesTo(obj: KubeObject, bytes: Buffer, written: KubeObject, mediaType: StorageMediaType): boolean {
  if (mediaType === 'application/vnd.kubernetes.protobuf' && obj.apiVersion === written.apiVersion && obj.kind === written.kind) {
    const message = messageForKind(obj.apiVersion ?? '', obj.kind ?? '');
    if (message && encodingsSurelyDiffer(message, obj, written, notStored)) return false;
  }
  return encodeForStorage(obj, mediaType).equals(bytes);
}

export function decodeFromStorage(value: Buffer, modRevision: string | number): KubeObject {
  const obj = decodeValue(value);
  obj.metadata = withProperty(obj.metadata ?? {}, 'resourceVersion', String(modRevision));
  return obj;
}

function decodeValue(value: Buffer): KubeObject {
  try {
    if (hasProtobufMagic(value)) return decodeObject(value) as KubeObject;
    if (value[0] === 0x7b) return JSON.parse(value.toString('utf8')) as KubeObject;
    const doc = parseYaml(value.toString('utf8')) as unknown;
    if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) return doc as KubeObject;
    throw new Error('not a JSON, YAML or protobuf object');
  } catch (err) {
    throw new UndecodableValueError((err as Error).message);
  }
}
