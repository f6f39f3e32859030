import { expect } from 'chai';
import { connect, createServer, type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { sendHttp2Body } from './http2-body.js';
import { BatchedBody, sendBatchedBody } from './list-encoder.js';

describe('endpoints/handlers/http2-body', () => {
  it('ends an HTTP/2 stream with its body\'s last frame even when the event loop is busy right after, with Koa\'s headers and res events', async function () {
    this.timeout(15_000);
    const events: string[] = [];
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.res.once('finish', () => events.push(`finish ${ctx.path}`));
      // Another request's work takes the loop for 150 ms right after this answer is handed over.
      const stream = (ctx.res as unknown as { stream: { end: (...a: unknown[]) => unknown } }).stream;
      const end = stream.end;
      stream.end = (...a: unknown[]) => {
        const r = end.apply(stream, a);
        setTimeout(() => { const t = Date.now(); while (Date.now() - t < 150); }, 0);
        return r;
      };
      await next();
      sendBatchedBody(ctx);
      sendHttp2Body(ctx);
    });
    app.use(async (ctx, next) => {
      await next();
      ctx.set('X-After', 'yes');
    });
    const pieces = Array.from({ length: 3000 }, (_, i) => Buffer.from(`piece-${i};`));
    app.use((ctx) => {
      if (ctx.path === '/list') {
        ctx.status = 200;
        ctx.type = 'application/json';
        ctx.body = new BatchedBody(pieces);
        ctx.length = pieces.reduce((n, p) => n + p.length, 0);
        return;
      }
      ctx.status = ctx.path === '/text' ? 201 : 200;
      ctx.body = ctx.path === '/text' ? 'créé' : Buffer.from('{"kind":"Lease"}');
      if (ctx.path !== '/text') ctx.type = 'application/json';
    });
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const fetch = (method: string, path: string) => new Promise<{ headers: IncomingHttpHeaders; body: string; tailMs: number }>((resolve, reject) => {
      const req = client.request({ ':method': method, ':path': path });
      let headers: IncomingHttpHeaders = {};
      let body = '';
      let last = performance.now();
      req.on('response', (h) => { headers = h; last = performance.now(); });
      req.on('data', (c: Buffer) => { body += c.toString(); last = performance.now(); });
      req.on('end', () => resolve({ headers, body, tailMs: performance.now() - last }));
      req.on('error', reject);
      req.end();
    });
    try {
      const ours: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await fetch('GET', '/lease');
        expect(r.body).to.equal('{"kind":"Lease"}');
        expect(r.headers[':status']).to.equal(200);
        expect(r.headers['content-type']).to.equal('application/json; charset=utf-8');
        expect(r.headers['content-length']).to.equal('16');
        expect(r.headers['x-after']).to.equal('yes');
        expect(r.headers.date).to.be.a('string');
        ours.push(r.tailMs);
        await new Promise((res) => setTimeout(res, 200));
      }
      // END_STREAM comes with the body, not a busy turn later.
      expect(ours.filter((ms) => ms > 75), ours.map((ms) => ms.toFixed(1)).join(' ')).to.deep.equal([]);
      const text = await fetch('POST', '/text');
      expect([text.headers[':status'], text.body, text.headers['content-length'], text.headers['content-type']]).to.deep.equal([201, 'créé', '6', 'text/plain; charset=utf-8']);
      // A list's batched body too: its last batch's frame ends the stream.
      for (let i = 0; i < 5; i++) {
        const list = await fetch('GET', '/list');
        expect(list.body).to.equal(Buffer.concat(pieces).toString());
        expect([list.headers['content-length'], list.headers['x-after']]).to.deep.equal([String(Buffer.concat(pieces).length), 'yes']);
        expect(list.tailMs, `list ${i}`).to.be.below(75);
        await new Promise((res) => setTimeout(res, 200));
      }
      const head = await fetch('HEAD', '/lease');
      expect([head.body, head.headers['content-length']]).to.deep.equal(['', '16']);
      await new Promise((res) => setTimeout(res, 200));
      expect(events.filter((e) => e === 'finish /lease')).to.have.length(11);
      expect(events).to.include('finish /text');
    } finally {
      client.close();
      server.close();
    }
  });
});
