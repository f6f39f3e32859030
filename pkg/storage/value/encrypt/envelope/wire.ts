// The few protobuf messages of upstream's KMS plugin API (k8s.io/kms v1beta1 and v2) and
// the KMS v2 EncryptedObject, described by field number and type and (de)coded with
// protobufjs' reader and writer. Map fields are map<string, bytes>, written in key order.
import protobuf from 'protobufjs/minimal.js';

type FieldType = 'string' | 'bytes' | 'map' | 'enum';
export type MessageSpec = Record<string, [number, FieldType]>;
export type Message = Record<string, string | Buffer | number | Map<string, Buffer> | undefined>;

export function encodeMessage(spec: MessageSpec, msg: Message): Buffer {
  const w = protobuf.Writer.create();
  for (const [name, [no, type]] of Object.entries(spec).sort((a, b) => a[1][0] - b[1][0])) {
    const v = msg[name];
    if (v === undefined) continue;
    if (type === 'string' && typeof v === 'string' && v !== '') w.uint32((no << 3) | 2).string(v);
    else if (type === 'bytes' && Buffer.isBuffer(v) && v.length > 0) w.uint32((no << 3) | 2).bytes(v);
    else if (type === 'enum' && typeof v === 'number' && v !== 0) w.uint32(no << 3).int32(v);
    else if (type === 'map' && v instanceof Map) {
      for (const k of [...v.keys()].sort()) {
        w.uint32((no << 3) | 2).fork().uint32(10).string(k).uint32(18).bytes(v.get(k)!).ldelim();
      }
    }
  }
  return Buffer.from(w.finish());
}

export function decodeMessage(spec: MessageSpec, data: Uint8Array): Message {
  const byNo = new Map(Object.entries(spec).map(([name, [no, type]]) => [no, { name, type }]));
  const out: Message = {};
  for (const [name, [, type]] of Object.entries(spec)) {
    out[name] = type === 'string' ? '' : type === 'bytes' ? Buffer.alloc(0) : type === 'enum' ? 0 : new Map<string, Buffer>();
  }
  const r = protobuf.Reader.create(data);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const field = byNo.get(tag >>> 3);
    if (!field) { r.skipType(tag & 7); continue; }
    if (field.type === 'string') out[field.name] = r.string();
    else if (field.type === 'bytes') out[field.name] = Buffer.from(r.bytes());
    else if (field.type === 'enum') out[field.name] = r.int32();
    else {
      const entry = protobuf.Reader.create(r.bytes());
      let key = '';
      let value = Buffer.alloc(0);
      while (entry.pos < entry.len) {
        const t = entry.uint32();
        if (t >>> 3 === 1) key = entry.string();
        else if (t >>> 3 === 2) value = Buffer.from(entry.bytes());
        else entry.skipType(t & 7);
      }
      (out[field.name] as Map<string, Buffer>).set(key, value);
    }
  }
  return out;
}

/** k8s.io/kms/apis/v1beta1 */
export const v1 = {
  service: 'v1beta1.KeyManagementService',
  VersionRequest: { version: [1, 'string'] },
  VersionResponse: { version: [1, 'string'], runtime_name: [2, 'string'], runtime_version: [3, 'string'] },
  DecryptRequest: { version: [1, 'string'], cipher: [2, 'bytes'] },
  DecryptResponse: { plain: [1, 'bytes'] },
  EncryptRequest: { version: [1, 'string'], plain: [2, 'bytes'] },
  EncryptResponse: { cipher: [1, 'bytes'] },
} satisfies Record<string, MessageSpec | string>;

/** k8s.io/kms/apis/v2 (the service 1.28 calls; v2beta1 plugins answer on the same name). */
export const v2 = {
  service: 'v2.KeyManagementService',
  StatusRequest: {},
  StatusResponse: { version: [1, 'string'], healthz: [2, 'string'], key_id: [3, 'string'] },
  DecryptRequest: { ciphertext: [1, 'bytes'], uid: [2, 'string'], key_id: [3, 'string'], annotations: [4, 'map'] },
  DecryptResponse: { plaintext: [1, 'bytes'] },
  EncryptRequest: { plaintext: [1, 'bytes'], uid: [2, 'string'] },
  EncryptResponse: { ciphertext: [1, 'bytes'], key_id: [2, 'string'], annotations: [3, 'map'] },
} satisfies Record<string, MessageSpec | string>;

/** k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2 EncryptedObject, what etcd holds after the prefix. */
export const encryptedObject: MessageSpec = {
  encryptedData: [1, 'bytes'], keyID: [2, 'string'], encryptedDEKSource: [3, 'bytes'], annotations: [4, 'map'], encryptedDEKSourceType: [5, 'enum'],
};

/** EncryptedDEKSourceType */
export const aesGcmKey = 0;
export const hkdfSha256XNonceAesGcmSeed = 1;
