// The aggregation layer on two replicas against a test extension server (wardle): an
// APIService and ExternalName Service created through replica 0 become Available and
// show in replica 1's discovery; requests reach the extension server with the caller's
// identity through either replica; unauthorized callers stop at the replica; watches
// stream through; unavailable APIServices answer 503 and their condition says why.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFrontProxyPki, eventually, freePort, frontProxyArgs, request, startExtensionServer, startReplicas, watch,
  type Cluster, type ExtensionServer, type HttpResponse,
} from '../harness/index.js';

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('aggregation layer (kube-aggregator)', function () {
  this.timeout(120_000);
  const ns = 'wardle-ns';
  const flunders = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
  let dir: string;
  let cluster: Cluster;
  let ext: ExtensionServer;
  const call = <T = any>(i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const create = async (path: string, body: unknown) => {
    const res = await call(0, 'POST', path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };
  const apiService = (group: string, service: string, port: number, caBundle?: string) => ({
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1alpha1.${group}` },
    spec: {
      group, version: 'v1alpha1', service: { namespace: ns, name: service, port },
      ...(caBundle ? { caBundle } : { insecureSkipTLSVerify: true }), groupPriorityMinimum: 2000, versionPriority: 10,
    },
  });
  const condition = async (i: number, name: string) => {
    const res = await call(i, 'GET', `/apis/apiregistration.k8s.io/v1/apiservices/${name}`);
    return (res.body.status?.conditions ?? []).find((c: any) => c.type === 'Available');
  };
  // admin impersonating alice: the extension server must see alice, never admin's credentials.
  const asAlice = {
    'Impersonate-User': 'alice', 'Impersonate-Group': 'devs',
    'Impersonate-Extra-scopes': 'read', 'Impersonate-Extra-example.com%2fteam': 'blue',
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregation-'));
    const fp = await createFrontProxyPki(dir);
    ext = await startExtensionServer({ service: 'wardle', namespace: ns, frontProxy: fp });
    ext.addFlunder('default', 'first');
    cluster = await startReplicas(2, { extraArgs: frontProxyArgs(fp), authorizationMode: 'RBAC', tokens: [{ token: 'nobody-token', name: 'nobody' }] });
    await create('/api/v1/namespaces', { metadata: { name: ns } });
    await create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'flunder-reader' }, rules: [{ apiGroups: ['wardle.example.com'], resources: ['flunders'], verbs: ['get', 'list', 'watch'] }],
    });
    await create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: 'devs-read-flunders' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'flunder-reader' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
    });
  });
  after(async () => {
    await cluster?.stop();
    await ext?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('makes an APIService created on replica 0 Available and lists its group in replica 1\'s discovery', async () => {
    const started = Date.now();
    await create(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'wardle' }, spec: { type: 'ExternalName', externalName: 'localhost' },
    });
    await create('/apis/apiregistration.k8s.io/v1/apiservices', apiService('wardle.example.com', 'wardle', ext.port, ext.caBundle));
    const available = await eventually('Available', async () => {
      const c = await condition(1, 'v1alpha1.wardle.example.com');
      return c?.status === 'True' ? c : undefined;
    });
    expect(available).to.include({ reason: 'Passed', message: 'all checks passed' });
    // The availability check came as the aggregator, with the proxy client certificate.
    const check = ext.requestsTo('/apis/wardle.example.com/v1alpha1').find((r) => r.user?.name === 'system:kube-aggregator');
    expect(check?.user?.groups).to.deep.equal(['system:masters']);
    expect(check?.clientCN).to.equal('front-proxy-client');

    const legacy = await eventually('/apis lists wardle', async () => {
      const res = await call(1, 'GET', '/apis');
      return res.body.groups.find((g: any) => g.name === 'wardle.example.com') ? res.body : undefined;
    });
    const names: string[] = legacy.groups.map((g: any) => g.name);
    // groupPriorityMinimum 2000 sorts it after every built-in group (all above 15000).
    expect(names.at(-1)).to.equal('wardle.example.com');
    expect(legacy.groups.at(-1)).to.deep.equal({
      name: 'wardle.example.com', versions: [{ groupVersion: 'wardle.example.com/v1alpha1', version: 'v1alpha1' }],
      preferredVersion: { groupVersion: 'wardle.example.com/v1alpha1', version: 'v1alpha1' },
    });
    const group = await call(1, 'GET', '/apis/wardle.example.com');
    expect(group.status).to.equal(200);
    expect(group.body).to.include({ kind: 'APIGroup', apiVersion: 'v1', name: 'wardle.example.com' });

    const aggregated = await eventually('aggregated discovery lists wardle', async () => {
      const res = await call(1, 'GET', '/apis', undefined, { Accept: aggregatedAccept });
      const g = res.body.items?.find((x: any) => x.metadata?.name === 'wardle.example.com');
      return g?.versions?.[0]?.freshness === 'Current' ? g : undefined;
    });
    expect(Date.now() - started).to.be.below(10_000);
    expect(aggregated.versions).to.have.length(1);
    expect(aggregated.versions[0]).to.deep.include({ version: 'v1alpha1', freshness: 'Current' });
    expect(aggregated.versions[0].resources[0]).to.deep.include({
      resource: 'flunders', scope: 'Namespaced', responseKind: { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' },
    });
    const res = await call(1, 'GET', '/apis', undefined, { Accept: aggregatedAccept });
    expect(res.headers['content-type']).to.equal('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    // The ETag covers the merged document.
    const again = await call(1, 'GET', '/apis', undefined, { Accept: aggregatedAccept, 'If-None-Match': String(res.headers.etag) });
    expect(again.status).to.equal(304);
  });

  it('proxies requests through both replicas with the caller\'s identity', async () => {
    for (const i of [0, 1]) {
      const before = ext.requestsTo(flunders).length;
      const res = await call(i, 'GET', `${flunders}?limit=5&fieldSelector=metadata.name%3Dfirst`, undefined, asAlice);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.kind).to.equal('FlunderList');
      expect(res.body.items.map((f: any) => f.metadata.name)).to.deep.equal(['first']);
      const seen = ext.requestsTo(flunders).slice(before);
      expect(seen).to.have.length(1);
      expect(seen[0]!.user).to.deep.equal({
        name: 'alice', groups: ['devs', 'system:authenticated'], extra: { scopes: ['read'], 'example.com/team': ['blue'] },
      });
      expect(seen[0]!.clientCN).to.equal('front-proxy-client');
      expect(seen[0]!.query).to.deep.equal({ fieldSelector: 'metadata.name=first', limit: '5' });
      expect(Object.keys(seen[0]!.headers).filter((h) => h === 'authorization' || h.startsWith('impersonate-'))).to.deep.equal([]);
    }
    const one = await call(1, 'GET', `${flunders}/first`);
    expect(one.status).to.equal(200);
    expect(one.body.metadata).to.include({ name: 'first', namespace: 'default' });
    const missing = await call(0, 'GET', `${flunders}/nope`);
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('flunders.wardle.example.com "nope" not found');
    const resources = await call(1, 'GET', '/apis/wardle.example.com/v1alpha1');
    expect(resources.status).to.equal(200);
    expect(resources.body.resources.map((r: any) => r.name)).to.deep.equal(['flunders']);
  });

  it('refuses unauthenticated and unauthorized callers before proxying', async () => {
    const before = ext.requestsTo(flunders).length;
    const badToken = await request<any>(`${cluster.urls[1]}${flunders}`, { token: 'wrong-token' });
    expect(badToken.status).to.equal(401);
    const anonymous = await request<any>(`${cluster.urls[1]}${flunders}`, {});
    expect(anonymous.status).to.equal(403);
    expect(anonymous.body.message).to.equal(
      'flunders.wardle.example.com is forbidden: User "system:anonymous" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "default"');
    const nobody = await request<any>(`${cluster.urls[0]}${flunders}`, { token: 'nobody-token' });
    expect(nobody.status).to.equal(403);
    expect(nobody.body.message).to.equal(
      'flunders.wardle.example.com is forbidden: User "nobody" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "default"');
    // A client cannot smuggle an identity in X-Remote-* headers.
    const smuggled = await request<any>(`${cluster.urls[0]}${flunders}`, { token: 'nobody-token', headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' } });
    expect(smuggled.status).to.equal(403);
    expect(ext.requestsTo(flunders).length).to.equal(before);
  });

  it('streams a watch through the proxy', async () => {
    const w = await watch<any>(`${cluster.urls[1]}${flunders}?watch=true`, { ...cluster.credentialsFor(), headers: asAlice });
    try {
      const first = await w.next(5000);
      expect(first).to.deep.include({ type: 'ADDED' });
      expect(first?.object.metadata.name).to.equal('first');
      ext.addFlunder('default', 'second');
      const second = await w.next(5000);
      expect(second?.type).to.equal('ADDED');
      expect(second?.object.metadata.name).to.equal('second');
    } finally {
      w.close();
    }
  });

  it('passes connection upgrades through and joins the two sockets', async () => {
    const creds = cluster.credentialsFor();
    const u = new URL(cluster.urls[1]!);
    const socket = tlsConnect({ host: u.hostname, port: Number(u.port), ca: creds.ca, cert: creds.cert, key: creds.key });
    try {
      await new Promise<void>((resolve, reject) => { socket.once('secureConnect', resolve); socket.once('error', reject); });
      socket.write([
        `GET ${flunders}/first/attach?stdout=true HTTP/1.1`, `Host: ${u.host}`, 'Connection: Upgrade', 'Upgrade: SPDY/3.1', 'Content-Length: 0', '', '',
      ].join('\r\n'));
      const payload = randomBytes(64 * 1024);
      let buf = Buffer.alloc(0);
      let sent = false;
      const received = await new Promise<{ head: string; body: Buffer }>((resolve, reject) => {
        socket.on('data', (d: Buffer) => {
          buf = Buffer.concat([buf, d]);
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          if (!sent) { sent = true; socket.write(payload); }
          if (buf.length - end - 4 >= payload.length) resolve({ head: buf.subarray(0, end).toString('latin1'), body: buf.subarray(end + 4) });
        });
        socket.once('error', reject);
        setTimeout(() => reject(new Error(`no upgrade answer: ${buf.subarray(0, 300).toString('latin1')}`)), 10_000);
      });
      expect(received.head.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols');
      expect(received.head).to.include('X-Extension-Server: upgraded');
      expect(received.body.equals(payload)).to.equal(true);
      const seen = ext.requestsTo(`${flunders}/first/attach`).at(-1);
      expect(seen?.user?.name).to.equal('admin');
      expect(seen?.user?.groups).to.deep.equal(['system:masters', 'system:authenticated']);
      expect(seen?.headers.upgrade).to.equal('SPDY/3.1');
    } finally {
      socket.destroy();
    }
  });

  it('answers 503 for unavailable APIServices and says why in their condition', async () => {
    await create('/apis/apiregistration.k8s.io/v1/apiservices', apiService('missing.example.com', 'absent', 443));
    const notFound = await eventually('ServiceNotFound', async () => {
      const c = await condition(0, 'v1alpha1.missing.example.com');
      return c?.reason === 'ServiceNotFound' ? c : undefined;
    });
    expect(notFound).to.include({ status: 'False', message: `service/absent in "${ns}" is not present` });
    const res = await eventually('503 from replica 1', async () => {
      const r = await call(1, 'GET', '/apis/missing.example.com/v1alpha1/namespaces/default/things');
      return r.status === 503 ? r : undefined;
    });
    expect(res.text).to.equal('service unavailable\n');
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    // Aggregated discovery still lists its version, with no resources and marked stale.
    const stale = await eventually('a stale entry', async () => {
      const r = await call(1, 'GET', '/apis', undefined, { Accept: aggregatedAccept });
      return r.body.items.find((g: any) => g.metadata.name === 'missing.example.com');
    });
    expect(stale.versions).to.deep.equal([{ version: 'v1alpha1', freshness: 'Stale' }]);

    // A ClusterIP Service without Endpoints.
    await create(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'noeps' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await create('/apis/apiregistration.k8s.io/v1/apiservices', apiService('noeps.example.com', 'noeps', 443));
    const noEndpoints = await eventually('EndpointsNotFound', async () => {
      const c = await condition(1, 'v1alpha1.noeps.example.com');
      return c?.reason === 'EndpointsNotFound' ? c : undefined;
    });
    expect(noEndpoints).to.include({ status: 'False', message: `cannot find endpoints for service/noeps in "${ns}"` });
    const wrongPort = apiService('port.example.com', 'noeps', 8443);
    await create('/apis/apiregistration.k8s.io/v1/apiservices', wrongPort);
    const portError = await eventually('ServicePortError', async () => {
      const c = await condition(1, 'v1alpha1.port.example.com');
      return c?.reason === 'ServicePortError' ? c : undefined;
    });
    expect(portError.message).to.equal(`service/noeps in "${ns}" is not listening on port 8443`);

    // A service nobody listens behind: the discovery check fails.
    const dead = await freePort();
    await create(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'dead' }, spec: { type: 'ExternalName', externalName: 'localhost' } });
    await create('/apis/apiregistration.k8s.io/v1/apiservices', apiService('dead.example.com', 'dead', dead));
    const failed = await eventually('FailedDiscoveryCheck', async () => {
      const c = await condition(0, 'v1alpha1.dead.example.com');
      return c?.reason === 'FailedDiscoveryCheck' ? c : undefined;
    }, 20_000);
    expect(failed.status).to.equal('False');
    expect(failed.message).to.match(new RegExp(
      `^failing or missing response from https://localhost:${dead}/apis/dead\\.example\\.com/v1alpha1: Get "https://localhost:${dead}/apis/dead\\.example\\.com/v1alpha1": dial tcp .*:${dead}: connect: connection refused$`));
    // Unavailable groups are still listed in the legacy /apis, as upstream lists every APIService.
    const apis = await call(1, 'GET', '/apis');
    expect(apis.body.groups.map((g: any) => g.name)).to.include('dead.example.com');
    // Local APIServices stay Local.
    expect(await condition(1, 'v1.apps')).to.include({ status: 'True', reason: 'Local', message: 'Local APIServices are always available' });
  });
});
