import type { TLSSocket } from 'node:tls';
import type Koa from 'koa';
import type { Authenticator } from '../../authentication/interfaces.js';
import { errors } from '../../runtime/errors.js';

export function authenticationFilter(authenticator: Authenticator): Koa.Middleware {
  return async (ctx, next) => {
    const socket = ctx.req.socket as TLSSocket;
    const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(true) : undefined;
    const result = await authenticator.authenticate({
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      peerCertificate: peer && Object.keys(peer).length > 0 ? peer : undefined,
    });
    if (result.decision !== 'authenticated') {
      ctx.state.authError = result.decision === 'error' ? result.message : 'no credentials';
      throw errors.unauthorized();
    }
    ctx.state.user = result.user;
    // Credentials are not passed further down the chain.
    delete ctx.req.headers.authorization;
    await next();
  };
}
