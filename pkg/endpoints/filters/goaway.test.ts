import { expect } from 'chai';
import Koa from 'koa';
import { createServer, connect } from 'node:http2';
import { createServer as createHttp1Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { goawayFilter } from './goaway.js';

function appWith(random: () => number): Koa {
  const app = new Koa();
  app.use(goawayFilter(0.02, random));
  app.use(async (ctx) => { ctx.body = 'served'; });
  return app;
}

describe('goaway filter (--goaway-chance)', () => {
  it('answers an HTTP/2 request, then sends GOAWAY when the draw falls under the chance; otherwise nothing', async () => {
    for (const [draw, expectGoaway] of [[0.01, true], [0.5, false]] as const) {
      const server = createServer(appWith(() => draw).callback() as never);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      let goaway: number | undefined;
      session.on('goaway', (code) => { goaway = code; });
      const body = await new Promise<string>((resolve) => {
        const s = session.request({ ':path': '/api/v1/namespaces' });
        let t = '';
        s.setEncoding('utf8');
        s.on('data', (c: string) => { t += c; });
        s.on('end', () => resolve(t));
      });
      // The GOAWAY follows the response: wait for it when one is due (a loaded machine may
      // take longer than any fixed pause); otherwise give a wrong one a moment to show.
      const deadline = Date.now() + (expectGoaway ? 5000 : 50);
      while (goaway === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(body).to.equal('served');
      expect(goaway, `draw ${draw}`).to.equal(expectGoaway ? 0 : undefined);
      session.destroy();
      server.close();
    }
  });

  it('leaves HTTP/1.1 requests alone', async () => {
    const server = createHttp1Server(appWith(() => 0).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`);
      expect(await res.text()).to.equal('served');
      expect(res.headers.get('connection')).to.equal('keep-alive');
    } finally {
      server.close();
    }
  });
});
