// ClusterTrustBundles (certificates.k8s.io/v1alpha1) on two RBAC replicas with
// --runtime-config and the ClusterTrustBundle gate: discovery, create through one replica
// and read through the other, upstream's validation answers, ClusterTrustBundleAttest,
// the spec.signerName field selector, updates needing a resourceVersion, protobuf, and
// kubectl v1.28 get/describe. Then what upstream v1.28 does with a runtime-config that
// names certificates.k8s.io/v1beta1 (removed in 1.22) or v1alpha1 without the gate: it
// starts and serves neither.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { generateCA } from '../../pkg/util/cert/index.js';
import { kubectl, request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

type Bundle = { metadata: { name: string; resourceVersion?: string; uid?: string }; spec: { signerName?: string; trustBundle: string } };
type Status = { code: number; reason: string; message: string; details?: { causes?: Array<{ field: string; message: string }> } };

const group = '/apis/certificates.k8s.io';
const api = `${group}/v1alpha1/clustertrustbundles`;
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const signer = 'example.com/foo';

describe('clustertrustbundles (certificates.k8s.io/v1alpha1) on two replicas', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let caA: string;
  let caB: string;
  const tokens = [{ token: 'attester-token', name: 'attester' }, { token: 'writer-token', name: 'writer' }];
  const call = <T = unknown>(i: number, user: string, path: string, method = 'GET', body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor(user), method, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
  const bundle = (name: string, trustBundle: string, signerName?: string) => ({
    apiVersion: 'certificates.k8s.io/v1alpha1', kind: 'ClusterTrustBundle', metadata: { name },
    spec: { ...(signerName ? { signerName } : {}), trustBundle },
  });

  before(async () => {
    cluster = await startReplicas(2, {
      authorizationMode: 'RBAC', tokens,
      extraArgs: ['--runtime-config=certificates.k8s.io/v1alpha1=true', '--feature-gates=ClusterTrustBundle=true'],
    });
    caA = readFileSync(cluster.pki.ca.certFile, 'utf8');
    caB = (await generateCA('second-ca')).cert;
    const writeRule = { apiGroups: ['certificates.k8s.io'], resources: ['clustertrustbundles'], verbs: ['create', 'get', 'list', 'update'] };
    const setup = [
      call(0, 'admin', `${rbac}/clusterroles`, 'POST', { metadata: { name: 't-ctb-writer' }, rules: [writeRule] }),
      call(0, 'admin', `${rbac}/clusterroles`, 'POST', { metadata: { name: 't-ctb-attester' }, rules: [writeRule,
        { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['attest'] }] }),
      ...[['writer', 't-ctb-writer'], ['attester', 't-ctb-attester']].map(([user, role]) => call(0, 'admin', `${rbac}/clusterrolebindings`, 'POST', {
        metadata: { name: `t-${user}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
      })),
    ];
    for (const r of await Promise.all(setup)) expect(r.status, r.text).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('is discovered beside v1, which stays preferred', async () => {
    const g = await call<{ versions: Array<{ version: string }>; preferredVersion: { version: string } }>(1, 'admin', group);
    expect(g.body.versions.map((v) => v.version)).to.deep.equal(['v1', 'v1alpha1']);
    expect(g.body.preferredVersion.version).to.equal('v1');
    const v = await call<{ resources: Array<Record<string, unknown>> }>(1, 'admin', `${group}/v1alpha1`);
    expect(v.body.resources).to.deep.equal([{
      name: 'clustertrustbundles', singularName: 'clustertrustbundle', namespaced: false, kind: 'ClusterTrustBundle',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      storageVersionHash: (v.body.resources[0] as { storageVersionHash: string }).storageVersionHash,
    }]);
  });

  it('creates through one replica, reads through the other, in JSON and protobuf', async () => {
    const created = await call<Bundle>(0, 'admin', api, 'POST', bundle('plain', caA + caB));
    expect(created.status, created.text).to.equal(201);
    const got = await call<Bundle>(1, 'admin', `${api}/plain`);
    expect(got.status).to.equal(200);
    expect(got.body.spec).to.deep.equal({ trustBundle: caA + caB });
    expect(got.body.metadata.uid).to.equal(created.body.metadata.uid);
    const pb = await call(1, 'admin', `${api}/plain`, 'GET', undefined, { Accept: 'application/vnd.kubernetes.protobuf' });
    expect(pb.status).to.equal(200);
    expect(pb.headers['content-type']).to.equal('application/vnd.kubernetes.protobuf');
    expect(pb.raw.subarray(0, 4)).to.deep.equal(Buffer.from([0x6b, 0x38, 0x73, 0x00]));
    expect(pb.raw.includes(Buffer.from('ClusterTrustBundle'))).to.equal(true);
  });

  it("refuses what upstream refuses, with upstream's words", async () => {
    const key = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n';
    const bad = await call<Status>(1, 'admin', api, 'POST', bundle('example.com:foo:x', caA + key + caA));
    expect(bad.status).to.equal(422);
    expect(bad.body.message).to.equal('ClusterTrustBundle.certificates.k8s.io "example.com:foo:x" is invalid: [metadata.name: Invalid value: '
      + '"example.com:foo:x": ClusterTrustBundle without signer name must not have ":" in its name, spec.trustBundle: Invalid value: '
      + '"<value omitted>": entry 1 has bad block type: PRIVATE KEY]');
    const dup = await call<Status>(0, 'admin', api, 'POST', bundle('dup', caA + caA));
    expect(dup.status).to.equal(422);
    expect(dup.body.details?.causes).to.deep.equal([{ reason: 'FieldValueInvalid', field: 'spec.trustBundle',
      message: 'Invalid value: "<value omitted>": duplicate trust anchor (indices [0 1])' }]);
    const prefix = await call<Status>(0, 'admin', api, 'POST', bundle('wrong', caA, signer));
    expect(prefix.status).to.equal(422);
    expect(prefix.body.message).to.equal('ClusterTrustBundle.certificates.k8s.io "wrong" is invalid: metadata.name: Invalid value: "wrong": '
      + 'ClusterTrustBundle for signerName example.com/foo must be named with prefix example.com:foo:');
  });

  it('a signer-linked bundle needs attest on the signer (ClusterTrustBundleAttest)', async () => {
    const denied = await call<Status>(0, 'writer', api, 'POST', bundle('example.com:foo:one', caA, signer));
    expect(denied.status).to.equal(403);
    expect(denied.body.message).to.equal(
      'clustertrustbundles.certificates.k8s.io "example.com:foo:one" is forbidden: user not permitted to attest for signerName "example.com/foo"');
    const plain = await call(0, 'writer', api, 'POST', bundle('writers', caB));
    expect(plain.status, plain.text).to.equal(201);
    const allowed = await call<Bundle>(1, 'attester', api, 'POST', bundle('example.com:foo:one', caA, signer));
    expect(allowed.status, allowed.text).to.equal(201);
    // Updating it is attesting again: the writer may update bundles but not attest.
    const upd = { ...allowed.body, spec: { ...allowed.body.spec, trustBundle: caA + caB } };
    const notAttested = await call<Status>(0, 'writer', `${api}/example.com:foo:one`, 'PUT', upd);
    expect(notAttested.status).to.equal(403);
    expect((await call(0, 'attester', `${api}/example.com:foo:one`, 'PUT', upd)).status).to.equal(200);
  });

  it('selects on spec.signerName', async () => {
    const list = await call<{ items: Bundle[] }>(1, 'admin', `${api}?fieldSelector=${encodeURIComponent(`spec.signerName=${signer}`)}`);
    expect(list.status).to.equal(200);
    expect(list.body.items.map((b) => b.metadata.name)).to.deep.equal(['example.com:foo:one']);
    const none = await call<{ items: Bundle[] }>(1, 'admin', `${api}?fieldSelector=spec.signerName%3D`);
    expect(none.body.items.map((b) => b.metadata.name).sort()).to.deep.equal(['plain', 'writers']);
    const badField = await call<Status>(1, 'admin', `${api}?fieldSelector=spec.trustBundle%3Dx`);
    expect(badField.status).to.equal(400);
    expect(badField.body.message).to.equal('field label not supported: spec.trustBundle');
  });

  it('updates need a resourceVersion and keep the signer', async () => {
    const cur = (await call<Bundle>(0, 'admin', `${api}/example.com:foo:one`)).body;
    const noRV = { ...cur, metadata: { ...cur.metadata, resourceVersion: undefined } };
    const unconditional = await call<Status>(1, 'admin', `${api}/example.com:foo:one`, 'PUT', noRV);
    expect(unconditional.status).to.equal(422);
    // Upstream's generic store names the resource here, not the kind.
    expect(unconditional.body.message).to.equal('clustertrustbundles.certificates.k8s.io "example.com:foo:one" is invalid: '
      + 'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    const moved = await call<Status>(1, 'admin', `${api}/example.com:foo:one`, 'PUT', { ...cur, spec: { ...cur.spec, signerName: 'example.com/bar' } });
    expect(moved.status).to.equal(422);
    expect(moved.body.details?.causes?.map((c) => `${c.field}: ${c.message}`)).to.deep.equal([
      'metadata.name: Invalid value: "example.com:foo:one": ClusterTrustBundle for signerName example.com/bar must be named with prefix example.com:bar:',
      'spec.signerName: Invalid value: "example.com/bar": field is immutable',
    ]);
  });

  it('kubectl v1.28 gets and describes bundles', async () => {
    const kc = { kubeconfig: cluster.kubeconfigFor(1) };
    const got = await kubectl(['get', 'clustertrustbundles'], kc);
    expect(got.code, got.stderr).to.equal(0);
    const lines = got.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^NAME\s+SIGNERNAME$/);
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/))).to.deep.equal([
      ['example.com:foo:one', 'example.com/foo'], ['plain', '<none>'], ['writers', '<none>'],
    ]);
    const described = await kubectl(['describe', 'clustertrustbundle', 'example.com:foo:one'], kc);
    expect(described.code, described.stderr).to.equal(0);
    expect(described.stdout).to.match(/^Name:\s+example.com:foo:one$/m);
    expect(described.stdout).to.match(/^API Version:\s+certificates.k8s.io\/v1alpha1$/m);
    expect(described.stdout).to.match(/^Kind:\s+ClusterTrustBundle$/m);
    expect(described.stdout).to.match(/^\s+Signer Name:\s+example.com\/foo$/m);
    expect(described.stdout).to.include('-----BEGIN CERTIFICATE-----');
  });
});

describe('certificates.k8s.io versions that upstream v1.28 does not serve', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  // v1beta1 was removed in 1.22; v1alpha1 needs the ClusterTrustBundle gate as well.
  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--runtime-config=certificates.k8s.io/v1beta1=true,certificates.k8s.io/v1alpha1=true'] });
  });
  after(async () => { await cluster?.stop(); });

  it('starts, and serves certificates.k8s.io/v1 only', async () => {
    const get = (path: string) => request<{ versions: Array<{ version: string }> }>(`${cluster.urls[0]}${path}`, cluster.credentialsFor());
    expect((await get(group)).body.versions.map((v) => v.version)).to.deep.equal(['v1']);
    expect((await get(`${group}/v1beta1`)).status).to.equal(404);
    expect((await get(`${group}/v1beta1/certificatesigningrequests`)).status).to.equal(404);
    expect((await get(`${group}/v1alpha1/clustertrustbundles`)).status).to.equal(404);
    expect((await get(`${group}/v1/certificatesigningrequests`)).status).to.equal(200);
  });
});
