import { expect } from 'chai';
import Koa from 'koa';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import type { Strategy } from '../../registry/generic/strategy.js';
import { ApiserverMetrics, createMetricsHandler, etcdTypeName } from '../metrics/metrics.js';
import { parseRequestInfo } from '../request/info.js';
import { cleanDryRun, createMetricsFilter, markNonResourceRoute, reportedVerb, requestLabels } from './metrics.js';
import { requestInfoFilter } from './request-info.js';

const strategy = {} as Strategy;
function def(d: Omit<ResourceDef, 'strategy' | 'verbs'>): ResourceDef {
  return { ...d, verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'], strategy };
}

async function eventually(check: () => Promise<void> | void, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

function labelsFor(method: string, path: string, contentType = ''): ReturnType<typeof requestLabels> {
  const [p, q = ''] = path.split('?');
  const query = new URLSearchParams(q);
  return requestLabels(parseRequestInfo(method, p, query), method, query, contentType);
}

describe('pkg/endpoints/filters/metrics labels', function () {
  it('maps requests to upstream verb and scope labels', function () {
    const cases: [string, string, string, string, string][] = [
      ['GET', '/api/v1/namespaces/default/configmaps', '', 'LIST', 'namespace'],
      ['GET', '/api/v1/configmaps', '', 'LIST', 'cluster'],
      ['GET', '/api/v1/namespaces', '', 'LIST', 'cluster'],
      ['GET', '/api/v1/namespaces/default/configmaps/x', '', 'GET', 'resource'],
      ['HEAD', '/api/v1/namespaces/default/configmaps/x', '', 'GET', 'resource'],
      ['GET', '/api/v1/namespaces/default/configmaps?watch=true', '', 'WATCH', 'namespace'],
      ['GET', '/api/v1/watch/namespaces/default/configmaps', '', 'WATCH', 'namespace'],
      ['POST', '/api/v1/namespaces/default/configmaps', '', 'POST', 'resource'],
      ['PUT', '/api/v1/namespaces/default/configmaps/x', '', 'PUT', 'resource'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/x', 'application/merge-patch+json', 'PATCH', 'resource'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/x', 'application/apply-patch+yaml', 'APPLY', 'resource'],
      ['DELETE', '/api/v1/namespaces/default/configmaps/x', '', 'DELETE', 'resource'],
      ['DELETE', '/api/v1/namespaces/default/configmaps', '', 'DELETE', 'namespace'],
      ['OPTIONS', '/api/v1/namespaces/default/configmaps', '', 'other', 'namespace'],
    ];
    for (const [method, path, ct, verb, scope] of cases) {
      const l = labelsFor(method, path, ct);
      expect([l.verb, l.scope], `${method} ${path}`).to.deep.equal([verb, scope]);
    }
  });

  it('labels resource and non-resource requests', function () {
    expect(labelsFor('PUT', '/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles/r/status?dryRun=All')).to.deep.equal({
      verb: 'PUT', dry_run: 'All', group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles',
      subresource: 'status', scope: 'resource', component: 'apiserver',
    });
    expect(labelsFor('GET', '/readyz')).to.deep.equal({
      verb: 'GET', dry_run: '', group: '', version: '', resource: '', subresource: '/readyz', scope: '', component: '',
    });
    expect(labelsFor('GET', '/apis').component).to.equal('apiserver');
    expect(labelsFor('GET', '/apis?watch=1').verb).to.equal('GET');
  });

  it('cleans dryRun the way upstream does', function () {
    expect(cleanDryRun(new URLSearchParams(''))).to.equal('');
    expect(cleanDryRun(new URLSearchParams('dryRun=All'))).to.equal('All');
    expect(cleanDryRun(new URLSearchParams('dryRun=All&dryRun=All'))).to.equal('All');
    expect(cleanDryRun(new URLSearchParams('dryRun'))).to.equal('invalid');
    expect(cleanDryRun(new URLSearchParams('dryRun=true'))).to.equal('invalid');
  });

  it('prefers the verb the request-info filter computed', function () {
    const info = { ...parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams()), verb: 'watch' };
    expect(reportedVerb(info, 'GET', new URLSearchParams(), '')).to.equal('WATCH');
  });

  it('names etcd object types like upstream', function () {
    expect(etcdTypeName('', 'ConfigMap')).to.equal('*core.ConfigMap');
    expect(etcdTypeName('rbac.authorization.k8s.io', 'ClusterRoleList')).to.equal('*rbac.ClusterRoleList');
  });
});

describe('pkg/endpoints/filters/metrics filter', function () {
  let server: Server;
  let base: string;
  let metrics: ApiserverMetrics;
  let stream: PassThrough | undefined;
  let now = 0;

  before(async function () {
    metrics = new ApiserverMetrics({ now: () => now });
    const scheme = new ResourceScheme();
    scheme.register(def({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true }));
    const app = new Koa();
    app.use(createMetricsFilter({ metrics, scheme }));
    app.use(requestInfoFilter());
    const serveMetrics = createMetricsHandler(metrics);
    app.use(async (ctx) => {
      if (await serveMetrics(ctx)) return;
      if (ctx.path === '/readyz') {
        markNonResourceRoute(ctx);
        ctx.body = 'ok';
      } else if (ctx.path.startsWith('/refused/')) {
        // As the authentication filter: an answer before any endpoint.
        ctx.status = 401;
        ctx.body = 'no';
      } else if (ctx.path === '/api/v1/namespaces/default/configmaps' && ctx.query.watch) {
        stream = new PassThrough();
        ctx.body = stream;
      } else if (ctx.path === '/api/v1/namespaces/default/configmaps' && ctx.method === 'POST') {
        ctx.status = 201;
        ctx.body = '{}';
      } else if (ctx.path === '/api/v1/namespaces/default/configmaps/slow') {
        await new Promise((r) => setTimeout(r, 60));
        ctx.status = 409;
        ctx.body = '{}';
      } else {
        ctx.status = 404;
        ctx.body = 'nope';
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(function () {
    server.closeAllConnections();
    server.close();
  });

  async function count(labels: Record<string, string>): Promise<number> {
    const { values } = await metrics.requestTotal.get();
    return values
      .filter((v) => Object.entries(labels).every(([k, x]) => (v.labels as Record<string, string | number | undefined>)[k] === x))
      .reduce((a, v) => a + v.value, 0);
  }

  it('counts requests with upstream labels and the response code', async function () {
    await (await fetch(`${base}/api/v1/namespaces/default/configmaps?dryRun=All`, { method: 'POST', body: '{}' })).text();
    await eventually(async () => {
      expect(await count({
        verb: 'POST', dry_run: 'All', group: '', version: 'v1', resource: 'configmaps', subresource: '',
        scope: 'resource', component: 'apiserver', code: '201',
      })).to.equal(1);
    });
    await (await fetch(`${base}/readyz`)).text();
    await eventually(async () => {
      expect(await count({ verb: 'GET', subresource: '/readyz', component: '', scope: '', code: '200' })).to.equal(1);
    });
  });

  it('observes latency in seconds in upstream buckets', async function () {
    await (await fetch(`${base}/api/v1/namespaces/default/configmaps/slow`)).text();
    await eventually(async () => {
      const { values } = await metrics.requestDuration.get();
      const sum = values.find((v) => v.metricName === 'apiserver_request_duration_seconds_sum' && v.labels.verb === 'GET' && v.labels.resource === 'configmaps');
      expect(sum?.value).to.be.greaterThan(0.05).and.lessThan(5);
    });
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).to.include('# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.');
    expect(text).to.include('# TYPE apiserver_request_duration_seconds histogram');
    expect(text).to.match(/apiserver_request_duration_seconds_bucket\{le="0\.005",verb="GET",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver"\} 0/);
    expect(text).to.include('le="60",verb="GET"');
    expect(text).to.include('apiserver_request_total{verb="GET",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="409"} 1');
  });

  it('skips unknown resources and subresources, unknown paths and /metrics itself', async function () {
    await (await fetch(`${base}/api/v1/widgets`)).text();
    await (await fetch(`${base}/nothing-here`)).text();
    await (await fetch(`${base}/metrics`)).text();
    await (await fetch(`${base}/api/v1/namespaces/default/configmaps/cm/${'a'.repeat(1000)}`)).text();
    await new Promise((r) => setTimeout(r, 50));
    expect(await count({ resource: 'widgets' })).to.equal(0);
    // A subresource the resource does not have is not a label value either.
    const { values } = await metrics.requestTotal.get();
    expect(values.filter((v) => String(v.labels.subresource ?? '').startsWith('aaaa'))).to.deep.equal([]);
    expect(await count({ subresource: '/nothing-here' })).to.equal(0);
    expect(await count({ subresource: '/metrics' })).to.equal(0);
  });

  it('records no path that no endpoint answered, whatever the code (a path is any string a client sends)', async function () {
    await (await fetch(`${base}/readyz`)).text();
    for (let i = 0; i < 3; i++) await (await fetch(`${base}/refused/${'a'.repeat(1000)}${i}`)).text();
    await new Promise((r) => setTimeout(r, 50));
    const { values } = await metrics.requestTotal.get();
    expect(values.filter((v) => String(v.labels.subresource ?? '').startsWith('/refused/'))).to.deep.equal([]);
    expect(await count({ subresource: '/readyz' })).to.be.greaterThan(0);
  });

  it('times a watch for its whole life and tracks it as long-running, not in flight', async function () {
    stream = undefined;
    const pending = fetch(`${base}/api/v1/namespaces/default/configmaps?watch=1`);
    // Headers go out with the first event, as on a real watch.
    const watchStream = (): PassThrough | undefined => stream;
    await eventually(() => {
      expect(watchStream()).to.not.equal(undefined);
    });
    const ws = watchStream() as PassThrough;
    ws.write('{"type":"ADDED"}\n');
    const res = await pending;
    expect(res.status).to.equal(200);
    const lr = async () => (await metrics.longRunning.get()).values.find((v) => v.labels.verb === 'WATCH')?.value;
    expect(await lr()).to.equal(1);
    await new Promise((r) => setTimeout(r, 80));
    ws.end();
    await res.text();
    await eventually(async () => {
      expect(await count({ verb: 'WATCH', scope: 'namespace', code: '200' })).to.equal(1);
      expect(await lr()).to.equal(0);
    });
    const { values } = await metrics.requestDuration.get();
    const sum = values.find((v) => v.metricName === 'apiserver_request_duration_seconds_sum' && v.labels.verb === 'WATCH');
    expect(sum?.value).to.be.greaterThan(0.07);
    const inflight = await metrics.currentInflight.get();
    expect(inflight.values.map((v) => v.labels.request_kind)).to.deep.equal(['readOnly', 'mutating']);
  });
});

describe('pkg/endpoints/metrics', function () {
  it('reports the in-flight high-water mark of the last second per request kind', async function () {
    let now = 10_000;
    const m = new ApiserverMetrics({ now: () => now });
    const value = async (kind: string) => (await m.currentInflight.get()).values.find((v) => v.labels.request_kind === kind)?.value;
    const a = m.beginInflight('readOnly');
    const b = m.beginInflight('readOnly');
    const c = m.beginInflight('mutating');
    b();
    b();
    expect(await value('readOnly')).to.equal(2);
    expect(await value('mutating')).to.equal(1);
    now += 1500;
    c();
    expect(await value('readOnly')).to.equal(2);
    now += 3000;
    expect(await value('readOnly')).to.equal(1);
    expect(await value('mutating')).to.equal(0);
    a();
  });

  it('times etcd calls, including failed ones', async function () {
    const m = new ApiserverMetrics();
    expect(await m.timeEtcd('get', '*core.ConfigMap', async () => 42)).to.equal(42);
    let thrown: unknown;
    try {
      await m.timeEtcd('create', '*core.ConfigMap', async () => { throw new Error('boom'); });
    } catch (e) {
      thrown = e;
    }
    expect((thrown as Error).message).to.equal('boom');
    const text = await m.exposition();
    expect(text).to.include('# HELP etcd_request_duration_seconds [ALPHA] Etcd request latency in seconds for each operation and object type.');
    expect(text).to.include('etcd_request_duration_seconds_count{operation="get",type="*core.ConfigMap"} 1');
    expect(text).to.include('etcd_request_duration_seconds_count{operation="create",type="*core.ConfigMap"} 1');
    expect(text).to.include('# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
  });

  it('serves /metrics in the Prometheus text format', async function () {
    const m = new ApiserverMetrics();
    const handler = createMetricsHandler(m);
    const app = new Koa();
    app.use(async (ctx) => {
      if (!(await handler(ctx))) ctx.status = 404;
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
      expect(await res.text()).to.include('# TYPE apiserver_current_inflight_requests gauge');
    } finally {
      server.close();
    }
  });
});
