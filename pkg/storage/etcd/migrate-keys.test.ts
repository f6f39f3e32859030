import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { testEtcdClient, uniquePrefix } from '../../../test/harness/index.js';
import { EncryptionAtRest } from '../value/encryption-at-rest.js';
import { migrateKeyPrefixes } from './migrate-keys.js';

const rbac = 'rbac.authorization.k8s.io';
/** Roles live at <prefix>/roles/ now and at <prefix>/rbac.authorization.k8s.io/roles/ before. */
const resourceOf = (key: string) => (/\/roles\//.test(key) ? { group: rbac, resource: 'roles' } : undefined);
const log = { info: () => {}, error: () => {} };

function config(provider: string, secret: string): string {
  return `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [roles.${rbac}]
    providers:
      - ${provider}:
          keys:
            - name: key1
              secret: ${Buffer.from(secret).toString('base64')}
`;
}

describe('moving group-qualified keys of encrypted values', function () {
  this.timeout(30_000);
  let client: Etcd3;
  let dir: string;
  const encryption: EncryptionAtRest[] = [];
  const start = async (provider: string, secret: string) => {
    const path = join(dir, `${provider}-${encryption.length}.yaml`);
    writeFileSync(path, config(provider, secret));
    const e = await EncryptionAtRest.start({ path, reload: false, resourceOf, log });
    encryption.push(e);
    return e;
  };

  before(async () => {
    client = await testEtcdClient();
    dir = mkdtempSync(join(tmpdir(), 'migrate-keys-'));
  });
  after(() => {
    for (const e of encryption) e.stop();
    client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an aesgcm value (bound to its etcd key) is decrypted under the old key and encrypted under the new one', async () => {
    const enc = await start('aesgcm', '0123456789abcdef0123456789abcdef');
    const prefix = uniquePrefix('migrate-enc');
    const from = Buffer.from(`${prefix}/${rbac}/roles/team/r1`);
    const to = Buffer.from(`${prefix}/roles/team/r1`);
    const plain = Buffer.from('{"kind":"Role"}');
    const sealed = await enc.toStorage(from, plain);
    expect(sealed.subarray(0, 'k8s:enc:aesgcm:v1:key1:'.length).toString()).to.equal('k8s:enc:aesgcm:v1:key1:');
    // The reason: the raw bytes copied to the new key do not decrypt there.
    let copied: unknown;
    await enc.fromStorage(to, sealed).catch((e: unknown) => { copied = e; });
    expect(copied).to.be.instanceOf(Error);
    await client.put(from).value(sealed);
    const moves = [{ from: `${prefix}/${rbac}/roles/`, to: `${prefix}/roles/` }];
    const res = await migrateKeyPrefixes(client, moves, enc);
    expect(res).to.deep.equal({ moved: 1, refused: [] });
    expect(await client.get(from.toString()).buffer()).to.equal(null);
    const stored = (await client.get(to.toString()).buffer())!;
    expect(stored.subarray(0, 'k8s:enc:aesgcm:v1:key1:'.length).toString()).to.equal('k8s:enc:aesgcm:v1:key1:');
    expect((await enc.fromStorage(to, stored)).data.toString()).to.equal(plain.toString());
  });

  it('without a configuration that decrypts it, an encrypted value stays under its old key with the reason; plain values still move', async () => {
    const enc = await start('aesgcm', '0123456789abcdef0123456789abcdef');
    const other = await start('aesgcm', 'fedcba9876543210fedcba9876543210');
    const prefix = uniquePrefix('migrate-refuse');
    const oldKey = (n: string) => `${prefix}/${rbac}/roles/team/${n}`;
    await client.put(oldKey('sealed')).value(await enc.toStorage(Buffer.from(oldKey('sealed')), Buffer.from('{"kind":"Role"}')));
    await client.put(oldKey('plain')).value('{"kind":"Role"}');
    const moves = [{ from: `${prefix}/${rbac}/roles/`, to: `${prefix}/roles/` }];
    const none = await migrateKeyPrefixes(client, moves);
    expect(none.moved).to.equal(1);
    expect(none.refused).to.deep.equal([{ key: oldKey('sealed'),
      reason: 'the value is encrypted (k8s:enc:aesgcm:...) and no --encryption-provider-config is given to decrypt it under its old key and encrypt it under the new one' }]);
    expect(await client.get(`${prefix}/roles/team/plain`).string()).to.equal('{"kind":"Role"}');
    const wrongKey = await migrateKeyPrefixes(client, moves, other);
    expect(wrongKey.moved).to.equal(0);
    expect(wrongKey.refused.map((r) => r.key)).to.deep.equal([oldKey('sealed')]);
    expect(wrongKey.refused[0]!.reason).to.match(/^the value is encrypted \(k8s:enc:aesgcm:\.\.\.\) and cannot be decrypted with --encryption-provider-config: /);
    expect(await client.get(oldKey('sealed')).buffer()).to.not.equal(null);
    expect(await client.get(`${prefix}/roles/team/sealed`).buffer()).to.equal(null);
  });
});
