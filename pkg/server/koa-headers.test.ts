import { expect } from 'chai';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { leanHeaderSet } from './koa-headers.js';

/** Serves one request with `app` and resolves the response's status and raw headers. */
async function answer(app: Koa): Promise<{ status: number; raw: string[] }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders }));
      }).on('error', reject).end();
    });
  } finally {
    server.close();
  }
}

describe('server/koa-headers', () => {
  it('sets headers as Koa does: one, several, repeated values, a one-element Content-Type, none once sent', async () => {
    const app = new Koa();
    leanHeaderSet(app);
    let afterSent = 'unset';
    app.use(async (ctx) => {
      ctx.set('Audit-ID', 'abc');
      ctx.set({ 'X-One': '1', 'X-Two': '2' });
      ctx.set('Warning', ['199 - "a"', '199 - "b"']);
      ctx.set('Content-Type', ['application/json']);
      ctx.body = Buffer.from('{}\n');
      ctx.respond = false;
      ctx.res.writeHead(201);
      ctx.set('X-Late', 'no');
      afterSent = String(ctx.res.getHeader('x-late'));
      ctx.res.end(ctx.body as Buffer);
    });
    const { status, raw } = await answer(app);
    expect(status).to.equal(201);
    const pairs: string[] = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push(`${raw[i]}: ${raw[i + 1]}`);
    expect(pairs).to.include.members(['Audit-ID: abc', 'X-One: 1', 'X-Two: 2', 'Warning: 199 - "a"', 'Warning: 199 - "b"',
      'Content-Type: application/json', 'Content-Length: 3']);
    expect(afterSent).to.equal('undefined');
  });

  it('refuses several values for Content-Type, as Koa does', async () => {
    const app = new Koa();
    leanHeaderSet(app);
    let thrown = '';
    app.use(async (ctx) => {
      try {
        ctx.set('Content-Type', ['a/b', 'c/d']);
      } catch (err) {
        thrown = (err as Error).message;
      }
      ctx.body = 'x';
    });
    await answer(app);
    expect(thrown).to.equal('Content-Type must contain exactly one value');
  });
});
