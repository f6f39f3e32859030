import { expect } from 'chai';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import Koa from 'koa';
import pino from 'pino';
import { errors } from '../runtime/errors.js';
import { errorFilter } from './filters/errors.js';
import { requestHandler } from './respond.js';

interface Answer { status: number; headers: IncomingHttpHeaders; body: string; complete: boolean }

/** Headers whose value differs between any two answers. */
const unstable = new Set(['date', 'connection', 'keep-alive']);

function answered(server: Server, method: string, path: string): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      const done = (complete: boolean) => {
        const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !unstable.has(k)));
        resolve({ status: res.statusCode!, headers, body, complete });
      };
      res.on('end', () => done(res.complete));
      res.on('aborted', () => done(false));
      res.on('error', () => done(false));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An app whose answer is picked by the path: every body shape and status the server uses. */
function shapes(): Koa {
  const app = new Koa();
  app.silent = true;
  app.use((ctx) => {
    switch (ctx.path) {
      case '/string': ctx.body = 'plain words'; return;
      case '/html': ctx.body = '<p>markup</p>'; return;
      case '/buffer': ctx.type = 'application/json'; ctx.body = Buffer.from('{"kind":"Lease"}'); return;
      case '/json': ctx.status = 201; ctx.body = { kind: 'ConfigMap', data: { a: 'é' } }; return;
      case '/json-typed': ctx.type = 'application/json'; ctx.body = { kind: 'Status' }; return;
      case '/stream': ctx.type = 'application/json'; ctx.body = Readable.from(['{"type":', '"ADDED"}\n']); return;
      case '/null': ctx.body = null; return;
      case '/null-json': ctx.type = 'application/json'; ctx.body = null; return;
      case '/undefined': ctx.status = 200; return;
      case '/unset-status': ctx.status = 418; return;
      case '/204': ctx.status = 204; ctx.body = 'dropped'; return;
      case '/205': ctx.status = 205; ctx.type = 'application/json'; return;
      case '/304': ctx.body = 'dropped'; ctx.status = 304; return;
      case '/length-kept': ctx.status = 200; ctx.set('Content-Length', '17'); ctx.type = 'application/json'; return;
      case '/ended': ctx.status = 200; ctx.res.end('by hand'); return;
      case '/hijacked': ctx.respond = false; ctx.res.writeHead(202, { 'content-type': 'text/plain' }); ctx.res.end('mine'); return;
      default: // nothing: Koa's 404
    }
  });
  return app;
}

const paths = ['/string', '/html', '/buffer', '/json', '/json-typed', '/stream', '/null', '/null-json', '/undefined',
  '/unset-status', '/204', '/205', '/304', '/length-kept', '/ended', '/hijacked', '/nowhere'];

async function listening(server: Server | Http2Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}

describe('endpoints/respond', () => {
  const servers: (Server | Http2Server)[] = [];
  after(() => { for (const s of servers) s.close(); });

  it('answers every body shape, status and method as Koa\'s own callback does, over HTTP/1.1', async () => {
    const app = shapes();
    const koa = createServer(app.callback());
    const ours = createServer(requestHandler(app));
    servers.push(koa, ours);
    await Promise.all([listening(koa), listening(ours)]);
    for (const method of ['GET', 'HEAD']) {
      for (const path of paths) {
        const want = await answered(koa, method, path);
        const got = await answered(ours, method, path);
        expect(got, `${method} ${path}`).to.deep.equal(want);
      }
    }
    // The cases that tell the shapes apart, so that the comparison above compares something.
    expect((await answered(ours, 'GET', '/json')).body).to.equal('{"kind":"ConfigMap","data":{"a":"é"}}');
    const head = await answered(ours, 'HEAD', '/json');
    expect(head).to.include({ status: 201, body: '' });
    expect(head.headers['content-length']).to.equal('38');
    expect((await answered(ours, 'GET', '/stream')).body).to.equal('{"type":"ADDED"}\n');
    const empty = await answered(ours, 'GET', '/204');
    expect(empty.status).to.equal(204);
    expect(empty.headers).to.not.have.any.keys('content-length', 'content-type', 'transfer-encoding');
    expect((await answered(ours, 'GET', '/null-json')).body).to.equal('null');
    expect((await answered(ours, 'GET', '/hijacked'))).to.include({ status: 202, body: 'mine' });
    expect((await answered(ours, 'GET', '/unset-status')).body).to.equal("I'm a Teapot");
  });

  it('answers an absent body over HTTP/2 with the status as text, as Koa does', async () => {
    const app = shapes();
    const server = createHttp2Server(requestHandler(app) as never);
    servers.push(server);
    await listening(server);
    const client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const got = await new Promise<{ status: unknown; body: string }>((resolve, reject) => {
        const req = client.request({ ':path': '/unset-status' });
        let status: unknown;
        let body = '';
        req.on('response', (h) => { status = h[':status']; });
        req.on('data', (c: Buffer) => { body += c.toString(); });
        req.on('end', () => resolve({ status, body }));
        req.on('error', reject);
        req.end();
      });
      expect(got).to.deep.equal({ status: 418, body: '418' });
    } finally {
      client.close();
    }
  });

  it('answers an error that escapes every filter with a Status, not Koa\'s plain 500, and drops a response already started', async () => {
    const app = new Koa();
    app.silent = true;
    app.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/outer') throw errors.tooManyRequests('too many requests');
      if (ctx.path === '/outer-plain') throw new Error('a bug');
      if (ctx.path === '/outer-started') {
        ctx.status = 200;
        ctx.remove('Content-Length');
        ctx.set('Transfer-Encoding', 'chunked');
        ctx.flushHeaders();
        ctx.res.write('{"type":"ADDED"}\n');
        throw new Error('late');
      }
    });
    app.use(errorFilter(pino({ level: 'silent' })));
    app.use((ctx) => { ctx.body = 'fine'; });
    const server = createServer(requestHandler(app, pino({ level: 'silent' })));
    servers.push(server);
    await listening(server);

    const limited = await answered(server, 'GET', '/outer');
    expect(limited.status).to.equal(429);
    expect(limited.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(limited.body)).to.include({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    const bug = await answered(server, 'GET', '/outer-plain');
    expect(bug.status).to.equal(500);
    expect(JSON.parse(bug.body)).to.include({ kind: 'Status', reason: 'InternalError', code: 500 });
    const started = await answered(server, 'GET', '/outer-started');
    expect(started).to.include({ status: 200, complete: false });
    expect(started.body).to.not.include('Status');
  });

  it('destroys a stream body whose client went away, and leaves no listener on the socket for later requests', async () => {
    let body: PassThrough | undefined;
    let socketListeners: number[] = [];
    const app = new Koa();
    app.silent = true;
    app.use((ctx) => {
      const socket = ctx.req.socket;
      socketListeners.push(socket.listenerCount('close') + socket.listenerCount('error'));
      if (ctx.path === '/small') { ctx.body = 'ok'; return; }
      body = new PassThrough();
      ctx.type = 'application/json';
      ctx.body = body;
      ctx.flushHeaders();
      body.write('{"type":"ADDED"}\n');
    });
    const server = createServer({ keepAlive: true }, requestHandler(app));
    servers.push(server);
    await listening(server);
    const { port } = server.address() as AddressInfo;

    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/watch' }, (res) => {
        res.once('data', () => { req.destroy(); resolve(); });
      });
      req.on('error', () => undefined);
      req.end();
      setTimeout(() => reject(new Error('no first event')), 5000).unref();
    });
    for (let i = 0; i < 50 && !body!.destroyed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(body!.destroyed).to.equal(true);

    // Many requests on one kept-alive connection: the socket's listener count stays put.
    socketListeners = [];
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/small', agent }, (res) => { res.resume(); res.on('end', resolve); }).on('error', reject).end();
      });
    }
    agent.destroy();
    expect(new Set(socketListeners.slice(1)).size).to.equal(1);
  });
});
