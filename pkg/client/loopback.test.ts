import { expect } from 'chai';
import Koa from 'koa';
import pino from 'pino';
import type { Authenticator } from '../authentication/interfaces.js';
import { errorFilter } from '../endpoints/filters/errors.js';
import { StatusError } from '../runtime/errors.js';
import { LoopbackTokens, loopbackClient, type RequestListener } from './loopback.js';

interface Seen { method: string; url: string; user?: string; agent: string; type?: string; body: string; closed: boolean }

/** A Koa app that authenticates with the given authenticator and records what reaches it. */
function app(authenticator: Authenticator, seen: Seen[]): RequestListener {
  const a = new Koa();
  a.silent = true;
  a.use(errorFilter(pino({ level: 'silent' })));
  a.use(async (ctx, next) => {
    const r = await authenticator.authenticate({ headers: ctx.req.headers });
    if (r.decision !== 'authenticated') throw new StatusError(401, 'Unauthorized', 'Unauthorized');
    const chunks: Buffer[] = [];
    for await (const c of ctx.req) chunks.push(c as Buffer);
    const entry: Seen = { method: ctx.method, url: ctx.url, user: r.user.name, agent: ctx.get('user-agent'), type: ctx.get('content-type') || undefined, body: Buffer.concat(chunks).toString(), closed: false };
    seen.push(entry);
    ctx.res.once('close', () => { entry.closed = true; });
    await next();
  });
  a.use(async (ctx) => {
    if (ctx.path.endsWith('/missing')) throw new StatusError(404, 'NotFound', 'configmaps "missing" not found', { name: 'missing', kind: 'configmaps' });
    ctx.status = ctx.method === 'POST' ? 201 : 200;
    ctx.body = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', namespace: 'ns' }, data: { ok: 'é' } };
  });
  return a.callback();
}

describe('loopback client', () => {
  const tokens = new LoopbackTokens();
  const nobody: Authenticator = { name: 'none', authenticate: async () => ({ decision: 'noOpinion' }) };
  const seen: Seen[] = [];
  const handler = Promise.resolve(app(tokens.authenticator(nobody), seen));
  const client = loopbackClient({ tokens, handler, preferredVersion: (g) => (g === '' ? 'v1' : undefined) },
    { user: { name: 'system:serviceaccount:kube-system:test-controller', groups: [] }, userAgent: 'kube-controller-manager/v1.28.3 test' });

  it('sends requests through the handler as the caller, with paths, query and JSON bodies', async () => {
    const cms = client.resource('', 'configmaps');
    const created = await cms.create('ns', { metadata: { name: 'x' }, data: { ok: 'é' } }, { fieldManager: 'mgr', dryRun: true });
    expect(created.data).to.deep.equal({ ok: 'é' });
    await cms.update('ns', { metadata: { name: 'x' } }, { subresource: 'status' });
    await cms.patch('ns', 'x', 'application/merge-patch+json', { data: null });
    await cms.list('', { labelSelector: 'a=b', limit: 2 });
    await cms.deleteCollection('ns', {}, { propagationPolicy: 'Background' });
    await new Promise((r) => setImmediate(r));
    expect(seen.map((s) => `${s.method} ${s.url}`)).to.deep.equal([
      'POST /api/v1/namespaces/ns/configmaps?fieldManager=mgr&dryRun=All',
      'PUT /api/v1/namespaces/ns/configmaps/x/status',
      'PATCH /api/v1/namespaces/ns/configmaps/x',
      'GET /api/v1/configmaps?labelSelector=a%3Db&limit=2',
      'DELETE /api/v1/namespaces/ns/configmaps',
    ]);
    expect(seen.every((s) => s.user === 'system:serviceaccount:kube-system:test-controller' && s.agent === 'kube-controller-manager/v1.28.3 test')).to.equal(true);
    expect(seen[2]!.type).to.equal('application/merge-patch+json');
    expect(JSON.parse(seen[4]!.body)).to.deep.equal({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    // Listeners waiting for the end of the exchange (audit, metrics) hear it.
    expect(seen.every((s) => s.closed)).to.equal(true);
  });

  it('answers errors as the StatusError the server turned into a Status', async () => {
    const err = await client.resource('', 'configmaps').get('ns', 'missing').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StatusError);
    expect(err).to.include({ code: 404, reason: 'NotFound', message: 'configmaps "missing" not found' });
    expect((err as StatusError).details).to.deep.include({ name: 'missing' });
  });

  it('a resource the server does not serve is NotFound without a request', async () => {
    const before = seen.length;
    const err = await client.resource('nope.example.com', 'things').get('', 'x').catch((e: unknown) => e);
    expect(err).to.include({ code: 404, reason: 'NotFound' });
    expect(seen.length).to.equal(before);
  });

  it('other credentials are left to the server\'s authenticator', async () => {
    const r = await tokens.authenticator(nobody).authenticate({ headers: { authorization: 'Bearer not-a-loopback-token' } });
    expect(r.decision).to.equal('noOpinion');
    expect(tokens.tokenFor({ name: 'system:serviceaccount:kube-system:test-controller', groups: [] }))
      .to.equal(tokens.tokenFor({ name: 'system:serviceaccount:kube-system:test-controller', groups: [] }));
  });
});
