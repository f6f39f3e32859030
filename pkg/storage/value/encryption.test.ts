// Encryption at rest against upstream's bytes: the values upstream v1.28 wrote with known
// keys decrypt through our codec to the objects it served, and what each provider writes
// is opened by a reference decryption written from upstream's documented layout (not by
// our transformers).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import nacl from 'tweetnacl';
import { EncryptionAtRest } from './encryption-at-rest.js';
import { KMSv2Provider } from './encrypt/envelope/kms-v2.js';
import { readStored, sealStored } from '../etcd/stored-value.js';
import { encodeForStorage } from '../etcd/codec.js';
import { startKmsPlugin, kmsOpen } from '../../../test/harness/kms-plugin.js';
import type { KubeObject } from '../../runtime/object.js';

const fixtures = process.env.ENCRYPTION_FIXTURES ?? join(process.cwd(), '..', 'shared', 'fixtures', 'encryption');
const key1 = Buffer.from('0123456789abcdef0123456789abcdef');
const key2 = Buffer.from('fedcba9876543210fedcba9876543210');
const resourceOf = (key: string) => ({ group: '', resource: key.split('/')[2] });
const log = { info: () => {}, error: () => {} };
const dir = mkdtempSync(join(tmpdir(), 'enc-test-'));

function configFile(name: string, yaml: string): string {
  const p = join(dir, name);
  writeFileSync(p, yaml);
  return p;
}

function aesConfig(provider: string, keys: Array<[string, Buffer]>, extra = ''): string {
  return `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets, configmaps]
    providers:
      - ${provider}:
          keys:
${keys.map(([n, k]) => `            - name: ${n}\n              secret: ${k.toString('base64')}`).join('\n')}
${extra}`;
}

const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default', uid: 'u-1' }, data: { password: 'aHVudGVyMg==' }, type: 'Opaque' } as KubeObject;
const keyOf = Buffer.from('/registry/secrets/default/s');

describe('encryption at rest: upstream v1.28 fixtures', () => {
  for (const provider of ['aescbc', 'aesgcm', 'secretbox']) {
    for (const [file, resource] of [['secret', 'secrets'], ['configmap', 'configmaps']]) {
      it(`${provider}: ${file}.bin decrypts to ${file}.json through our codec`, async () => {
        const enc = await EncryptionAtRest.start({ path: join(fixtures, provider, 'config.yaml'), reload: false, resourceOf, log });
        try {
          const value = readFileSync(join(fixtures, provider, `${file}.bin`));
          expect(value.subarray(0, `k8s:enc:${provider}:v1:key1:`.length).toString()).to.equal(`k8s:enc:${provider}:v1:key1:`);
          const want = JSON.parse(readFileSync(join(fixtures, provider, `${file}.json`), 'utf8')) as KubeObject;
          const key = Buffer.from(`/registry/${resource}/default/enc-fixture`);
          const { obj, stale } = await readStored(enc, { key, value }, want.metadata.resourceVersion!);
          expect(obj).to.deep.equal(want);
          expect(stale).to.equal(false);
        } finally { enc.stop(); }
      });
    }
  }

  it('aesgcm binds the value to its etcd key: the same bytes under another key do not open', async () => {
    const enc = await EncryptionAtRest.start({ path: join(fixtures, 'aesgcm', 'config.yaml'), reload: false, resourceOf, log });
    try {
      const value = readFileSync(join(fixtures, 'aesgcm', 'secret.bin'));
      const err = await readStored(enc, { key: Buffer.from('/registry/secrets/default/other'), value }, 1).then(() => undefined, (e: Error) => e);
      expect(err?.message).to.equal('cipher: message authentication failed');
    } finally { enc.stop(); }
  });
});

describe('encryption at rest: round trips (ours writes, a reference decryption reads)', () => {
  const plain = encodeForStorage(secret, 'application/vnd.kubernetes.protobuf');

  async function written(yaml: string): Promise<Buffer> {
    const enc = await EncryptionAtRest.start({ path: configFile(`rt-${Math.random()}.yaml`, yaml), reload: false, resourceOf, log });
    try {
      const out = await sealStored(enc, keyOf, encodeForStorage(secret, 'application/vnd.kubernetes.protobuf'));
      // and ours reads it back
      expect((await readStored(enc, { key: keyOf, value: out }, 7)).obj.data).to.deep.equal(secret.data);
      return out;
    } finally { enc.stop(); }
  }

  function after(out: Buffer, prefix: string): Buffer {
    expect(out.subarray(0, prefix.length).toString()).to.equal(prefix);
    return out.subarray(prefix.length);
  }

  it('aescbc: 16-byte IV, then AES-256-CBC with PKCS#7', async () => {
    const body = after(await written(aesConfig('aescbc', [['key1', key1]])), 'k8s:enc:aescbc:v1:key1:');
    const d = createDecipheriv('aes-256-cbc', key1, body.subarray(0, 16));
    expect(Buffer.concat([d.update(body.subarray(16)), d.final()])).to.deep.equal(plain);
  });

  it('aesgcm: 12-byte nonce, then AES-256-GCM sealed with the etcd key as AAD', async () => {
    const body = after(await written(aesConfig('aesgcm', [['key1', key1]])), 'k8s:enc:aesgcm:v1:key1:');
    const d = createDecipheriv('aes-256-gcm', key1, body.subarray(0, 12));
    d.setAAD(keyOf);
    d.setAuthTag(body.subarray(body.length - 16));
    expect(Buffer.concat([d.update(body.subarray(12, body.length - 16)), d.final()])).to.deep.equal(plain);
  });

  it('secretbox: 24-byte nonce, then NaCl secretbox', async () => {
    const body = after(await written(aesConfig('secretbox', [['key1', key1]])), 'k8s:enc:secretbox:v1:key1:');
    const opened = nacl.secretbox.open(body.subarray(24), body.subarray(0, 24), key1);
    expect(opened && Buffer.from(opened)).to.deep.equal(plain);
  });

  it('kms v1: uint16 length, the plugin-encrypted DEK, then AES-GCM under the DEK', async () => {
    const plugin = await startKmsPlugin();
    try {
      const yaml = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - kms:\n          name: p1\n          endpoint: ${plugin.endpoint}\n`;
      const body = after(await written(yaml), 'k8s:enc:kms:v1:p1:');
      const n = body.readUInt16BE(0);
      const encDek = body.subarray(2, 2 + n);
      const nl = encDek.indexOf(10);
      const dek = kmsOpen(plugin.keys.get(encDek.subarray(0, nl).toString())!, encDek.subarray(nl + 1));
      const sealed = body.subarray(2 + n);
      const d = createDecipheriv('aes-256-gcm', dek, sealed.subarray(0, 12));
      d.setAAD(keyOf);
      d.setAuthTag(sealed.subarray(sealed.length - 16));
      expect(Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()])).to.deep.equal(plain);
    } finally { await plugin.stop(); }
  });

  it('kms v2: the EncryptedObject message (data, key ID, encrypted DEK, annotations)', async () => {
    const plugin = await startKmsPlugin({ keyId: 'kek-7' });
    try {
      const yaml = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - kms:\n          apiVersion: v2\n          name: p2\n          endpoint: ${plugin.endpoint}\n`;
      const fields = parseProto(after(await written(yaml), 'k8s:enc:kms:v2:p2:'));
      expect(fields.get(2)?.[0].toString()).to.equal('kek-7');
      expect(fields.get(5)).to.equal(undefined); // AES_GCM_KEY, proto3's zero value
      const annotation = parseProto(fields.get(4)![0]);
      expect(annotation.get(1)?.[0].toString()).to.equal('kms.test.k8s.io/plugin');
      const dek = kmsOpen(plugin.keys.get('kek-7')!, fields.get(3)![0]);
      const sealed = fields.get(1)![0];
      const d = createDecipheriv('aes-256-gcm', dek, sealed.subarray(0, 12));
      d.setAAD(keyOf);
      d.setAuthTag(sealed.subarray(sealed.length - 16));
      expect(Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()])).to.deep.equal(plain);
    } finally { await plugin.stop(); }
  });
});

/** A protobuf field: tag, then the varint or the length-delimited bytes (a reference writer). */
function protoField(field: number, value: Buffer | number): Buffer {
  const varint = (n: number) => { const out: number[] = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } out.push(n); return Buffer.from(out); };
  if (typeof value === 'number') return Buffer.concat([varint(field << 3), varint(value)]);
  return Buffer.concat([varint((field << 3) | 2), varint(value.length), value]);
}

describe('encryption at rest: KMS v2 values written with KMSv2KDF', () => {
  // No upstream fixture holds one (../shared/fixtures/encryption has aescbc, aesgcm and
  // secretbox only), so the value is built here from upstream's layout: EncryptedObject
  // with encryptedDEKSourceType HKDF_SHA256_XNONCE_AES_GCM_SEED (1) and the plugin-encrypted
  // 32-byte seed as encryptedDEKSource; encryptedData is a random 32-byte info, then
  // AES-256-GCM (12-byte nonce first, the etcd key as AAD) under HKDF-Expand(SHA-256,
  // seed, info) (expand only, no extract), as aes_extended_nonce.go writes it.
  const plain = encodeForStorage(secret, 'application/vnd.kubernetes.protobuf');
  const kdfValue = (kek: Buffer, key: Buffer): Buffer => {
    const seed = randomBytes(32);
    const wrapNonce = randomBytes(12);
    const w = createCipheriv('aes-256-gcm', kek, wrapNonce);
    const encryptedSeed = Buffer.concat([wrapNonce, w.update(seed), w.final(), w.getAuthTag()]);
    const info = randomBytes(32);
    const derived = createHmac('sha256', seed).update(info).update(Buffer.from([1])).digest();
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', derived, nonce);
    c.setAAD(key);
    const encryptedData = Buffer.concat([info, nonce, c.update(plain), c.final(), c.getAuthTag()]);
    const annotation = Buffer.concat([protoField(1, Buffer.from('kms.test.k8s.io/plugin')), protoField(2, Buffer.from('test'))]);
    return Buffer.concat([Buffer.from('k8s:enc:kms:v2:p2:'), protoField(1, encryptedData), protoField(2, Buffer.from('kek-3')),
      protoField(3, encryptedSeed), protoField(4, annotation), protoField(5, 1)]);
  };

  it('decrypts to the object, read as stale (a 1.28 writer without KMSv2KDF rewrites it with a DEK), and only under its own etcd key', async () => {
    const plugin = await startKmsPlugin({ keyId: 'kek-3' });
    const yaml = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - kms:\n          apiVersion: v2\n          name: p2\n          endpoint: ${plugin.endpoint}\n`;
    const enc = await EncryptionAtRest.start({ path: configFile('kdf.yaml', yaml), reload: false, resourceOf, log });
    try {
      const value = kdfValue(plugin.keys.get('kek-3')!, keyOf);
      const { obj, stale } = await readStored(enc, { key: keyOf, value }, 11);
      expect(obj.data).to.deep.equal(secret.data);
      expect(obj.metadata.uid).to.equal('u-1');
      expect(stale).to.equal(true);
      const err = await readStored(enc, { key: Buffer.from('/registry/secrets/default/other'), value }, 11).then(() => undefined, (e: Error) => e);
      expect(err?.message).to.equal('cipher: message authentication failed');
    } finally {
      enc.stop();
      await plugin.stop();
    }
  });
});

/** Length-delimited fields of a protobuf message by number (a reference reader, independent of ours). */
function parseProto(buf: Buffer): Map<number, Buffer[]> {
  const out = new Map<number, Buffer[]>();
  let i = 0;
  const varint = () => { let v = 0; let shift = 0; for (;;) { const b = buf[i++]; v += (b & 0x7f) * 2 ** shift; if (b < 0x80) return v; shift += 7; } };
  while (i < buf.length) {
    const tag = varint();
    if ((tag & 7) === 0) { out.set(tag >>> 3, [Buffer.from([varint()])]); continue; }
    const len = varint();
    out.set(tag >>> 3, [...(out.get(tag >>> 3) ?? []), buf.subarray(i, i + len)]);
    i += len;
  }
  return out;
}

describe('encryption at rest: providers and keys', () => {
  it('reads with every listed key, writes with the first, and marks reads by another key stale', async () => {
    const old = await EncryptionAtRest.start({ path: configFile('k1.yaml', aesConfig('aescbc', [['key1', key1]])), reload: false, resourceOf, log });
    const rotated = await EncryptionAtRest.start({ path: configFile('k21.yaml', aesConfig('aescbc', [['key2', key2], ['key1', key1]])), reload: false, resourceOf, log });
    try {
      const byOld = await sealStored(old, keyOf, encodeForStorage(secret, 'application/json'));
      const read = await readStored(rotated, { key: keyOf, value: byOld }, 3);
      expect(read.stale).to.equal(true);
      expect(read.obj.data).to.deep.equal(secret.data);
      const byNew = await sealStored(rotated, keyOf, encodeForStorage(secret, 'application/json'));
      expect(byNew.subarray(0, 23).toString()).to.equal('k8s:enc:aescbc:v1:key2:');
      expect((await readStored(rotated, { key: keyOf, value: byNew }, 4)).stale).to.equal(false);
      const err = await readStored(old, { key: keyOf, value: byNew }, 4).then(() => undefined, (e: Error) => e);
      expect(err?.message).to.equal('no matching key was found for the provided AES transformer');
    } finally { old.stop(); rotated.stop(); }
  });

  it('identity first writes plain and still reads encrypted values (stale); unconfigured resources pass through', async () => {
    const enc = await EncryptionAtRest.start({ path: configFile('k1.yaml', aesConfig('aescbc', [['key1', key1]])), reload: false, resourceOf, log });
    const yaml = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - identity: {}\n      - aescbc:\n          keys:\n            - name: key1\n              secret: ${key1.toString('base64')}\n`;
    const id = await EncryptionAtRest.start({ path: configFile('id.yaml', yaml), reload: false, resourceOf, log });
    try {
      const encrypted = await sealStored(enc, keyOf, encodeForStorage(secret, 'application/json'));
      expect(await readStored(id, { key: keyOf, value: encrypted }, 1).then((r) => r.stale)).to.equal(true);
      expect((await sealStored(id, keyOf, encodeForStorage(secret, 'application/json'))).toString()).to.equal(`${JSON.stringify(secret)}\n`);
      const plainMap = Buffer.from('{"kind":"ConfigMap"}');
      expect((await id.fromStorage(Buffer.from('/registry/configmaps/a/b'), plainMap)).data).to.deep.equal(plainMap);
      // aescbc alone cannot read a plain value: upstream's message
      const err = await enc.fromStorage(keyOf, Buffer.from(JSON.stringify(secret))).then(() => undefined, (e: Error) => e);
      expect(err?.message).to.equal('no matching prefix found');
    } finally { enc.stop(); id.stop(); }
  });

  it('resources by name, *.<group> and *.* choose the transformer', async () => {
    const yaml = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers: [{ aescbc: { keys: [{ name: a, secret: ${key1.toString('base64')} }] } }]
  - resources: ['*.apps']
    providers: [{ aesgcm: { keys: [{ name: b, secret: ${key1.toString('base64')} }] } }]
  - resources: ['*.*']
    providers: [{ secretbox: { keys: [{ name: c, secret: ${key1.toString('base64')} }] } }]
`;
    const groups: Record<string, string> = { secrets: '', deployments: 'apps', widgets: 'example.com' };
    const enc = await EncryptionAtRest.start({ path: configFile('wild.yaml', yaml), reload: false, resourceOf: (k) => ({ group: groups[k.split('/')[2]], resource: k.split('/')[2] }), log });
    try {
      const prefixOf = async (res: string) => (await enc.toStorage(Buffer.from(`/registry/${res}/ns/x`), Buffer.from('{}'))).subarray(0, 30).toString();
      expect(await prefixOf('secrets')).to.match(/^k8s:enc:aescbc:v1:a:/);
      expect(await prefixOf('deployments')).to.match(/^k8s:enc:aesgcm:v1:b:/);
      expect(await prefixOf('widgets')).to.match(/^k8s:enc:secretbox:v1:/);
    } finally { enc.stop(); }
  });

  it('a broken configuration is a start-up error with upstream\'s message', async () => {
    const start = (yaml: string) => EncryptionAtRest.start({ path: configFile(`bad-${Math.random()}.yaml`, yaml), reload: false, resourceOf, log }).then(() => '', (e: Error) => e.message);
    expect(await start(aesConfig('aescbc', [['key1', Buffer.from('short')]]))).to.equal(
      'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]');
    expect(await start(`apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: ['*.*']\n    providers: [{ identity: {} }]\n  - resources: [secrets]\n    providers: [{ identity: {} }]\n`)).to.equal(
      'error while building transformers: resource "secrets" is masked by earlier rule "*.*"');
    expect(await start(`apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers: [{ kms: { name: k, endpoint: 'tcp://127.0.0.1:1' } }]\n`)).to.equal(
      'error while parsing file: resources[0].providers[0].kms.endpoint: Invalid value: "tcp://127.0.0.1:1": unsupported scheme "tcp" for KMS provider, only unix is supported');
    expect(await start('')).to.match(/^error while parsing file: encryption provider configuration file ".*" is empty$/);
  });

  it('accepts the configuration as JSON too', async () => {
    const json = JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration',
      resources: [{ resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'k', secret: key1.toString('base64') }] } }, { identity: {} }] }] });
    const enc = await EncryptionAtRest.start({ path: configFile('c.json', json), reload: false, resourceOf, log });
    try {
      expect((await enc.toStorage(keyOf, Buffer.from('{}'))).subarray(0, 20).toString()).to.equal('k8s:enc:aesgcm:v1:k:');
    } finally { enc.stop(); }
  });
});

describe('encryption at rest: KMS v2 key ID rotation', () => {
  it('a new key ID from Status makes a new DEK; values under the old key ID still read, as stale', async () => {
    const plugin = await startKmsPlugin({ keyId: 'kek-a' });
    const provider = new KMSv2Provider(plugin.endpoint, 'rot', 2000);
    try {
      await provider.check();
      const before = await provider.transformToStorage(Buffer.from('hello'), keyOf);
      expect((await provider.transformFromStorage(before, keyOf)).stale).to.equal(false);
      const encrypts = plugin.calls.Encrypt;
      await provider.transformToStorage(Buffer.from('again'), keyOf);
      expect(plugin.calls.Encrypt).to.equal(encrypts); // the DEK is reused while the key ID holds
      plugin.rotate('kek-b');
      await provider.check();
      expect(plugin.calls.Encrypt).to.equal(encrypts + 1);
      const after = await provider.transformToStorage(Buffer.from('hello'), keyOf);
      expect(after.includes(Buffer.from('kek-b'))).to.equal(true);
      const old = await provider.transformFromStorage(before, keyOf);
      expect(old.data.toString()).to.equal('hello');
      expect(old.stale).to.equal(true);
      plugin.setHealthy(false);
      const err = await provider.check().then(() => undefined, (e: Error) => e);
      expect(err?.message).to.equal('kmsv2 Provider rot is not healthy, error: got unexpected healthz status: unhealthy');
    } finally {
      provider.close();
      await plugin.stop();
    }
  });
});
