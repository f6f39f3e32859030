import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { ServerLifecycle } from '../request/lifecycle.js';
import { shutdownFilter } from './shutdown.js';

describe('shutdown filter', () => {
  it('once in-flight requests are drained, answers anything new 429 with Retry-After (health checks excepted), whatever --shutdown-send-retry-after', async () => {
    const lifecycle = new ServerLifecycle();
    const app = new Koa();
    let reached = 0;
    app.use(shutdownFilter(lifecycle, false));
    app.use(async (ctx) => { reached++; ctx.body = 'served'; });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      lifecycle.initiateShutdown();
      lifecycle.stopAcceptingNewRequests();
      const before = await fetch(`${base}/api/v1/namespaces`);
      expect(before.status, 'without the flag, requests on open connections are still served before the drain').to.equal(200);
      expect(before.headers.get('connection')).to.equal('close');
      expect(await lifecycle.drainRequests(1000)).to.equal(true);
      const after = await fetch(`${base}/api/v1/namespaces`);
      expect(after.status).to.equal(429);
      expect(after.headers.get('retry-after')).to.equal('5');
      expect(await after.text()).to.include('The apiserver is shutting down, please try again later.');
      expect((await fetch(`${base}/readyz`)).status).to.equal(200);
      expect(reached).to.equal(2);
    } finally {
      server.close();
    }
  });
});
