// Object history (history.apiserver.k8s-ts.io/v1 objecthistories) through HTTPS on two
// replicas over a private etcd (this suite compacts it): a ConfigMap created by kubectl,
// updated five times by five managers and deleted has six versions with their diffs and
// managers and its deletion last; one version whole by resourceVersion; after a
// compaction the answer says what is gone; 403 without get on the history, or on the
// object (a Secret's history needs get on that Secret); Secrets are encrypted at rest
// (aescbc) and their history is read through the same transformer.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { kubectl, request, startReplicas, startTestEtcd, until, type Cluster, type TestEtcd } from '../harness/index.js';

const history = '/apis/history.apiserver.k8s-ts.io/v1/objecthistories';
const rbac = '/apis/rbac.authorization.k8s.io/v1';

interface Entry { resourceVersion: string; type: string; manager?: string; operation?: string; time?: string; patch?: Array<{ op: string; path: string; value?: unknown }> }
interface History { kind: string; metadata: { name: string; resourceVersion: string }; target: Record<string, string>; compactedRevision: string; complete: boolean; versions: Entry[] }

describe('object history from etcd MVCC over HTTPS (two replicas)', function () {
  this.timeout(120_000);
  let etcd: TestEtcd;
  let cluster: Cluster;
  const ns = `hist-${Date.now().toString(36)}`;
  const as = (user: string, replica = 0) => (path: string, opts: Parameters<typeof request>[1] = {}) =>
    request(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(user), ...opts });
  const admin = as('admin');
  const cmPath = `/api/v1/namespaces/${ns}/configmaps`;
  const historyOf = (name: string, resource = 'configmaps', extra = '') => `${history}/${name}?resource=${resource}&namespace=${ns}${extra}`;
  const revisions: string[] = [];

  const configDir = mkdtempSync(join(tmpdir(), 'history-encryption-'));
  before(async () => {
    etcd = await startTestEtcd();
    const encryption = join(configDir, 'encryption.yaml');
    writeFileSync(encryption, ['apiVersion: apiserver.config.k8s.io/v1', 'kind: EncryptionConfiguration', 'resources:', '- resources: [secrets]',
      '  providers:', '  - aescbc:', '      keys:', `      - {name: key1, secret: ${randomBytes(32).toString('base64')}}`, '  - identity: {}', ''].join('\n'));
    cluster = await startReplicas(2, {
      etcdEndpoint: etcd.endpoint, authorizationMode: 'RBAC', extraArgs: [`--encryption-provider-config=${encryption}`],
      tokens: [{ token: 'a', name: 'alice' }, { token: 'h', name: 'historian' }, { token: 'r', name: 'reader' }],
    });
    expect((await admin('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: ns } } })).status).to.equal(201);
    const bind = async (name: string, role: string, user: string, namespace?: string) => {
      const path = namespace ? `${rbac}/namespaces/${namespace}/rolebindings` : `${rbac}/clusterrolebindings`;
      const r = await admin(path, { method: 'POST', body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }] } });
      expect(r.status, r.text).to.equal(201);
    };
    // historian: the history resource and the namespace's configmaps, not its secrets; reader: configmaps only.
    const cmReader = { metadata: { name: `${ns}-cm-reader` }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] };
    expect((await admin(`${rbac}/clusterroles`, { method: 'POST', body: cmReader })).status).to.equal(201);
    await bind(`${ns}-historian`, 'k8s-ts:object-history-reader', 'historian');
    await bind('historian-cm', `${ns}-cm-reader`, 'historian', ns);
    await bind('reader-cm', `${ns}-cm-reader`, 'reader', ns);

    const manifest = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tracked', namespace: ns }, data: { step: '0' } });
    const created = await kubectl(['create', '-f', '-', '-o', 'json'], { kubeconfig: cluster.kubeconfigFor(0), stdin: manifest });
    expect(created.code, created.stderr).to.equal(0);
    revisions.push((JSON.parse(created.stdout) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    for (let i = 1; i <= 5; i++) {
      // Alternate replicas; one manager per step, each adding a key and changing `step`.
      const r = await as('admin', i % 2)(`${cmPath}/tracked?fieldManager=step-${i}`, {
        method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { step: String(i), [`k${i}`]: `v${i}` } }),
      });
      expect(r.status, r.text).to.equal(200);
      revisions.push((r.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    }
    expect((await admin(`${cmPath}/tracked`, { method: 'DELETE' })).status).to.equal(200);
  });
  after(async () => {
    await cluster?.stop();
    await etcd?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('six versions with managers, operations, times and diffs, then the deletion', async () => {
    const r = await admin(historyOf('tracked'));
    expect(r.status, r.text).to.equal(200);
    const h = r.body as History;
    expect(h.kind).to.equal('ObjectHistory');
    expect(h.target).to.deep.equal({ group: '', version: 'v1', resource: 'configmaps', namespace: ns, name: 'tracked' });
    expect(h.compactedRevision).to.equal('0');
    expect(h.complete).to.equal(true);
    expect(h.versions.map((v) => [v.type, v.resourceVersion, v.manager, v.operation])).to.deep.equal([
      ['Created', revisions[0], 'kubectl-create', 'Update'],
      ...[1, 2, 3, 4, 5].map((i) => ['Updated', revisions[i], `step-${i}`, 'Update']),
      ['Deleted', h.versions[6]?.resourceVersion, undefined, undefined],
    ]);
    expect(Number(h.versions[6]!.resourceVersion)).to.be.greaterThan(Number(revisions[5]));
    for (const v of h.versions.slice(0, 6)) expect(v.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The create is diffed from nothing; each update changes `step` and adds its key; no
    // resourceVersion or managedFields in any patch.
    expect(h.versions[0]!.patch).to.deep.include({ op: 'add', path: '/data', value: { step: '0' } });
    expect(h.versions[3]!.patch).to.have.deep.members([
      { op: 'replace', path: '/data/step', value: '3' }, { op: 'add', path: '/data/k3', value: 'v3' },
    ]);
    for (const v of h.versions) for (const op of v.patch ?? []) expect(op.path).to.not.match(/resourceVersion|managedFields/);
    expect(h.versions[6]!.patch).to.equal(undefined);
  });

  it('?resourceVersion=N answers that whole version; kubectl get --raw reads it too', async () => {
    const r = await as('admin', 1)(historyOf('tracked', 'configmaps', `&resourceVersion=${revisions[2]}`));
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.include({ kind: 'ConfigMap', apiVersion: 'v1', data: { step: '2', k1: 'v1', k2: 'v2' } });
    expect((r.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion).to.equal(revisions[2]);
    const raw = await kubectl(['get', '--raw', historyOf('tracked')], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(raw.code, raw.stderr).to.equal(0);
    expect((JSON.parse(raw.stdout) as History).versions).to.have.length(7);
  });

  it('403 without get on objecthistories, and without get on the object itself (Secrets included)', async () => {
    const denied = await as('alice')(historyOf('tracked'));
    expect(denied.status).to.equal(403);
    expect((denied.body as { message: string }).message).to.equal(
      'objecthistories.history.apiserver.k8s-ts.io "tracked" is forbidden: User "alice" cannot get resource "objecthistories" in API group "history.apiserver.k8s-ts.io" at the cluster scope');
    const reader = await as('reader')(historyOf('tracked'));
    expect(reader.status).to.equal(403);
    expect((reader.body as { message: string }).message).to.contain('cannot get resource "objecthistories"');
    // The history resource is granted; ConfigMaps are readable, this Secret is not.
    await until('historian granted', async () => (await as('historian')(historyOf('tracked'))).status === 200);
    const secret = { metadata: { name: 'token' }, stringData: { password: 'hunter2' } };
    expect((await admin(`/api/v1/namespaces/${ns}/secrets`, { method: 'POST', body: secret })).status).to.equal(201);
    const s = await as('historian')(historyOf('token', 'secrets'));
    expect(s.status).to.equal(403);
    expect((s.body as { message: string }).message).to.equal(
      `secrets "token" is forbidden: User "historian" cannot get resource "secrets" in API group "" in the namespace "${ns}"`);
    expect(s.text).to.not.contain('aHVudGVyMg'); // base64 of the password
    const raw = new Etcd3({ hosts: etcd.endpoint });
    try {
      const stored = await raw.get(`${cluster.etcdPrefix}/secrets/${ns}/token`).buffer();
      expect(stored?.subarray(0, 23).toString()).to.equal('k8s:enc:aescbc:v1:key1:');
    } finally {
      raw.close();
    }
    const own = await admin(historyOf('token', 'secrets'));
    expect(own.status).to.equal(200);
    expect(JSON.stringify((own.body as History).versions[0]!.patch)).to.contain('aHVudGVyMg');
  });

  it('after compaction the answer says how far back it sees and what is gone', async () => {
    const raw = new Etcd3({ hosts: etcd.endpoint });
    try {
      await raw.kv.compact({ revision: revisions[3]! });
    } finally {
      raw.close();
    }
    const h = (await admin(historyOf('tracked'))).body as History;
    expect(h.compactedRevision).to.equal(revisions[3]);
    expect(h.complete).to.equal(false);
    expect(h.versions.map((v) => v.resourceVersion)).to.deep.equal([revisions[3], revisions[4], revisions[5], h.versions[3]!.resourceVersion]);
    expect(h.versions[0]!.patch).to.equal(undefined); // its predecessor is gone
    expect(h.versions[1]!.patch).to.have.deep.members([{ op: 'replace', path: '/data/step', value: '4' }, { op: 'add', path: '/data/k4', value: 'v4' }]);
    const gone = await admin(historyOf('tracked', 'configmaps', `&resourceVersion=${revisions[1]}`));
    expect(gone.status).to.equal(410);
    expect(gone.body).to.deep.include({ reason: 'Gone', code: 410 });
  });

  it('discovery lists the group; an unknown resource is 404, a missing namespace 400', async () => {
    const v1 = (await admin('/apis/history.apiserver.k8s-ts.io/v1')).body as { resources: Array<{ name: string; verbs: string[]; namespaced: boolean }> };
    expect(v1.resources.map((r) => [r.name, r.verbs.join(','), r.namespaced])).to.deep.equal([['objecthistories', 'get', false]]);
    expect((await admin(`${history}/x?resource=nothings&namespace=${ns}`)).status).to.equal(404);
    expect((await admin(`${history}/x?resource=configmaps`)).status).to.equal(400);
    expect((await admin(`${history}/never-existed?resource=configmaps&namespace=${ns}`)).status).to.equal(404);
    expect((await admin(history)).status).to.equal(405);
  });
});
