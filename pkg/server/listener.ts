// The replica's HTTPS listener, opened before etcd is reached, as upstream's kube-apiserver
// listens at once: while the replica waits for etcd and bootstraps, /healthz, /livez and
// /readyz answer with their checks (etcd's failing, its reason at /readyz/etcd) and every
// other request a 503 with Retry-After, so probes and load balancers see a starting server
// rather than a refused connection. Once started, the whole app serves on the same socket.
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import Koa from 'koa';
import type { RequestListener } from '../client/loopback.js';
import { upgradeListener } from '../util/proxy/hijack.js';
import type { PathHandler } from './app.js';
import { applyConnectionLimits, connectionOptions } from './connection-limits.js';
import type { ServerOptions } from './options.js';
import type { ServingCerts } from './serving-certs.js';
import { sniCallback } from './tls-options.js';

export interface Listener {
  server: Server;
  /** https://<loopback or bind address>:<port>: how the replica reaches itself. */
  url: string;
  port: number;
  /** From now on the app answers everything, upgrades included. */
  serve(handle: RequestListener): void;
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
  return app.callback();
}

export async function listen(o: ServerOptions, certs: ServingCerts, health: PathHandler): Promise<Listener> {
  let handle = startingApp(health);
  let upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void = (_req, socket) => {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n\r\n');
  };
  const tlsBase = { minVersion: o.tls.minVersion, ...(o.tls.ciphers ? { ciphers: o.tls.ciphers } : {}) };
  const server: Server = createServer({
    ...connectionOptions, ...tlsBase, cert: certs.cert, key: certs.key, requestCert: true, rejectUnauthorized: false,
    SNICallback: sniCallback(o.tls.sniCertKeys, { ...tlsBase, requestCert: true, rejectUnauthorized: false }),
  }, (req, res) => handle(req, res));
  applyConnectionLimits(server);
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
  };
}
