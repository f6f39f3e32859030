// NodeRestriction (--enable-admission-plugins=NodeRestriction, with Node,RBAC) through real
// replicas and a kubelet's client certificate: its own Node only, without taint changes
// or labels outside the kubelet set; mirror pods bound to and owned by itself; status
// updates and deletions of pods bound to it; upstream's 403 messages.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Obj { metadata: { name: string; uid?: string; labels?: Record<string, string> }; spec?: Record<string, unknown> }
interface Status { code: number; reason: string; message: string }

const n1 = 'system:node:n1';
const merge = { 'Content-Type': 'application/merge-patch+json' };

describe('NodeRestriction admission', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `noderestr-${Date.now().toString(36)}`;
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const admin = <T = Obj>(method: string, path: string, body?: unknown): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });
  const asNode = <T = Status>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, replica = 1): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(n1), method, body, headers });
  const forbidden = (r: HttpResponse<Status>, message: string): void => {
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body).to.include({ code: 403, reason: 'Forbidden', message });
  };
  const container = { name: 'c', image: 'nginx' };

  before(async () => {
    cluster = await startReplicas(2, {
      authorizationMode: 'Node,RBAC', clientUsers: [{ name: n1, groups: ['system:nodes'] }],
      extraArgs: ['--enable-admission-plugins=NodeRestriction'],
    });
    expect((await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    expect((await admin('POST', '/api/v1/nodes', { metadata: { name: 'n2' } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('registers only its own Node, and only with kubelet labels', async () => {
    forbidden(await asNode('POST', '/api/v1/nodes', { metadata: { name: 'n3' } }), 'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"');
    forbidden(await asNode('POST', '/api/v1/nodes', { metadata: { name: 'n1', labels: { 'node-restriction.kubernetes.io/pool': 'a', 'node-role.kubernetes.io/master': '', 'example.com/x': 'y' } } }),
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/pool, node-role.kubernetes.io/master');
    const ok = await asNode<Obj>('POST', '/api/v1/nodes', { metadata: { name: 'n1', labels: {
      'kubernetes.io/hostname': 'n1', 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'big', 'kubelet.kubernetes.io/x': 'y', 'example.com/x': 'y' } } });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
  });

  it('updates its own Node but not its taints, restricted labels or another Node', async () => {
    const zone = await asNode<Obj>('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'topology.kubernetes.io/zone': 'z1' } } }, merge);
    expect(zone.status, JSON.stringify(zone.body)).to.equal(200);
    expect(zone.body.metadata.labels).to.include({ 'topology.kubernetes.io/zone': 'z1' });
    forbidden(await asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, merge),
      'nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane');
    forbidden(await asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'kubernetes.io/hostname': null, 'node-restriction.kubernetes.io/a': 'b' } } }, merge),
      'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/a');
    forbidden(await asNode('PATCH', '/api/v1/nodes/n1', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }, merge),
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
    forbidden(await asNode('PATCH', '/api/v1/nodes/n2/status', { status: { phase: 'Running' } }, merge),
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    const status = await asNode('PATCH', '/api/v1/nodes/n1/status', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, merge);
    expect(status.status, JSON.stringify(status.body)).to.equal(200);
  });

  it('creates only mirror pods bound to and owned by itself, referencing nothing', async () => {
    const node = (await admin('GET', '/api/v1/nodes/n1')).body;
    const owner = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: node.metadata.uid, controller: true };
    const mirror = (name: string, over: { spec?: Record<string, unknown>; owner?: Record<string, unknown>; annotations?: Record<string, string> } = {}) => ({
      metadata: { name, annotations: over.annotations ?? { 'kubernetes.io/config.mirror': 'hash' }, ownerReferences: [over.owner ?? owner] },
      spec: { nodeName: 'n1', containers: [container], ...over.spec },
    });
    forbidden(await asNode('POST', pods, mirror('plain', { annotations: {} })),
      'pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods');
    forbidden(await asNode('POST', pods, mirror('elsewhere', { spec: { nodeName: 'n2' } })),
      'pods "elsewhere" is forbidden: node "n1" can only create pods with spec.nodeName set to itself');
    forbidden(await asNode('POST', pods, mirror('foreign', { owner: { ...owner, name: 'n2' } })),
      'pods "foreign" is forbidden: node "n1" can only create pods with an owner reference set to itself');
    forbidden(await asNode('POST', pods, mirror('stale', { owner: { ...owner, uid: 'old-uid' } })),
      `pods "stale" is forbidden: node n1 UID mismatch: expected old-uid got ${node.metadata.uid}`);
    forbidden(await asNode('POST', pods, mirror('secretive', { spec: { volumes: [{ name: 's', secret: { secretName: 's' } }] } })),
      'pods "secretive" is forbidden: node "n1" can not create pods that reference secrets');
    forbidden(await asNode('POST', pods, mirror('with-sa', { spec: { serviceAccountName: 'default' } })),
      'pods "with-sa" is forbidden: node "n1" can not create pods that reference a service account');
    const ok = await asNode('POST', pods, mirror('static-web'));
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
  });

  it('updates the status of, and deletes, only pods bound to itself', async () => {
    for (const [name, nodeName] of [['mine', 'n1'], ['theirs', 'n2']]) {
      expect((await admin('POST', pods, { metadata: { name, labels: { app: 'x' } }, spec: { nodeName, containers: [container] } })).status).to.equal(201);
    }
    const running = await asNode('PATCH', `${pods}/mine/status`, { status: { phase: 'Running' } }, merge);
    expect(running.status, JSON.stringify(running.body)).to.equal(200);
    forbidden(await asNode('PATCH', `${pods}/theirs/status`, { status: { phase: 'Running' } }, merge),
      'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself');
    forbidden(await asNode('PATCH', `${pods}/mine/status`, { metadata: { labels: { app: 'y' } } }, merge),
      'pods "mine" is forbidden: node "n1" cannot update labels through pod status');
    forbidden(await asNode('DELETE', `${pods}/theirs`),
      'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
    forbidden(await asNode('POST', `${pods}/theirs/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'theirs' } }),
      'pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself');
    const del = await asNode('DELETE', `${pods}/mine?gracePeriodSeconds=0`);
    expect(del.status, JSON.stringify(del.body)).to.equal(200);
    expect((await admin('GET', `${pods}/theirs`)).status).to.equal(200);
  });

  it('refuses unknown plugin names at start', async () => {
    const { parseOptions } = await import('../../pkg/server/options.js');
    expect(() => parseOptions(['--enable-admission-plugins=NodeRestriction,Bogus'])).to.throw('enable-admission-plugins plugin "Bogus" is unknown');
    expect(parseOptions(['--enable-admission-plugins=NodeRestriction']).enableAdmissionPlugins).to.deep.equal(['NodeRestriction']);
  });
});
