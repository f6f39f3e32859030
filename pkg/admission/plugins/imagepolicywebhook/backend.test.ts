import { expect } from 'chai';
import { createServer, type Server } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCA, issueCertificate } from '../../../util/cert/index.js';
import { httpsReviewBackend } from './backend.js';
import { BackendError, type ReviewBackend } from './index.js';

describe('ImagePolicyWebhook backend over HTTPS', function () {
  this.timeout(20_000);
  let dir: string;
  let server: Server;
  let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: '{}' };
  const bodies: unknown[] = [];
  let kubeconfigFor: (port: number) => string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ipw-backend-'));
    const ca = await generateCA('ipw-test-ca');
    const serving = await issueCertificate(ca, { cn: '127.0.0.1', usage: 'server', ipAddresses: ['127.0.0.1'] });
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfigFor = (port) => {
      const file = join(dir, `k-${port}`);
      writeFileSync(file, `clusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:${port}/review", certificate-authority: ca.crt}\ncontexts:\n- name: c\n  context: {cluster: c}\ncurrent-context: c\n`);
      return file;
    };
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  const failure = async (b: ReviewBackend): Promise<BackendError> => {
    try { await b({}); } catch (e) { return e as BackendError; }
    throw new Error('no failure');
  };
  const port = (): number => (server.address() as { port: number }).port;

  it('posts the review and reads allowed, reason and audit annotations from the answer', async () => {
    answer = { status: 200, body: JSON.stringify({ status: { allowed: false, reason: 'nope', auditAnnotations: { a: 'b' } } }) };
    const status = await httpsReviewBackend(kubeconfigFor(port()))({ kind: 'ImageReview' });
    expect(status).to.deep.equal({ allowed: false, reason: 'nope', auditAnnotations: { a: 'b' } });
    expect(bodies.at(-1)).to.deep.equal({ kind: 'ImageReview' });
  });

  it('500 is retriable with client-go\'s message; other codes are not', async () => {
    answer = { status: 500, body: 'broken' };
    const e500 = await failure(httpsReviewBackend(kubeconfigFor(port())));
    expect([e500.message, e500.retriable]).to.deep.equal(['an error on the server ("broken") has prevented the request from succeeding', true]);
    answer = { status: 403, body: JSON.stringify({ kind: 'Status', message: 'go away' }) };
    const e403 = await failure(httpsReviewBackend(kubeconfigFor(port())));
    expect([e403.message, e403.retriable]).to.deep.equal(['go away', false]);
    answer = { status: 503, body: '' };
    const e503 = await failure(httpsReviewBackend(kubeconfigFor(port())));
    expect([e503.message, e503.retriable]).to.deep.equal(['the server responded with the status code 503 but did not return more information', false]);
    answer = { status: 503, body: '', headers: { 'Retry-After': '1' } };
    expect((await failure(httpsReviewBackend(kubeconfigFor(port())))).retriable).to.equal(true);
  });

  it('a refused connection fails at once, worded as Go\'s dialer', async () => {
    const e = await failure(httpsReviewBackend(kubeconfigFor(1)));
    expect(e.message).to.equal('Post "https://127.0.0.1:1/review": dial tcp 127.0.0.1:1: connect: connection refused');
    expect(e.retriable).to.equal(false);
  });
});
