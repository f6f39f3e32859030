import { expect } from 'chai';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { SelfWrittenBody, setSelfWrittenBody } from './self-written-body.js';

/** A Koa context on a response that is never sent. */
function context(): Koa.Context {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/api/v1/pods?watch=true';
  const ctx = new Koa().createContext(req, new ServerResponse(req));
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  return ctx;
}

describe('pkg/endpoints/responsewriters/self-written-body', () => {
  it('becomes the body as a stream without Koa\'s on-finished listeners on the response', () => {
    const viaSetter = context();
    viaSetter.body = new SelfWrittenBody();
    // What the helper leaves out: on-finished's listener, which Koa's setter hangs on every stream body.
    expect(viaSetter.res.listenerCount('finish') + viaSetter.res.listenerCount('close')).to.be.greaterThan(0);

    const ctx = context();
    const body = new SelfWrittenBody();
    setSelfWrittenBody(ctx, body);
    expect(ctx.body).to.equal(body);
    expect(ctx.status).to.equal(200);
    expect(ctx.response.get('Content-Type')).to.equal('application/json');
    expect(ctx.res.listenerCount('finish') + ctx.res.listenerCount('close')).to.equal(0);
  });
});
