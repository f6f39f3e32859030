import { expect } from 'chai';
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { errors } from '../../runtime/errors.js';
import { errorFilter } from './errors.js';

interface Outcome { status: number; body: string; complete: boolean }

/** GET `path` and everything that arrives before the response ends or its connection drops. */
function get(server: Server, path: string): Promise<Outcome> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode!, body, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode!, body, complete: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('error filter', () => {
  let server: Server;
  before(async () => {
    const app = new Koa();
    app.silent = true;
    app.use(errorFilter(pino({ level: 'silent' })));
    app.use(async (ctx) => {
      if (ctx.path === '/before') throw errors.tooManyRequests('too many requests');
      // A streamed answer (as a watch's) that fails once its head and a first part are out.
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json');
      ctx.set('Transfer-Encoding', 'chunked');
      ctx.flushHeaders();
      ctx.res.write('{"type":"ADDED"}\n');
      throw errors.tooManyRequests('too many requests');
    });
    server = createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(() => { server.close(); });

  it('answers an error thrown before the response started with its Status', async () => {
    const out = await get(server, '/before');
    expect(out.status).to.equal(429);
    expect(JSON.parse(out.body)).to.include({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect(out.complete).to.equal(true);
  });

  it('drops a response that fails after it started, instead of writing a Status into it', async () => {
    const out = await get(server, '/streaming');
    expect(out.status).to.equal(200);
    expect(out.body).to.equal('{"type":"ADDED"}\n');
    expect(out.complete).to.equal(false);
  });
});
