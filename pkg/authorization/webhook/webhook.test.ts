import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import type { Attributes } from '../interfaces.js';
import { WebhookAuthorizer } from './index.js';

const attrs = (user: string): Attributes => ({ user: { name: user, uid: 'u1', groups: ['g1'], extra: { scopes: ['a'] } }, verb: 'get',
  isResourceRequest: false, path: '/healthz', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' });

describe('Webhook authorizer', () => {
  let server: Server;
  let calls: Array<Record<string, unknown>> = [];
  let url = '';
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        const review = JSON.parse(body) as { spec: { user: string } };
        calls.push(review);
        if (review.spec.user === 'broken') { res.statusCode = 500; res.end('boom'); return; }
        res.end(JSON.stringify({ status: review.spec.user === 'yes' ? { allowed: true } : { allowed: false, reason: 'because' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  after(() => server.close());
  beforeEach(() => { calls = []; });

  const make = (version: 'v1' | 'v1beta1', unauthorizedTTLMs = 30_000) =>
    new WebhookAuthorizer({ connection: { server: url }, version, authorizedTTLMs: 300_000, unauthorizedTTLMs });

  it('v1 sends groups, v1beta1 sends group, with uid and extra', async () => {
    await make('v1').authorize(attrs('yes'));
    await make('v1beta1').authorize(attrs('yes'));
    expect(calls.map((c) => c.spec)).to.deep.equal([
      { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'yes', groups: ['g1'], extra: { scopes: ['a'] }, uid: 'u1' },
      { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'yes', group: ['g1'], extra: { scopes: ['a'] }, uid: 'u1' },
    ]);
    expect(calls.map((c) => c.apiVersion)).to.deep.equal(['authorization.k8s.io/v1', 'authorization.k8s.io/v1beta1']);
  });

  it('caches allowed and not-allowed answers for their own TTLs', async () => {
    const w = make('v1beta1', 0);
    expect(await w.authorize(attrs('yes'))).to.deep.equal({ decision: 'allow', reason: '' });
    expect(await w.authorize(attrs('yes'))).to.deep.equal({ decision: 'allow', reason: '' });
    expect(await w.authorize(attrs('no'))).to.deep.equal({ decision: 'noOpinion', reason: 'because' });
    await w.authorize(attrs('no'));
    expect(calls.map((c) => (c.spec as { user: string }).user)).to.deep.equal(['yes', 'no', 'no']);
  });

  it('a failed call is no opinion with the error', async () => {
    const d = await make('v1beta1').authorize(attrs('broken'));
    expect(d).to.deep.equal({ decision: 'noOpinion', reason: '', error: 'the server responded with the status code 500 but did not return more information' });
    const rules = await make('v1').rulesFor();
    expect(rules).to.deep.equal({ resourceRules: [], nonResourceRules: [], incomplete: true, error: 'webhook authorizer does not support user rule resolution' });
  });
});
