// The node-facing connect subresources against a fake kubelet on 127.0.0.1: pods/log
// (options, validation, streaming, kubelet errors), exec/attach/portforward (upgrade
// relayed byte for byte over a raw TLS socket), and nodes/, pods/, services/proxy.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { request as httpsRequest } from 'node:https';
import { freePort, request, startReplicas, testEtcdClient, type Cluster, type HttpResponse } from '../harness/index.js';
import { fakeKubeletNode, startFakeKubelet, type FakeKubelet } from '../harness/fake-kubelet.js';

describe('node-facing connect subresources', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  let kubelet: FakeKubelet;
  let deadPort: number;
  const ns = 'np-' + Date.now().toString(36);
  const call = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const pod = (name: string, containers: string[], nodeName?: string, init: string[] = []) => ({
    metadata: { name },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: containers.map((c) => ({ name: c, image: 'busybox', ports: [{ containerPort: 8080 }] })),
      ...(init.length > 0 ? { initContainers: init.map((c) => ({ name: c, image: 'busybox' })) } : {}),
    },
  });
  const create = async (path: string, body: unknown) => {
    const res = await call('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };
  const lastKubeletRequest = () => kubelet.requests[kubelet.requests.length - 1];

  before(async () => {
    kubelet = await startFakeKubelet();
    deadPort = await freePort();
    cluster = await startReplicas(1, { extraArgs: kubelet.apiserverArgs, authorizationMode: 'RBAC', tokens: [{ token: 'viewer-token', name: 'viewer' }] });
    await create('/api/v1/namespaces', { metadata: { name: ns } });
    await create('/api/v1/nodes', fakeKubeletNode('kn1', kubelet.port));
    await create('/api/v1/nodes', fakeKubeletNode('kn-dead', deadPort));
    await create('/api/v1/nodes', { metadata: { name: 'kn-noaddr' } });
    await create('/api/v1/nodes', { metadata: { name: 'kn-far' }, status: { addresses: [{ type: 'InternalIP', address: '192.0.2.1' }] } });
    await create(`/api/v1/namespaces/${ns}/pods`, pod('one', ['app'], 'kn1'));
    await create(`/api/v1/namespaces/${ns}/pods`, pod('two', ['a', 'b'], 'kn1', ['init']));
    await create(`/api/v1/namespaces/${ns}/pods`, pod('pending', ['app']));
    await create(`/api/v1/namespaces/${ns}/pods`, pod('dead', ['app'], 'kn-dead'));
    await create(`/api/v1/namespaces/${ns}/pods`, pod('noaddr', ['app'], 'kn-noaddr'));
    await create(`/api/v1/namespaces/${ns}/pods`, pod('lost', ['app'], 'nowhere'));
  });
  after(async () => { await cluster?.stop(); await kubelet?.stop(); });

  it('authorizes logs and proxy GETs as get and exec POSTs as create on the subresource', async () => {
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      metadata: { name: 'log-reader' }, rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get'] }],
    });
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'viewer-logs' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'log-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'viewer' }],
    });
    const as = (method: string, path: string) => request<any>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor('viewer'), method });
    let res = await as('GET', `/api/v1/namespaces/${ns}/pods/one/log`);
    for (let i = 0; i < 50 && res.status === 403; i++) { await new Promise((r) => setTimeout(r, 100)); res = await as('GET', `/api/v1/namespaces/${ns}/pods/one/log`); }
    expect(res.status, res.text).to.equal(200);
    res = await as('POST', `/api/v1/namespaces/${ns}/pods/one/exec?command=ls`);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal(`pods "one" is forbidden: User "viewer" cannot create resource "pods/exec" in API group "" in the namespace "${ns}"`);
    res = await as('GET', `/api/v1/namespaces/${ns}/pods/one/exec?command=ls`);
    expect(res.body.message).to.equal(`pods "one" is forbidden: User "viewer" cannot get resource "pods/exec" in API group "" in the namespace "${ns}"`);
    res = await as('GET', '/api/v1/nodes/kn1/proxy/metrics');
    expect(res.body.message).to.equal('nodes "kn1" is forbidden: User "viewer" cannot get resource "nodes/proxy" in API group "" at the cluster scope');
  });

  describe('pods/log', () => {
    it('reads the only container\'s log from the kubelet with the kubelet client certificate', async () => {
      const res = await call('GET', `/api/v1/namespaces/${ns}/pods/one/log`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/plain');
      expect(res.text).to.equal(`log ${ns}/one/app \n`);
      expect(lastKubeletRequest().url).to.equal(`/containerLogs/${ns}/one/app`);
      expect(lastKubeletRequest().clientCN).to.equal('kube-apiserver-kubelet-client');
    });

    it('passes the log options on as the kubelet\'s query', async () => {
      const res = await call('GET', `/api/v1/namespaces/${ns}/pods/two/log?container=b&timestamps=true&tailLines=5&limitBytes=100&sinceSeconds=10&previous=1&follow=false`);
      expect(res.status).to.equal(200);
      expect(lastKubeletRequest().url).to.equal(`/containerLogs/${ns}/two/b?limitBytes=100&previous=true&sinceSeconds=10&tailLines=5&timestamps=true`);
      await call('GET', `/api/v1/namespaces/${ns}/pods/one/log?sinceTime=2024-01-02T03:04:05Z`);
      expect(lastKubeletRequest().url).to.equal(`/containerLogs/${ns}/one/app?sinceTime=2024-01-02T03%3A04%3A05Z`);
    });

    it('asks for a container when the pod has several, and refuses unknown ones', async () => {
      let res = await call('GET', `/api/v1/namespaces/${ns}/pods/two/log`);
      expect(res.status).to.equal(400);
      expect(res.body.reason).to.equal('BadRequest');
      expect(res.body.message).to.equal('a container name must be specified for pod two, choose one of: [a b] or one of the init containers: [init]');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/two/log?container=zz`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('container zz is not valid for pod two');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/two/log?container=init`);
      expect(res.status).to.equal(200);
    });

    it('validates the options as upstream', async () => {
      let res = await call('GET', `/api/v1/namespaces/${ns}/pods/one/log?tailLines=-1`);
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('PodLogOptions "one" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/one/log?sinceSeconds=5&sinceTime=2024-01-02T03:04:05Z`);
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('PodLogOptions "one" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/one/log?limitBytes=abc`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('strconv.ParseInt: parsing "abc": invalid syntax');
      res = await call('PUT', `/api/v1/namespaces/${ns}/pods/one/log`, {});
      expect(res.status).to.equal(405);
    });

    it('answers an empty log for a pod without a node, and upstream\'s errors for missing or unreachable kubelets', async () => {
      let res = await call('GET', `/api/v1/namespaces/${ns}/pods/pending/log`);
      expect(res.status).to.equal(200);
      expect(res.text).to.equal('');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/lost/log`);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('nodes "nowhere" not found');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/noaddr/log`);
      expect(res.status).to.equal(500);
      expect(res.body.message).to.equal('no preferred addresses found; known addresses: []');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/dead/log?follow=true`);
      expect(res.status).to.equal(500);
      expect(res.body.reason).to.equal(undefined);
      expect(res.body.message).to.equal(`Get "https://127.0.0.1:${deadPort}/containerLogs/${ns}/dead/app?follow=true": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`);
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/missing/log`);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('pods "missing" not found');
    });

    it('turns the kubelet\'s error answers into Status errors', async () => {
      await create(`/api/v1/namespaces/${ns}/pods`, pod('errs', ['missing', 'waiting'], 'kn1'));
      let res = await call('GET', `/api/v1/namespaces/${ns}/pods/errs/log?container=missing`);
      expect(res.status).to.equal(404);
      expect(res.body).to.include({ reason: 'NotFound', message: 'the server could not find the requested resource ( pods/log errs)' });
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/errs/log?container=waiting`);
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ reason: 'BadRequest', message: 'container "waiting" in pod "errs" is waiting to start: ContainerCreating' });
    });

    it('streams a followed log as the kubelet writes it, without buffering', async () => {
      const creds = cluster.credentialsFor();
      const url = new URL(`${cluster.urls[0]}/api/v1/namespaces/${ns}/pods/one/log?follow=true`);
      const seen: string[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        const req = httpsRequest(url, { ca: creds.ca, cert: creds.cert, key: creds.key }, (res) => {
          expect(res.statusCode).to.equal(200);
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            seen.push(d);
            // Lines arrive while the kubelet still holds the stream open; then release it.
            if (seen.join('').includes('follow line 2')) kubelet.endFollows();
          });
          res.on('end', () => resolve());
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      await ended;
      const all = seen.join('');
      expect(all).to.match(/^log .*\nfollow line 1\nfollow line 2\n/);
      expect(all.endsWith('end of follow\n')).to.equal(true);
    });

    it('closes the kubelet stream when the client goes away', async () => {
      const creds = cluster.credentialsFor();
      const url = new URL(`${cluster.urls[0]}/api/v1/namespaces/${ns}/pods/one/log?follow=true`);
      await new Promise<void>((resolve, reject) => {
        const req = httpsRequest(url, { ca: creds.ca, cert: creds.cert, key: creds.key, agent: false }, (res) => {
          res.once('data', () => { req.destroy(); resolve(); });
        });
        req.on('error', () => undefined);
        setTimeout(() => reject(new Error('no data')), 5000);
        req.end();
      });
      const deadline = Date.now() + 5000;
      while (kubelet.openFollows() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(kubelet.openFollows()).to.equal(0);
    });
  });

  describe('exec, attach and portforward', () => {
    it('refuse requests that are not upgrades, and check container and node first', async () => {
      let res = await call('POST', `/api/v1/namespaces/${ns}/pods/one/exec?command=ls&stdout=true`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Upgrade request required');
      res = await call('POST', `/api/v1/namespaces/${ns}/pods/two/exec?command=ls`);
      expect(res.body.message).to.equal('a container name must be specified for pod two, choose one of: [a b] or one of the init containers: [init]');
      res = await call('POST', `/api/v1/namespaces/${ns}/pods/pending/attach?stdout=true`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('pod pending does not have a host assigned');
      res = await call('POST', `/api/v1/namespaces/${ns}/pods/pending/portforward?ports=80`);
      expect(res.body.message).to.equal('pod pending does not have a host assigned');
      res = await call('DELETE', `/api/v1/namespaces/${ns}/pods/one/exec`);
      expect(res.status).to.equal(405);
    });

    /** A raw upgrade through the apiserver: the response head, then what the kubelet echoes. */
    async function upgrade(path: string, method = 'POST', early = Buffer.alloc(0)): Promise<{ head: string; socket: TLSSocket; rest: Buffer }> {
      const creds = cluster.credentialsFor();
      const u = new URL(cluster.urls[0]);
      const socket = tlsConnect({ host: u.hostname, port: Number(u.port), ca: creds.ca, cert: creds.cert, key: creds.key });
      await new Promise<void>((resolve, reject) => { socket.once('secureConnect', resolve); socket.once('error', reject); });
      socket.write(Buffer.concat([Buffer.from([
        `${method} ${path} HTTP/1.1`, `Host: ${u.host}`, 'Connection: Upgrade', 'Upgrade: SPDY/3.1',
        'X-Stream-Protocol-Version: v4.channel.k8s.io', 'X-Stream-Protocol-Version: v3.channel.k8s.io', 'Content-Length: 0', '', '',
      ].join('\r\n')), early]));
      let buf = Buffer.alloc(0);
      return new Promise((resolve, reject) => {
        const onData = (d: Buffer) => {
          buf = Buffer.concat([buf, d]);
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          socket.off('data', onData);
          resolve({ head: buf.subarray(0, end).toString('latin1'), socket, rest: buf.subarray(end + 4) });
        };
        socket.on('data', onData);
        socket.once('error', reject);
        setTimeout(() => reject(new Error(`no upgrade answer: ${buf.toString('latin1')}`)), 10_000);
      });
    }

    function readExactly(socket: TLSSocket, initial: Buffer, n: number): Promise<Buffer> {
      let buf = initial;
      return new Promise((resolve, reject) => {
        if (buf.length >= n) { resolve(buf.subarray(0, n)); return; }
        socket.on('data', (d: Buffer) => { buf = Buffer.concat([buf, d]); if (buf.length >= n) resolve(buf.subarray(0, n)); });
        socket.once('error', reject);
        setTimeout(() => reject(new Error(`only ${buf.length} of ${n} bytes`)), 10_000);
      });
    }

    it('exec: forwards the upgrade to the kubelet, relays the 101 and then every byte both ways', async () => {
      const early = Buffer.from('bytes sent with the request head|');
      const { head, socket, rest } = await upgrade(`/api/v1/namespaces/${ns}/pods/one/exec?command=echo&command=hi&stdout=true&stderr=true&tty=false`, 'POST', early);
      try {
        expect(head.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols');
        expect(head).to.include('X-Fake-Kubelet: upgraded');
        expect(head).to.include('X-Stream-Protocol-Version: v4.channel.k8s.io');
        const kreq = lastKubeletRequest();
        expect(kreq.url).to.equal(`/exec/${ns}/one/app?command=echo&command=hi&error=1&output=1`);
        expect(kreq.method).to.equal('POST');
        expect(kreq.clientCN).to.equal('kube-apiserver-kubelet-client');
        expect(kreq.headers.upgrade).to.equal('SPDY/3.1');
        expect(kreq.headers['x-stream-protocol-version']).to.equal('v4.channel.k8s.io, v3.channel.k8s.io');
        const payload = randomBytes(256 * 1024);
        socket.write(payload);
        const echoed = await readExactly(socket, rest, early.length + payload.length);
        expect(echoed.equals(Buffer.concat([early, payload]))).to.equal(true);
      } finally {
        socket.destroy();
      }
    });

    it('attach and portforward go to the kubelet\'s /attach and /portForward', async () => {
      let r = await upgrade(`/api/v1/namespaces/${ns}/pods/two/attach?container=b&stdin=true&stdout=true`, 'GET');
      r.socket.destroy();
      expect(r.head.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols');
      expect(lastKubeletRequest().url).to.equal(`/attach/${ns}/two/b?input=1&output=1`);
      r = await upgrade(`/api/v1/namespaces/${ns}/pods/one/portforward?ports=8080,9090`);
      r.socket.destroy();
      expect(r.head.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols');
      expect(lastKubeletRequest().url).to.equal(`/portForward/${ns}/one?port=8080&port=9090`);
    });

    it('an unreachable kubelet is a 500 with the dial error, not a hang', async () => {
      const r = await upgrade(`/api/v1/namespaces/${ns}/pods/dead/exec?command=ls&stdout=true`);
      r.socket.destroy();
      expect(r.head.split('\r\n')[0]).to.equal('HTTP/1.1 500 Internal Server Error');
      const body = await readBody(r.socket, r.rest);
      expect(JSON.parse(body).message).to.equal(`dial tcp 127.0.0.1:${deadPort}: connect: connection refused`);
    });

    function readBody(socket: TLSSocket, initial: Buffer): Promise<string> {
      if (initial.length > 0 && initial.toString().trim().endsWith('}')) return Promise.resolve(initial.toString());
      return new Promise((resolve) => {
        let buf = initial;
        socket.on('data', (d: Buffer) => { buf = Buffer.concat([buf, d]); });
        socket.on('close', () => resolve(buf.toString()));
      });
    }
  });

  describe('proxy', () => {
    before(async () => {
      // pod "one" has the address its Endpoints name; the service's port "http" is the fake kubelet.
      const status = await call('GET', `/api/v1/namespaces/${ns}/pods/one`);
      status.body.status = { podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] };
      expect((await call('PUT', `/api/v1/namespaces/${ns}/pods/one/status`, status.body)).status).to.equal(200);
      await create(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'web' }, spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }], selector: { app: 'web' } } });
      await create(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'empty' }, spec: { ports: [{ port: 80 }], selector: { app: 'none' } } });
      await putEndpoints('web', [{ addresses: [{ ip: '127.0.0.1', targetRef: { kind: 'Pod', namespace: ns, name: 'one' } }], ports: [{ name: 'http', port: kubelet.port }] }]);
      await putEndpoints('empty', []);
    });

    /**
     * Straight into storage as JSON: validation refuses loopback endpoint addresses (as
     * upstream's does), and the only address a test may listen on is 127.0.0.1.
     */
    async function putEndpoints(name: string, subsets: unknown[]): Promise<void> {
      const body = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: ns }, subsets };
      const refused = await call('POST', `/api/v1/namespaces/${ns}/endpoints`, body);
      if (subsets.length > 0) expect(refused.status).to.equal(422);
      else if (refused.status === 201) return;
      const etcd = await testEtcdClient();
      try {
        await etcd.put(`${cluster.etcdPrefix}/services/endpoints/${ns}/${name}`).value(JSON.stringify({ ...body, metadata: { ...body.metadata, uid: name, creationTimestamp: '2024-01-01T00:00:00Z' } }));
      } finally {
        etcd.close();
      }
    }

    it('services/proxy forwards method, path, query, body and end-to-end headers to a ready endpoint', async () => {
      const base = `/api/v1/namespaces/${ns}/services/https:web:http/proxy`;
      const res = await call('POST', `${base}/some/path?x=1&y=two`, 'hello body', { 'Content-Type': 'text/plain', 'X-Custom': 'v', 'Keep-Alive': 'timeout=5' });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers['x-kubelet']).to.equal('fake');
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
      expect(res.body).to.include({ method: 'POST', url: '/some/path?x=1&y=two', body: 'hello body' });
      expect(res.body.headers).to.include({ 'x-custom': 'v', 'content-type': 'text/plain', host: `127.0.0.1:${kubelet.port}`, 'x-forwarded-uri': `${base}/some/path` });
      expect(res.body.headers).to.not.have.property('keep-alive');
      expect(res.body.headers).to.not.have.property('authorization');
      // Pods and services are not sent the kubelet client certificate.
      expect(lastKubeletRequest().clientCN).to.equal('');
      const byNumber = await call('GET', `/api/v1/namespaces/${ns}/services/https:web:80/proxy/`);
      expect(byNumber.status).to.equal(200);
      expect(byNumber.body.url).to.equal('/');
    });

    it('services/proxy: a bare proxy path redirects, and missing ports or endpoints are 503', async () => {
      let res = await call('GET', `/api/v1/namespaces/${ns}/services/https:web:http/proxy?a=b`);
      expect(res.status).to.equal(301);
      expect(res.headers.location).to.equal(`/api/v1/namespaces/${ns}/services/https:web:http/proxy/?a=b`);
      res = await call('GET', `/api/v1/namespaces/${ns}/services/web:81/proxy/`);
      expect(res.status).to.equal(503);
      expect(res.body.message).to.equal('no service port 81 found for service "web"');
      res = await call('GET', `/api/v1/namespaces/${ns}/services/empty/proxy/`);
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ reason: 'ServiceUnavailable', message: 'no endpoints available for service "empty"' });
      res = await call('GET', `/api/v1/namespaces/${ns}/services/a:b:c:d/proxy/`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('invalid service request "a:b:c:d"');
    });

    it('pods/proxy and nodes/proxy refuse loopback addresses as upstream', async () => {
      let res = await call('GET', `/api/v1/namespaces/${ns}/pods/one/proxy/`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('address not allowed');
      res = await call('GET', `/api/v1/nodes/kn1/proxy/stats`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('address not allowed');
      res = await call('GET', `/api/v1/namespaces/${ns}/pods/pending/proxy/`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('address not allowed');
    });

    it('nodes/proxy to a kubelet that cannot be reached is a 503 within the kubelet timeout', async () => {
      const t0 = Date.now();
      const res = await call('GET', `/api/v1/nodes/kn-far/proxy/metrics`);
      expect(Date.now() - t0).to.be.below(10_000);
      expect(res.status).to.equal(503);
      expect(res.body.reason).to.equal('ServiceUnavailable');
      expect(res.body.message).to.match(/^error trying to reach service: dial tcp 192\.0\.2\.1:10250: /);
    });
  });
});
