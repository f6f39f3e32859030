// kubectl v1.28 against the node-facing subresources with a fake kubelet: `kubectl logs`
// (plain, with options, and -f until the kubelet ends the stream), the error kubectl shows
// for an unreachable kubelet, and `kubectl get --raw` through nodes/ and services/proxy.
import { expect } from 'chai';
import { freePort, kubectl, kubectlStream, request, startReplicas, testEtcdClient, type Cluster, type KubectlResult } from '../harness/index.js';
import { fakeKubeletNode, startFakeKubelet, type FakeKubelet } from '../harness/fake-kubelet.js';

describe('e2e: kubectl logs and proxy through a kubelet', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let kubelet: FakeKubelet;
  let deadPort: number;
  const ns = `e2e-np-${Date.now().toString(36)}`;
  const k = (args: string[]): Promise<KubectlResult> => kubectl(['-n', ns, ...args], { kubeconfig: cluster.kubeconfigFor(0) });
  const apply = async (obj: unknown) => {
    const r = await kubectl(['apply', '-f', '-'], { kubeconfig: cluster.kubeconfigFor(0), stdin: JSON.stringify(obj) });
    expect(r.code, r.stderr).to.equal(0);
  };
  const pod = (name: string, containers: string[], nodeName: string) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns },
    spec: { nodeName, containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
  });

  before(async () => {
    kubelet = await startFakeKubelet();
    deadPort = await freePort();
    cluster = await startReplicas(1, { extraArgs: kubelet.apiserverArgs });
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const creds = cluster.credentialsFor();
    for (const node of [fakeKubeletNode('e2e-kn', kubelet.port), fakeKubeletNode('e2e-dead', deadPort)]) {
      // Created over HTTP: the node's status (its kubelet endpoint) is set on create.
      const res = await request(`${cluster.urls[0]}/api/v1/nodes`, { ...creds, method: 'POST', body: node });
      expect(res.status, res.text).to.equal(201);
    }
    await apply(pod('web', ['app'], 'e2e-kn'));
    await apply(pod('multi', ['a', 'b'], 'e2e-kn'));
    await apply(pod('dead', ['app'], 'e2e-dead'));
  });
  after(async () => { await cluster?.stop(); await kubelet?.stop(); });

  it('kubectl logs reads the container log through the kubelet, with its options', async () => {
    let r = await k(['logs', 'web']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(`log ${ns}/web/app \n`);
    r = await k(['logs', 'multi', '-c', 'b', '--tail=3', '--timestamps']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(`log ${ns}/multi/b ?tailLines=3&timestamps=true\n`);
  });

  it('kubectl logs -f prints lines as they come and ends with the stream', async () => {
    const p = kubectlStream(['-n', ns, 'logs', '-f', 'web'], { kubeconfig: cluster.kubeconfigFor(0) });
    try {
      await p.waitFor(/follow line 2\n/, 20_000);
      kubelet.endFollows();
      await p.waitFor(/end of follow\n/, 20_000);
      expect(p.stdout()).to.match(/^log .*\?follow=true\nfollow line 1\nfollow line 2\n/);
    } finally {
      p.stop();
    }
  });

  it('kubectl shows the dial error of an unreachable kubelet', async () => {
    const r = await k(['logs', 'dead']);
    expect(r.code).to.not.equal(0);
    expect(r.stderr.trim()).to.equal(`Error from server: Get "https://127.0.0.1:${deadPort}/containerLogs/${ns}/dead/app": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`);
  });

  it('kubectl get --raw through nodes/proxy refuses a loopback kubelet as upstream', async () => {
    const r = await kubectl(['get', '--raw', '/api/v1/nodes/e2e-kn/proxy/metrics'], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code).to.not.equal(0);
    expect(r.stderr.trim()).to.equal('Error from server (BadRequest): address not allowed');
  });

  it('kubectl get --raw through services/proxy reaches the endpoint', async () => {
    const status = JSON.parse((await k(['get', 'pod', 'web', '-o', 'json'])).stdout);
    status.status = { podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] };
    const put = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/pods/web/status`, { ...cluster.credentialsFor(), method: 'PUT', body: status });
    expect(put.status, put.text).to.equal(200);
    await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: ns }, spec: { ports: [{ name: 'https', port: 443 }], selector: { app: 'web' } } });
    const eps = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: ns }, subsets: [{ addresses: [{ ip: '127.0.0.1', targetRef: { kind: 'Pod', namespace: ns, name: 'web' } }], ports: [{ name: 'https', port: kubelet.port }] }] };
    const created = await request(`${cluster.urls[0]}/api/v1/namespaces/${ns}/endpoints`, { ...cluster.credentialsFor(), method: 'POST', body: eps });
    if (created.status !== 201) {
      // Endpoints not served on this build: store the object where upstream keeps it.
      const etcd = await testEtcdClient();
      try {
        await etcd.put(`${cluster.etcdPrefix}/services/endpoints/${ns}/web`).value(JSON.stringify({ ...eps, metadata: { ...eps.metadata, uid: 'web', creationTimestamp: '2024-01-01T00:00:00Z' } }));
      } finally { etcd.close(); }
    }
    const r = await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/services/https:web:https/proxy/hello?q=1`], { kubeconfig: cluster.kubeconfigFor(0) });
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.include({ method: 'GET', url: '/hello?q=1' });
  });
});
