// The replica's HTTPS listener, opened before etcd is reached, as upstream's kube-apiserver
// listens at once: while the replica waits for etcd and bootstraps, /healthz, /livez and
// /readyz answer with their checks (etcd's failing, its reason at /readyz/etcd) and every
// other request a 503 with Retry-After, so probes and load balancers see a starting server
// rather than a refused connection. Once started, the whole app serves on the same socket.
// It speaks HTTP/2 to clients that offer it by ALPN (kubectl, client-go) and HTTP/1.1 to
// the others, as Go's server does; upgrades (exec, attach, port-forward) are HTTP/1.1's.
import type { Duplex } from 'node:stream';
import { Server as Http1Server, type IncomingMessage } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import Koa from 'koa';
import type { RequestListener } from '../client/loopback.js';
import { requestHandler } from '../endpoints/respond.js';
import { upgradeListener } from '../util/proxy/hijack.js';
import type { PathHandler } from './app.js';
import { applyConnectionLimits, connectionOptions, idleTimeoutMs, maxHeaderBytes } from './connection-limits.js';
import { trackSessions, uploadBufferPerStream } from './http2-sessions.js';
import type { ServerOptions } from './options.js';
import type { ServingCerts } from './serving-certs.js';
import { sessionTicketOptions, sniCallback } from './tls-options.js';

export interface Listener {
  server: Http2SecureServer;
  /** https://<loopback or bind address>:<port>: how the replica reaches itself. */
  url: string;
  port: number;
  /** From now on the app answers everything, upgrades included. */
  serve(handle: RequestListener): void;
  /** Stops accepting connections and sends every HTTP/2 session a GOAWAY; resolves once all connections are gone. */
  close(): Promise<void>;
  /** Cuts every connection still open. */
  closeAllConnections(): void;
}

const starting = {
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
  message: 'the server is starting: waiting for etcd and the bootstrap', reason: 'ServiceUnavailable', code: 503,
};

/** Answers health endpoints with `health` and 503 otherwise, until serve() is called. */
function startingApp(health: PathHandler): RequestListener {
  const app = new Koa();
  app.use(async (ctx) => {
    if (await health(ctx)) return;
    ctx.status = 503;
    ctx.set('Retry-After', '1');
    ctx.body = starting;
  });
  return requestHandler(app);
}

export async function listen(o: ServerOptions, certs: ServingCerts, health: PathHandler): Promise<Listener> {
  let handle = startingApp(health);
  let upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void = (_req, socket) => {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n\r\n');
  };
  const tlsBase = { minVersion: o.tls.minVersion, ...(o.tls.ciphers ? { ciphers: o.tls.ciphers } : {}), ...sessionTicketOptions };
  const maxStreams = o.http2MaxStreamsPerConnection;
  const server = createSecureServer({
    ...connectionOptions, ...tlsBase, cert: certs.cert, key: certs.key, requestCert: true, rejectUnauthorized: false,
    SNICallback: sniCallback(o.tls.sniCertKeys, { ...tlsBase, requestCert: true, rejectUnauthorized: false }),
    allowHTTP1: true, ALPNProtocols: ['h2', 'http/1.1'],
    settings: { maxConcurrentStreams: maxStreams, maxHeaderListSize: maxHeaderBytes, initialWindowSize: uploadBufferPerStream },
    // Node counts data queued for sending against this (default 10 MB) and refuses new
    // streams past it; a session carrying hundreds of watches needs more.
    maxSessionMemory: 64,
  }, (req, res) => handle(req as unknown as IncomingMessage, res as never));
  applyConnectionLimits(server);
  const sessions = trackSessions(server, { idleTimeoutMs, maxStreams });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.securePort, o.bindAddress, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.securePort;
  // Bound to every interface, the replica reaches itself (and the admin kubeconfig points) at loopback.
  const local = o.bindAddress === '0.0.0.0' || o.bindAddress === '::' ? '127.0.0.1' : o.bindAddress;
  const host = local.includes(':') ? `[${local}]` : local;
  return {
    server, port, url: `https://${host}:${port}`,
    serve(h) {
      handle = h;
      upgrade = upgradeListener(h);
    },
    close() {
      const closed = new Promise<void>((resolve) => { server.close(() => resolve()); });
      sessions.goAwayAll();
      return closed;
    },
    closeAllConnections() {
      // The HTTP/1.1 connections are http.Server's, tracked on the same object.
      Http1Server.prototype.closeAllConnections.call(server);
      sessions.destroyAll();
    },
  };
}
