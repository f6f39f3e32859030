import { expect } from 'chai';
import Koa from 'koa';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHealthHandler } from './handler.js';
import { HealthRegistry, type HealthEndpoint } from './registry.js';
import { createInformerSyncCheck, createLogCheck, createShutdownCheck, namedCheck, pingCheck } from './checks.js';

interface Served { base: string; server: Server; failures: string[] }

async function serve(registry: HealthRegistry): Promise<Served> {
  const failures: string[] = [];
  const handler = createHealthHandler(registry, {
    onCheckFailed: (ep: HealthEndpoint, name: string, err: Error) => failures.push(`${ep}:${name}:${err.message}`),
  });
  const app = new Koa();
  app.use(async (ctx) => {
    if (!(await handler(ctx))) {
      ctx.status = 418;
      ctx.body = 'unhandled';
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, failures };
}

async function get(s: Served, path: string): Promise<{ status: number; body: string; type: string | null; nosniff: string | null }> {
  const res = await fetch(s.base + path);
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options') };
}

describe('pkg/server/healthz', function () {
  let etcdHealthy: boolean;
  let synced: string[];
  let s: Served;
  const shutdown = createShutdownCheck();

  before(async function () {
    etcdHealthy = true;
    synced = [];
    const registry = new HealthRegistry();
    registry.addHealthChecks(pingCheck, createLogCheck(), namedCheck('etcd', async () => {
      if (!etcdHealthy) throw new Error('etcd client connection not yet established');
    }));
    registry.addReadyzChecks(
      namedCheck('etcd-readiness', async () => {}),
      createInformerSyncCheck(() => synced),
    );
    registry.addPostStartHook('start-apiextensions-informers').done();
    registry.addReadyzChecks(shutdown);
    s = await serve(registry);
  });
  after(function () {
    s.server.close();
  });

  it('answers "ok" as text/plain on all three endpoints', async function () {
    for (const ep of ['/healthz', '/livez', '/readyz']) {
      const r = await get(s, ep);
      expect(r.status, ep).to.equal(200);
      expect(r.body, ep).to.equal('ok');
      expect(r.type, ep).to.equal('text/plain; charset=utf-8');
      expect(r.nosniff, ep).to.equal('nosniff');
    }
  });

  it('lists every check with ?verbose, in registration order, ending with "<endpoint> check passed"', async function () {
    expect((await get(s, '/readyz?verbose')).body).to.equal([
      '[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok',
      '[+]poststarthook/start-apiextensions-informers ok', '[+]shutdown ok', 'readyz check passed', '',
    ].join('\n'));
    expect((await get(s, '/livez?verbose=1')).body).to.equal([
      '[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]poststarthook/start-apiextensions-informers ok', 'livez check passed', '',
    ].join('\n'));
    expect((await get(s, '/healthz?verbose')).body.endsWith('[+]poststarthook/start-apiextensions-informers ok\nhealthz check passed\n')).to.equal(true);
  });

  it('fails with 500, withholds the reason and always prints the verbose lines', async function () {
    etcdHealthy = false;
    s.failures.length = 0;
    try {
      const r = await get(s, '/readyz');
      expect(r.status).to.equal(500);
      expect(r.type).to.equal('text/plain; charset=utf-8');
      expect(r.body).to.equal([
        '[+]ping ok', '[+]log ok', '[-]etcd failed: reason withheld', '[+]etcd-readiness ok', '[+]informer-sync ok',
        '[+]poststarthook/start-apiextensions-informers ok', '[+]shutdown ok', 'readyz check failed', '',
      ].join('\n'));
      expect(s.failures).to.deep.equal(['readyz:etcd:etcd client connection not yet established']);
      expect((await get(s, '/livez')).body.endsWith('livez check failed\n')).to.equal(true);
      expect((await get(s, '/healthz')).status).to.equal(500);
    } finally {
      etcdHealthy = true;
    }
  });

  it('excludes checks with ?exclude=, repeatable, and warns about unknown names', async function () {
    etcdHealthy = false;
    try {
      const r = await get(s, '/readyz?verbose&exclude=etcd&exclude=shutdown&exclude=nope&exclude=bogus');
      expect(r.status).to.equal(200);
      expect(r.body).to.equal([
        '[+]ping ok', '[+]log ok', '[+]etcd excluded: ok', '[+]etcd-readiness ok', '[+]informer-sync ok',
        '[+]poststarthook/start-apiextensions-informers ok', '[+]shutdown excluded: ok',
        'warn: some health checks cannot be excluded: no matches for "bogus","nope"', 'readyz check passed', '',
      ].join('\n'));
      expect((await get(s, '/livez?exclude=etcd')).body).to.equal('ok');
    } finally {
      etcdHealthy = true;
    }
  });

  it('serves single checks by name, with the reason on failure and 404 for unknown names', async function () {
    expect(await get(s, '/livez/ping')).to.include({ status: 200, body: 'ok' });
    expect(await get(s, '/readyz/poststarthook/start-apiextensions-informers')).to.include({ status: 200, body: 'ok' });
    synced = ['*v1.ConfigMap', '*v1.Namespace'];
    try {
      expect(await get(s, '/readyz/informer-sync')).to.include({ status: 500, body: 'internal server error: 2 informers not started yet: [*v1.ConfigMap *v1.Namespace]\n' });
    } finally {
      synced = [];
    }
    expect(await get(s, '/readyz/nope')).to.include({ status: 404, body: '404 page not found\n' });
    // Readiness-only checks are not livez checks.
    expect((await get(s, '/livez/informer-sync')).status).to.equal(404);
    expect((await get(s, '/livezz')).status).to.equal(418);
  });

  it('fails readyz once shutdown starts while livez stays ok', async function () {
    const registry = new HealthRegistry();
    const sd = createShutdownCheck();
    registry.addHealthChecks(pingCheck);
    registry.addReadyzChecks(sd);
    const t = await serve(registry);
    try {
      expect((await get(t, '/readyz')).status).to.equal(200);
      sd.markShuttingDown();
      expect(await get(t, '/readyz')).to.include({ status: 500, body: '[+]ping ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n' });
      expect(await get(t, '/readyz/shutdown')).to.include({ status: 500, body: 'internal server error: process is shutting down\n' });
      expect((await get(t, '/livez')).status).to.equal(200);
    } finally {
      t.server.close();
    }
  });
});

describe('pkg/server/healthz livez grace period', function () {
  it('reports unfinished post-start hooks as ok on livez until the grace period has passed', async function () {
    let now = 1_000_000;
    const registry = new HealthRegistry({ livezGracePeriodMs: 10_000, now: () => now });
    registry.addHealthChecks(pingCheck);
    const hook = registry.addPostStartHook('rbac/bootstrap-roles');
    expect(hook.name).to.equal('poststarthook/rbac/bootstrap-roles');
    const s = await serve(registry);
    try {
      expect((await get(s, '/livez')).status).to.equal(200);
      expect(await get(s, '/readyz?verbose')).to.include({
        status: 500, body: '[+]ping ok\n[-]poststarthook/rbac/bootstrap-roles failed: reason withheld\nreadyz check failed\n',
      });
      expect(await get(s, '/healthz/poststarthook/rbac/bootstrap-roles')).to.include({ status: 500, body: 'internal server error: not finished\n' });
      now += 10_001;
      expect(await get(s, '/livez')).to.include({ status: 500 });
      hook.done();
      expect(await get(s, '/livez')).to.include({ status: 200, body: 'ok' });
      expect(await get(s, '/readyz')).to.include({ status: 200, body: 'ok' });
    } finally {
      s.server.close();
    }
  });

  it('checks livez immediately when there is no grace period, and rejects duplicate names', function () {
    const registry = new HealthRegistry();
    registry.addHealthChecks(pingCheck);
    expect(() => registry.addHealthChecks(pingCheck)).to.throw('duplicate healthz check "ping"');
    expect(registry.checks('livez').map((c) => c.name)).to.deep.equal(['ping']);
  });
});
