import type { PeerCertificate, TLSSocket } from 'node:tls';
import type Koa from 'koa';
import type { AuthResult, Authenticator } from '../../authentication/interfaces.js';
import { errors } from '../../runtime/errors.js';
import { apiserverMetrics } from '../metrics/metrics.js';
import { connectionSocket } from '../../util/net/connection.js';

/**
 * The client certificate of a TLS connection, read once per connection (an HTTP/2
 * session's streams share one): it cannot change during one (no renegotiation), and the
 * same objects let the x509 authenticators keep their parsed chain and verdict for every
 * request on it. The leaf first (getPeerCertificate() reads OpenSSL's copy), the whole
 * presented chain only when an authenticator asks: getPeerCertificate(true) copies every
 * certificate (decoding each again), about 6% of the CPU of setting up a
 * client-certificate watch, and most clients' leaves are issued by the CA itself.
 */
interface Peer { leaf?: PeerCertificate; chain?: PeerCertificate; readChain: () => PeerCertificate | undefined }
const peers = new WeakMap<TLSSocket, Peer>();

function peerOf(socket: TLSSocket): Peer {
  let peer = peers.get(socket);
  if (peer) return peer;
  const tls = typeof socket.getPeerCertificate === 'function';
  const leaf = tls ? socket.getPeerCertificate() : undefined;
  const p: Peer = {
    leaf: leaf && Object.keys(leaf).length > 0 ? leaf : undefined,
    readChain: () => (p.chain ??= socket.getPeerCertificate(true)),
  };
  peers.set(socket, (peer = p));
  return peer;
}

export function authenticationFilter(authenticator: Authenticator): Koa.Middleware {
  // The answer's then() rather than an async function's await, and a float clock rather
  // than two BigInt readings: a frame and three heap numbers less a request.
  return (ctx, next) => {
    const started = performance.now();
    const peer = peerOf(connectionSocket(ctx.req));
    return authenticator.authenticate({
      headers: ctx.req.headers,
      rawHeaders: ctx.req.rawHeaders,
      peerCertificate: peer.leaf,
      peerChain: peer.leaf ? peer.readChain : undefined,
    }).then((result) => authenticated(ctx, next, result, (performance.now() - started) / 1e3));
  };
}

function authenticated(ctx: Koa.Context, next: Koa.Next, result: AuthResult, seconds: number): Promise<void> {
  apiserverMetrics().observeAuthentication(result.decision === 'authenticated' ? 'success' : result.decision === 'error' ? 'error' : 'failure',
    seconds, result.decision === 'authenticated' ? result.user.name : undefined);
  if (result.decision !== 'authenticated') {
    ctx.state.authError = result.decision === 'error' ? result.message : 'no credentials';
    throw errors.unauthorized();
  }
  ctx.state.user = result.user;
  // Credentials are not passed further down the chain.
  delete ctx.req.headers.authorization;
  return next();
}
