import type { PeerCertificate, TLSSocket } from 'node:tls';
import type Koa from 'koa';
import type { Authenticator } from '../../authentication/interfaces.js';
import { errors } from '../../runtime/errors.js';
import { apiserverMetrics } from '../metrics/metrics.js';
import { connectionSocket } from '../../util/net/connection.js';

/**
 * The client certificate of a TLS connection, read once per connection (an HTTP/2
 * session's streams share one): it cannot change during one (no renegotiation), and the same object lets the x509 authenticators keep
 * their parsed chain and verdict for every request on it.
 */
const peers = new WeakMap<TLSSocket, PeerCertificate | undefined>();

function peerCertificateOf(socket: TLSSocket): PeerCertificate | undefined {
  if (peers.has(socket)) return peers.get(socket);
  const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(true) : undefined;
  const found = peer && Object.keys(peer).length > 0 ? peer : undefined;
  peers.set(socket, found);
  return found;
}

export function authenticationFilter(authenticator: Authenticator): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const result = await authenticator.authenticate({
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      peerCertificate: peerCertificateOf(connectionSocket(ctx.req)),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    apiserverMetrics().observeAuthentication(result.decision === 'authenticated' ? 'success' : result.decision === 'error' ? 'error' : 'failure',
      seconds, result.decision === 'authenticated' ? result.user.name : undefined);
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
