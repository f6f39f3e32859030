// A KMS plugin for tests: upstream's plugin API (k8s.io/kms v1beta1 and v2) served over
// gRPC on a unix socket, with local AES-256-GCM keys standing in for a cloud KMS. The
// key ID can be rotated (old keys still decrypt) and the plugin made unhealthy, so tests
// see the server's DEK rotation, stale reads and health checks.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import grpc from '@grpc/grpc-js';
import { decodeMessage, encodeMessage, v1, v2, type Message, type MessageSpec } from '../../pkg/storage/value/encrypt/envelope/wire.js';

export interface KmsPlugin {
  /** `unix:///.../kms.sock`, the configuration's endpoint. */
  endpoint: string;
  /** Calls by method name ("Encrypt", "Decrypt", "Status", "Version"). */
  calls: Record<string, number>;
  keyId: string;
  rotate(newKeyId: string): void;
  setHealthy(healthy: boolean): void;
  stop(): Promise<void>;
}

function seal(key: Buffer, plain: Buffer): Buffer {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([nonce, body, c.getAuthTag()]);
}

export function kmsOpen(key: Buffer, sealed: Buffer): Buffer {
  const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()]);
}

export async function startKmsPlugin(opts: { keyId?: string } = {}): Promise<KmsPlugin & { keys: Map<string, Buffer> }> {
  const dir = mkdtempSync(join(tmpdir(), 'kms-plugin-'));
  const socket = join(dir, 'kms.sock');
  const keys = new Map<string, Buffer>();
  let keyId = opts.keyId ?? 'key-1';
  keys.set(keyId, randomBytes(32));
  let healthy = true;
  const calls: Record<string, number> = {};
  const server = new grpc.Server();

  type Handler = (req: Message) => Message;
  const service = (name: string, methods: Record<string, [MessageSpec, MessageSpec, Handler]>) => {
    const definition: Record<string, grpc.MethodDefinition<Message, Message>> = {};
    const impl: grpc.UntypedServiceImplementation = {};
    for (const [method, [reqSpec, resSpec, handle]] of Object.entries(methods)) {
      definition[method] = {
        path: `/${name}/${method}`, requestStream: false, responseStream: false,
        requestSerialize: (m: Message) => encodeMessage(reqSpec, m), requestDeserialize: (b: Buffer) => decodeMessage(reqSpec, b),
        responseSerialize: (m: Message) => encodeMessage(resSpec, m), responseDeserialize: (b: Buffer) => decodeMessage(resSpec, b),
      };
      impl[method] = (call: grpc.ServerUnaryCall<Message, Message>, callback: grpc.sendUnaryData<Message>) => {
        calls[method] = (calls[method] ?? 0) + 1;
        try {
          callback(null, handle(call.request));
        } catch (err) {
          callback({ code: grpc.status.INTERNAL, details: (err as Error).message } as grpc.ServiceError, null);
        }
      };
    }
    server.addService(definition, impl);
  };
  const unavailable = () => { if (!healthy) throw new Error('plugin is unhealthy'); };
  // The key ID travels inside the v1 ciphertext (v1 has no key ID field).
  const v1Seal = (plain: Buffer) => Buffer.concat([Buffer.from(`${keyId}\n`), seal(keys.get(keyId)!, plain)]);
  const v1Open = (cipher: Buffer) => {
    const nl = cipher.indexOf(10);
    const key = keys.get(cipher.subarray(0, nl).toString());
    if (!key) throw new Error('unknown key');
    return kmsOpen(key, cipher.subarray(nl + 1));
  };
  service(v1.service, {
    Version: [v1.VersionRequest, v1.VersionResponse, () => ({ version: 'v1beta1', runtime_name: 'test-kms', runtime_version: '0.1.0' })],
    Encrypt: [v1.EncryptRequest, v1.EncryptResponse, (r) => { unavailable(); return { cipher: v1Seal(r.plain as Buffer) }; }],
    Decrypt: [v1.DecryptRequest, v1.DecryptResponse, (r) => { unavailable(); return { plain: v1Open(r.cipher as Buffer) }; }],
  });
  service(v2.service, {
    Status: [v2.StatusRequest, v2.StatusResponse, () => ({ version: 'v2', healthz: healthy ? 'ok' : 'unhealthy', key_id: keyId })],
    Encrypt: [v2.EncryptRequest, v2.EncryptResponse, (r) => {
      unavailable();
      return { ciphertext: seal(keys.get(keyId)!, r.plaintext as Buffer), key_id: keyId, annotations: new Map([['kms.test.k8s.io/plugin', Buffer.from('test')]]) };
    }],
    Decrypt: [v2.DecryptRequest, v2.DecryptResponse, (r) => {
      unavailable();
      const key = keys.get(r.key_id as string);
      if (!key) throw new Error(`unknown key ID ${String(r.key_id)}`);
      return { plaintext: kmsOpen(key, r.ciphertext as Buffer) };
    }],
  });
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  return {
    endpoint: `unix://${socket}`, calls, keys,
    get keyId() { return keyId; },
    rotate(next: string) { keyId = next; if (!keys.has(next)) keys.set(next, randomBytes(32)); },
    setHealthy(h: boolean) { healthy = h; },
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => { rmSync(dir, { recursive: true, force: true }); resolve(); })),
  };
}
