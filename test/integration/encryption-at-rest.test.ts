// Encryption at rest end to end (issue 24): a replica configured as upstream's fixtures
// were written serves the Secrets and ConfigMaps upstream encrypted; what it writes is
// encrypted in etcd with upstream's prefix; a value no provider reads is a 500 naming
// its key and is never overwritten; keys rotate through upstream's documented steps
// with kubectl; KMS v1 and v2 plugins (the harness's) back envelope encryption, with
// upstream's health checks and metrics; a broken configuration stops start-up.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { eventually, kubectl, request, startReplicas, startTestEtcd, testEtcdClient, uniquePrefix, type Cluster, type TestEtcd } from '../harness/index.js';
import { startKmsPlugin } from '../harness/kms-plugin.js';

type Obj = Record<string, any>;
const fixtures = process.env.ENCRYPTION_FIXTURES ?? join(process.cwd(), '..', 'shared', 'fixtures', 'encryption');
const key1 = Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const key2 = Buffer.from('fedcba9876543210fedcba9876543210').toString('base64');
const dir = mkdtempSync(join(tmpdir(), 'enc-it-'));
// Controllers that would rewrite objects under test (root CA publisher) stay off.
const quiet = '--controllers=*,-root-ca-cert-publisher,-csrcleaner,-resourcequota';

function writeConfig(name: string, resources: string[], providers: string): string {
  const p = join(dir, name);
  writeFileSync(p, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [${resources.join(', ')}]\n    providers:\n${providers}`);
  return p;
}
const aes = (kind: string, keys: Array<[string, string]>) =>
  `      - ${kind}:\n          keys:\n${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}\n`).join('')}`;
const identity = '      - identity: {}\n';

describe('encryption at rest', function () {
  this.timeout(240_000);
  const clusters: Cluster[] = [];
  let etcd: Etcd3;
  before(async () => { etcd = await testEtcdClient(); });
  after(async () => {
    for (const c of clusters) await c.stop();
    etcd.close();
  });
  const start = async (opts: Parameters<typeof startReplicas>[1]) => {
    const c = await startReplicas(1, opts);
    clusters.push(c);
    return c;
  };
  const api = (c: Cluster, path: string, init: { method?: string; body?: unknown } = {}) =>
    request(`${c.urls[0]}${path}`, { ...c.credentialsFor('admin'), ...init });

  describe('upstream v1.28 fixtures', () => {
    let own: TestEtcd;
    let client: Etcd3;
    after(async () => { client?.close(); await own?.stop(); });

    it('a replica with the fixtures\' configuration serves what upstream encrypted, and writes encrypted', async () => {
      // aesgcm authenticates the full etcd key, so the fixtures sit at upstream's own keys
      // (/registry/...) in an etcd of this test's own.
      own = await startTestEtcd();
      client = new Etcd3({ hosts: own.endpoint });
      const config = writeConfig('fixtures.yaml', ['secrets', 'configmaps'],
        aes('aesgcm', [['key1', key1], ['key2', key2]]) + aes('aescbc', [['key1', key1], ['key2', key2]]) + aes('secretbox', [['key1', key1], ['key2', key2]]));
      const c = await start({ etcdEndpoint: own.endpoint, etcdPrefix: '/registry', extraArgs: [quiet, `--encryption-provider-config=${config}`] });
      for (const provider of ['aescbc', 'secretbox', 'aesgcm']) {
        for (const [file, resource] of [['secret', 'secrets'], ['configmap', 'configmaps']]) {
          const key = `/registry/${resource}/default/enc-fixture`;
          await client.put(key).value(readFileSync(join(fixtures, provider, `${file}.bin`)));
          const want = JSON.parse(readFileSync(join(fixtures, provider, `${file}.json`), 'utf8')) as Obj;
          const got = await api(c, `/api/v1/namespaces/default/${resource}/enc-fixture`);
          expect(got.status, `${provider} ${file}`).to.equal(200);
          const { resourceVersion: _a, ...gotMeta } = (got.body as Obj).metadata;
          const { resourceVersion: _b, ...wantMeta } = want.metadata;
          expect({ ...(got.body as Obj), metadata: gotMeta }, `${provider} ${file}`).to.deep.equal({ ...want, metadata: wantMeta });
        }
      }
      const created = await api(c, '/api/v1/namespaces/default/secrets', { method: 'POST', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ours' }, stringData: { k: 'plaintext-marker' } } });
      expect(created.status).to.equal(201);
      const raw = await client.get('/registry/secrets/default/ours').buffer();
      expect(raw!.subarray(0, 23).toString()).to.equal('k8s:enc:aesgcm:v1:key1:');
      expect(raw!.includes(Buffer.from('plaintext-marker'))).to.equal(false);
      const cm = await api(c, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ours' }, data: { k: 'v' } } });
      expect(cm.status).to.equal(201);
      expect((await client.get('/registry/configmaps/default/ours').buffer())!.subarray(0, 23).toString()).to.equal('k8s:enc:aesgcm:v1:key1:');
      // Resources the configuration does not name stay as encoded.
      await api(c, '/api/v1/namespaces', { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plain-ns' } } });
      expect((await client.get('/registry/namespaces/plain-ns').buffer())!.subarray(0, 4).toString('latin1')).to.equal('k8s\0');
    });
  });

  it('a value no provider can read is a 500 naming its key, is never overwritten, and the watch cache goes on', async () => {
    const prefix = uniquePrefix('enc-unreadable');
    const config = writeConfig('unreadable.yaml', ['secrets'], aes('aescbc', [['key1', key1]]));
    const c = await start({ etcdPrefix: prefix, extraArgs: [quiet, `--encryption-provider-config=${config}`] });
    const key = `${prefix}/secrets/default/locked`;
    const foreign = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:other-key:'), Buffer.alloc(48, 7)]);
    await etcd.put(key).value(foreign);
    const r = await api(c, '/api/v1/namespaces/default/secrets/locked');
    expect(r.status).to.equal(500);
    expect((r.body as Obj).reason).to.equal('InternalError');
    expect((r.body as Obj).message).to.contain(key);
    expect((r.body as Obj).message).to.contain('no matching key was found for the provided AES transformer');
    const put = await api(c, '/api/v1/namespaces/default/secrets/locked', { method: 'PUT', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'locked' }, data: {} } });
    expect(put.status).to.equal(500);
    expect(await etcd.get(key).buffer()).to.deep.equal(foreign);
    await etcd.delete().key(key);
    const after = await api(c, '/api/v1/namespaces/default/secrets', { method: 'POST', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'later' }, data: {} } });
    expect(after.status).to.equal(201);
    // The cache serves again once the key is gone: an rv=0 list holds the new secret.
    await eventually('the watch cache serves secrets again', async () => {
      const list = await api(c, '/api/v1/secrets?resourceVersion=0');
      return list.status === 200 && (list.body as Obj).items.some((i: Obj) => i.metadata.name === 'later') ? true : undefined;
    }, 20_000);
    expect((await etcd.get(`${prefix}/secrets/default/later`).buffer())!.subarray(0, 23).toString()).to.equal('k8s:enc:aescbc:v1:key1:');
  });

  it('key rotation through upstream\'s four steps, with kubectl and automatic reload', async () => {
    const prefix = uniquePrefix('enc-rotate');
    const path = join(dir, 'rotate.yaml');
    const write = (keys: Array<[string, string]>) => writeFileSync(path,
      `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n${aes('aescbc', keys)}${identity}`);
    write([['key1', key1]]);
    const c = await start({ etcdPrefix: prefix, extraArgs: [quiet, `--encryption-provider-config=${path}`, '--encryption-provider-config-automatic-reload'], env: { KUBE_ENCRYPTION_CONFIG_POLL_MS: '500' } });
    const kc = c.kubeconfigFor(0);
    for (const ns of ['default', 'kube-public']) {
      for (let i = 0; i < 3; i++) expect((await kubectl(['-n', ns, 'create', 'secret', 'generic', `s${i}`, `--from-literal=v=${ns}-${i}`], { kubeconfig: kc })).code).to.equal(0);
    }
    const prefixes = async () => {
      const values = await etcd.getAll().prefix(`${prefix}/secrets/`).buffers();
      return [...new Set(Object.values(values).map((v) => v.subarray(0, 23).toString()))];
    };
    expect(await prefixes()).to.deep.equal(['k8s:enc:aescbc:v1:key1:']);
    // 1. key2 added second: still written with key1, everything reads.
    write([['key1', key1], ['key2', key2]]);
    // 2. key2 first, picked up by the automatic reload: new writes use key2.
    await new Promise((r) => setTimeout(r, 1500));
    write([['key2', key2], ['key1', key1]]);
    await eventually('new writes use key2', async () => {
      await kubectl(['delete', 'secret', 'probe', '--ignore-not-found'], { kubeconfig: kc });
      if ((await kubectl(['create', 'secret', 'generic', 'probe', '--from-literal=v=p'], { kubeconfig: kc })).code !== 0) return undefined;
      return (await etcd.get(`${prefix}/secrets/default/probe`).buffer())!.subarray(0, 23).toString() === 'k8s:enc:aescbc:v1:key2:' ? true : undefined;
    }, 30_000, 500);
    expect(await prefixes()).to.have.members(['k8s:enc:aescbc:v1:key1:', 'k8s:enc:aescbc:v1:key2:']);
    // 3. Every secret rewritten, unchanged, as upstream's documentation says.
    const all = await kubectl(['get', 'secrets', '-A', '-o', 'json'], { kubeconfig: kc });
    expect(all.code).to.equal(0);
    const replaced = await kubectl(['replace', '-f', '-'], { kubeconfig: kc, stdin: all.stdout });
    expect(replaced.code, replaced.stderr).to.equal(0);
    expect(await prefixes()).to.deep.equal(['k8s:enc:aescbc:v1:key2:']);
    // 4. key1 removed; after a restart (a roll of the replicas) every secret still reads.
    write([['key2', key2]]);
    await c.stopReplica(0);
    await c.startReplica(0);
    const got = await kubectl(['get', 'secrets', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}={.data.v}{"\\n"}{end}'], { kubeconfig: kc });
    expect(got.code, got.stderr).to.equal(0);
    const lines = got.stdout.trim().split('\n').sort();
    expect(lines).to.include(`default/s1=${Buffer.from('default-1').toString('base64')}`);
    expect(lines).to.include(`kube-public/s2=${Buffer.from('kube-public-2').toString('base64')}`);
    expect(lines).to.have.length(7);
  });

  it('KMS v1 and v2 plugins: envelope bytes in etcd, kms-provider-N checks, envelope and transformation metrics', async () => {
    const p2 = await startKmsPlugin({ keyId: 'kek-2' });
    const p1 = await startKmsPlugin();
    try {
      const prefix = uniquePrefix('enc-kms');
      const path = join(dir, 'kms.yaml');
      writeFileSync(path, `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms:
          apiVersion: v2
          name: p2
          endpoint: ${p2.endpoint}
          timeout: 2s
  - resources: [configmaps]
    providers:
      - kms:
          name: p1
          endpoint: ${p1.endpoint}
          cachesize: 10
          timeout: 2s
`);
      const c = await start({ etcdPrefix: prefix, extraArgs: [quiet, `--encryption-provider-config=${path}`] });
      const s = await api(c, '/api/v1/namespaces/default/secrets', { method: 'POST', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'env' }, stringData: { k: 'v2-secret' } } });
      expect(s.status).to.equal(201);
      const m = await api(c, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'env' }, data: { k: 'v1-config' } } });
      expect(m.status).to.equal(201);
      const v2raw = (await etcd.get(`${prefix}/secrets/default/env`).buffer())!;
      expect(v2raw.subarray(0, 18).toString()).to.equal('k8s:enc:kms:v2:p2:');
      expect(v2raw[18]).to.equal(0x0a); // EncryptedObject field 1 (encryptedData), length-delimited
      expect((await etcd.get(`${prefix}/configmaps/default/env`).buffer())!.subarray(0, 18).toString()).to.equal('k8s:enc:kms:v1:p1:');
      expect(((await api(c, '/api/v1/namespaces/default/secrets/env')).body as Obj).data.k).to.equal(Buffer.from('v2-secret').toString('base64'));
      expect(((await api(c, '/api/v1/namespaces/default/configmaps/env')).body as Obj).data.k).to.equal('v1-config');
      // One DEK per key ID for v2: writes do not call the plugin each time.
      const encryptsBefore = p2.calls.Encrypt ?? 0;
      for (let i = 0; i < 3; i++) await api(c, '/api/v1/namespaces/default/secrets', { method: 'POST', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: `more-${i}` }, data: {} } });
      expect(p2.calls.Encrypt ?? 0).to.equal(encryptsBefore);
      // v1 and v2 together: one check per plugin, on /healthz and /readyz, not /livez.
      expect((await api(c, '/healthz/kms-provider-0')).status).to.equal(200);
      expect((await api(c, '/healthz/kms-provider-1')).status).to.equal(200);
      const ready = await api(c, '/readyz?verbose');
      expect(ready.text).to.contain('[+]kms-provider-0 ok').and.to.contain('[+]kms-provider-1 ok');
      expect((await api(c, '/livez?verbose')).text).not.to.contain('kms-provider');
      const metrics = (await api(c, '/metrics')).text;
      expect(metrics).to.match(/apiserver_storage_transformation_operations_total\{transformation_type="to_storage",transformer_prefix="k8s:enc:kms:v2:p2:",status="OK"\} [1-9]/);
      expect(metrics).to.match(/apiserver_storage_transformation_duration_seconds_bucket\{le="[^"]+",transformation_type="from_storage",transformer_prefix="k8s:enc:kms:v1:p1:"\}/);
      expect(metrics).to.match(/apiserver_envelope_encryption_key_id_hash_total\{transformation_type="to_storage",provider_name="p2",key_id_hash="sha256:[0-9a-f]{64}"\} [1-9]/);
      expect(metrics).to.match(/apiserver_envelope_encryption_kms_operations_latency_seconds_count\{provider_name="p2",method_name="\/v2.KeyManagementService\/Status",grpc_status_code="OK"\}/);
      // A failing plugin fails its check (after the last good answer's 20 s), with upstream's reason.
      p2.setHealthy(false);
      await eventually('kms-provider-0 fails', async () => ((await api(c, '/healthz/kms-provider-0')).status === 500 ? true : undefined), 40_000, 1000);
      expect((await api(c, '/readyz?verbose')).text).to.contain('[-]kms-provider-0 failed');
      // Reads keep working on the cached DEK.
      expect((await api(c, '/api/v1/namespaces/default/secrets/env')).status).to.equal(200);
    } finally {
      await p1.stop();
      await p2.stop();
    }
  });

  it('with automatic reload (or v2 plugins alone) the plugins share one check, kms-providers', async () => {
    const p2 = await startKmsPlugin();
    try {
      const path = writeConfig('v2only.yaml', ['secrets'], `      - kms:\n          apiVersion: v2\n          name: solo\n          endpoint: ${p2.endpoint}\n`);
      const c = await start({ etcdPrefix: uniquePrefix('enc-kms2'), extraArgs: [quiet, `--encryption-provider-config=${path}`] });
      expect((await api(c, '/healthz/kms-providers')).status).to.equal(200);
      expect((await api(c, '/readyz?verbose')).text).to.contain('[+]kms-providers ok');
    } finally { await p2.stop(); }
  });

  it('a configuration with an error stops start-up with upstream\'s message', async () => {
    const path = writeConfig('bad.yaml', ['secrets'], aes('aescbc', [['key1', Buffer.from('too-short').toString('base64')]]));
    const err = await startReplicas(1, { etcdPrefix: uniquePrefix('enc-bad'), extraArgs: [`--encryption-provider-config=${path}`], readyTimeoutMs: 30_000 })
      .then((c) => { clusters.push(c); return undefined; }, (e: Error) => e);
    expect(err?.message).to.contain('error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 9, expected one of [16 24 32]');
  });
});
