// Relaying one client request to a backend and its answer back (upstream:
// UpgradeAwareHandler): plain requests are piped both ways and the response streams as
// the backend writes it; upgrades (SPDY, websocket) join the two sockets after the
// backend's 101. Callers decide the headers sent and how an unreachable backend looks.
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { TransportConfig } from './transport.js';
import { errors } from '../../runtime/errors.js';
import { backendRequest, endToEndHeaders, hostPort } from './backend.js';
import { goDialError, plainError } from './errors.js';
import { takeUpgradeSocket } from './hijack.js';
import { connectionSocket, isHTTP2 } from '../net/connection.js';

/** What to throw (or answer) when the backend cannot be reached; `host` is host:port. */
export type UnreachableHandler = (err: unknown, host: string) => Promise<void> | void;

export function awaitResponse(req: ReturnType<typeof backendRequest>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
}

export function pipeUntilClosed(res: IncomingMessage, ctx: Koa.Context): void {
  res.pipe(ctx.res);
  res.on('error', () => ctx.res.destroy());
  ctx.res.on('close', () => res.destroy());
}

/** The request's end-to-end headers plus upstream's X-Forwarded-* set, Host set to the backend. */
export function forwardedHeaders(ctx: Koa.Context, url: URL): OutgoingHttpHeaders {
  const headers = endToEndHeaders(ctx.req.headers);
  headers.host = url.host;
  const prior = ctx.req.headers['x-forwarded-for'];
  const peer = connectionSocket(ctx.req).remoteAddress;
  headers['x-forwarded-for'] = prior ? `${prior}, ${peer}` : peer;
  headers['x-forwarded-uri'] = ctx.path;
  // Go's req.Host: the Host header, or HTTP/2's :authority.
  const host = ctx.req.headers.host ?? ctx.req.headers[':authority'];
  if (host) headers['x-forwarded-host'] = host;
  headers['x-forwarded-proto'] = 'https';
  return headers;
}

/** A plain request to the backend: method, the URL's path and query, body and `headers`. */
export async function forwardRequest(
  ctx: Koa.Context, url: URL, transport: TransportConfig, headers: OutgoingHttpHeaders, unreachable: UnreachableHandler,
): Promise<void> {
  const req = backendRequest(url, transport, ctx.method, headers);
  ctx.req.pipe(req);
  let res: IncomingMessage;
  try {
    res = await awaitResponse(req);
  } catch (err) {
    return unreachable(err, hostPort(url));
  }
  relayResponse(ctx, res);
}

const corsHeaders = /^access-control-/i;

export function relayResponse(ctx: Koa.Context, res: IncomingMessage): void {
  const out = endToEndHeaders(res.headers);
  for (const k of Object.keys(out)) if (corsHeaders.test(k)) delete out[k];
  ctx.status = res.statusCode ?? 502;
  ctx.respond = false;
  // HTTP/2 has no reason phrase.
  if (isHTTP2(ctx.req)) ctx.res.writeHead(res.statusCode ?? 502, out);
  else ctx.res.writeHead(res.statusCode ?? 502, res.statusMessage, out);
  // Streams (watches) reach the client chunk by chunk, not when the backend is done.
  ctx.res.flushHeaders();
  pipeUntilClosed(res, ctx);
}

/** Upgrade headers: the request's end-to-end headers with Connection and Upgrade kept. */
export function upgradeHeaders(ctx: Koa.Context, url: URL): OutgoingHttpHeaders {
  const headers = endToEndHeaders(ctx.req.headers, true);
  delete headers['content-length'];
  headers.host = url.host;
  return headers;
}

/**
 * The upgrade goes to the backend as it came (with its Connection and Upgrade headers);
 * on 101 the backend's response head is written to the client and from then on the two
 * sockets are joined byte for byte. Any other answer is relayed as a response.
 */
export async function relayUpgrade(
  ctx: Koa.Context, url: URL, transport: TransportConfig, headers: OutgoingHttpHeaders,
  unreachable: UnreachableHandler = (err, host) => { throw plainError(goDialError(err, host)); },
): Promise<void> {
  const req = backendRequest(url, transport, ctx.method, headers);
  const outcome = await new Promise<{ res: IncomingMessage; socket?: Duplex; head?: Buffer } | { err: unknown }>((resolve) => {
    req.once('upgrade', (res, socket, head) => resolve({ res, socket, head }));
    req.once('response', (res) => resolve({ res }));
    req.once('error', (err) => resolve({ err }));
    req.end();
  });
  if ('err' in outcome) return unreachable(outcome.err, hostPort(url));
  const { res, socket: backend, head: backendHead } = outcome;
  if (!backend) return relayResponse(ctx, res);
  const client = takeUpgradeSocket(ctx.req);
  if (!client) {
    backend.destroy();
    throw errors.badRequest('Upgrade request required');
  }
  ctx.respond = false;
  let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`;
  for (let i = 0; i < res.rawHeaders.length; i += 2) head += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`;
  client.socket.write(`${head}\r\n`);
  if (backendHead && backendHead.length > 0) client.socket.write(backendHead);
  if (client.head.length > 0) backend.write(client.head);
  backend.pipe(client.socket);
  client.socket.pipe(backend);
  const close = () => { backend.destroy(); client.socket.destroy(); };
  backend.on('error', close);
  client.socket.on('error', close);
  backend.on('close', () => client.socket.end());
  client.socket.on('close', () => backend.destroy());
}
