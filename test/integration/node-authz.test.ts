// The Node authorizer through real replicas with a kubelet's client certificate
// (CN=system:node:n1, O=system:nodes): reads of secrets, configmaps, claims, volumes and
// attachments follow the graph each replica builds from its own watch of pods, claims and
// attachments (written through the other replica), leases and CSINodes only under the
// node's own name, everything else by the static system:node rules; refusals are 403
// with upstream's reasons.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Status { code: number; reason: string; message: string }

const n1 = 'system:node:n1';
const noRelation = "no relationship found between node 'n1' and this object";

describe('Node authorization (Node,RBAC)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `nodeauthz-${Date.now().toString(36)}`;
  const admin = <T = unknown>(method: string, path: string, body?: unknown): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });
  const asNode = <T = Status>(method: string, path: string, body?: unknown, replica = 1): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(n1), method, body });
  const created = async (path: string, body: unknown): Promise<void> => {
    const r = await admin('POST', path, body);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(201);
  };
  /** The graph is fed by a watch: wait until the node's view reaches the expected status. */
  const eventually = async (method: string, path: string, status: number, replica = 1): Promise<HttpResponse<Status>> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await asNode(method, path, undefined, replica);
      if (r.status === status || Date.now() > deadline) return r;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const forbidden = (r: HttpResponse<Status>, message: string): void => {
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body).to.include({ code: 403, reason: 'Forbidden', message });
  };
  const pod = (name: string, node: string, secret: string, extra: Record<string, unknown> = {}) => ({
    metadata: { name },
    spec: {
      nodeName: node, serviceAccountName: 'sa1',
      volumes: [{ name: 's', secret: { secretName: secret } }, { name: 'data', persistentVolumeClaim: { claimName: 'claim' } }],
      containers: [{ name: 'c', image: 'nginx', envFrom: [{ configMapRef: { name: 'cm' } }] }],
      ...extra,
    },
  });

  before(async () => {
    cluster = await startReplicas(2, { authorizationMode: 'Node,RBAC', clientUsers: [{ name: n1, groups: ['system:nodes'] }] });
    await created('/api/v1/namespaces', { metadata: { name: ns } });
    for (const s of ['s', 's-other', 'unused']) await created(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: s } });
    await created(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'cm' } });
    await created(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa1' } });
    await created(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'pv-secret' } });
    await created('/api/v1/persistentvolumes', { metadata: { name: `${ns}-pv` }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'],
      csi: { driver: 'csi.example.com', volumeHandle: 'h1', nodePublishSecretRef: { name: 'pv-secret', namespace: ns } } } });
    await created(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, { metadata: { name: 'claim' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: `${ns}-pv` } });
    await created(`/api/v1/namespaces/${ns}/pods`, pod('on-n1', 'n1', 's'));
    await created(`/api/v1/namespaces/${ns}/pods`, pod('on-n2', 'n2', 's-other'));
    for (const [name, node] of [[`${ns}-va1`, 'n1'], [`${ns}-va2`, 'n2']]) {
      await created('/apis/storage.k8s.io/v1/volumeattachments', { metadata: { name },
        spec: { attacher: 'csi.example.com', nodeName: node, source: { persistentVolumeName: `${ns}-pv` } } });
    }
  });
  after(async () => { await cluster?.stop(); });

  it('reads what pods bound to the node reference, on either replica', async () => {
    for (const replica of [0, 1]) {
      expect((await eventually('GET', `/api/v1/namespaces/${ns}/secrets/s`, 200, replica)).status).to.equal(200);
      expect((await eventually('GET', `/api/v1/namespaces/${ns}/configmaps/cm`, 200, replica)).status).to.equal(200);
      expect((await eventually('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/claim`, 200, replica)).status).to.equal(200);
      expect((await eventually('GET', `/api/v1/persistentvolumes/${ns}-pv`, 200, replica)).status).to.equal(200);
      // The secret the claim's volume names, through pod -> claim -> volume.
      expect((await eventually('GET', `/api/v1/namespaces/${ns}/secrets/pv-secret`, 200, replica)).status).to.equal(200);
      expect((await eventually('GET', `/apis/storage.k8s.io/v1/volumeattachments/${ns}-va1`, 200, replica)).status).to.equal(200);
    }
  });

  it("refuses what only another node's pods reference, with upstream's message", async () => {
    await eventually('GET', `/api/v1/namespaces/${ns}/secrets/s`, 200);
    forbidden(await asNode('GET', `/api/v1/namespaces/${ns}/secrets/s-other`),
      `secrets "s-other" is forbidden: User "${n1}" cannot get resource "secrets" in API group "" in the namespace "${ns}": ${noRelation}`);
    forbidden(await asNode('GET', `/api/v1/namespaces/${ns}/secrets/unused`),
      `secrets "unused" is forbidden: User "${n1}" cannot get resource "secrets" in API group "" in the namespace "${ns}": ${noRelation}`);
    forbidden(await asNode('GET', `/apis/storage.k8s.io/v1/volumeattachments/${ns}-va2`),
      `volumeattachments.storage.k8s.io "${ns}-va2" is forbidden: User "${n1}" cannot get resource "volumeattachments" in API group "storage.k8s.io" at the cluster scope: ${noRelation}`);
  });

  it('refuses other verbs and unnamed reads of graph-guarded kinds', async () => {
    forbidden(await asNode('PUT', `/api/v1/namespaces/${ns}/secrets/s`, { metadata: { name: 's' } }),
      `secrets "s" is forbidden: User "${n1}" cannot update resource "secrets" in API group "" in the namespace "${ns}": can only read resources of this type`);
    forbidden(await asNode('GET', `/api/v1/namespaces/${ns}/secrets`),
      `secrets is forbidden: User "${n1}" cannot list resource "secrets" in API group "" in the namespace "${ns}": No Object name found`);
    forbidden(await asNode('GET', '/api/v1/secrets'),
      `secrets is forbidden: User "${n1}" cannot list resource "secrets" in API group "" at the cluster scope: can only read namespaced object of this type`);
    forbidden(await asNode('DELETE', `/api/v1/namespaces/${ns}/persistentvolumeclaims/claim`),
      `persistentvolumeclaims "claim" is forbidden: User "${n1}" cannot delete resource "persistentvolumeclaims" in API group "" in the namespace "${ns}": can only get individual resources of this type`);
  });

  it('creates tokens only for service accounts its pods run as', async () => {
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'] } };
    await created(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa-other' } });
    const ok = await asNode<{ status: { token: string } }>('POST', `/api/v1/namespaces/${ns}/serviceaccounts/sa1/token`, body);
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(ok.body.status.token).to.be.a('string');
    forbidden(await asNode('POST', `/api/v1/namespaces/${ns}/serviceaccounts/sa-other/token`, body),
      `serviceaccounts "sa-other" is forbidden: User "${n1}" cannot create resource "serviceaccounts/token" in API group "" in the namespace "${ns}": ${noRelation}`);
  });

  it('a pod moving off the graph takes its references with it', async () => {
    await created(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'late' } });
    forbidden(await asNode('GET', `/api/v1/namespaces/${ns}/secrets/late`),
      `secrets "late" is forbidden: User "${n1}" cannot get resource "secrets" in API group "" in the namespace "${ns}": ${noRelation}`);
    await created(`/api/v1/namespaces/${ns}/pods`, pod('late-pod', 'n1', 'late'));
    expect((await eventually('GET', `/api/v1/namespaces/${ns}/secrets/late`, 200)).status).to.equal(200);
    expect((await admin('DELETE', `/api/v1/namespaces/${ns}/pods/late-pod?gracePeriodSeconds=0`)).status).to.equal(200);
    expect((await eventually('GET', `/api/v1/namespaces/${ns}/secrets/late`, 403)).status).to.equal(403);
  });

  it('leases and CSINodes only under its own name; its Node and pods by the system:node rules', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
    const mine = await asNode('POST', leases, { metadata: { name: 'n1' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40 } });
    expect(mine.status, JSON.stringify(mine.body)).to.equal(201);
    expect((await asNode('GET', `${leases}/n1`)).status).to.equal(200);
    forbidden(await asNode('GET', `${leases}/n2`),
      `leases.coordination.k8s.io "n2" is forbidden: User "${n1}" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node`);
    forbidden(await asNode('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/n1`),
      `leases.coordination.k8s.io "n1" is forbidden: User "${n1}" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "${ns}": can only access leases in the "kube-node-lease" system namespace`);
    forbidden(await asNode('GET', '/apis/storage.k8s.io/v1/csinodes/n2'),
      `csinodes.storage.k8s.io "n2" is forbidden: User "${n1}" cannot get resource "csinodes" in API group "storage.k8s.io" at the cluster scope: can only access CSINode with the same name as the requesting node`);
    expect((await asNode('POST', '/api/v1/nodes', { metadata: { name: 'n1' } })).status).to.equal(201);
    expect((await asNode('GET', `/api/v1/pods?fieldSelector=${encodeURIComponent('spec.nodeName=n1')}`)).status).to.equal(200);
    forbidden(await asNode('DELETE', `/api/v1/namespaces/${ns}`),
      `namespaces "${ns}" is forbidden: User "${n1}" cannot delete resource "namespaces" in API group "" in the namespace "${ns}"`);
  });
});
