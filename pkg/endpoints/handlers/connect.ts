// Connect subresources (pods/log, exec, attach, portforward, */proxy): find the backend
// through the subresource's declaration, then stream its answer, forward the request, or
// relay an upgrade (upstream: LocationStreamer and UpgradeAwareHandler).
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { KubeletClient } from '../../kubelet/client.js';
import type { KubeObject } from '../../runtime/object.js';
import { errors, StatusError } from '../../runtime/errors.js';
import type { ConnectContext, ConnectDef, ConnectTarget } from '../../runtime/scheme.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { backendRequest, endToEndHeaders, hostPort } from '../../util/proxy/backend.js';
import { genericServerResponse, goDialError, plainError, unreachable } from '../../util/proxy/errors.js';
import { isUpgradeRequest, takeUpgradeSocket } from '../../util/proxy/hijack.js';
import type { HandlerScope } from './scope.js';

export interface ConnectDeps {
  kubelet: KubeletClient;
  readStored: (key: string) => Promise<KubeObject>;
}

type Stores = (group: string, plural: string) => GenericStore | undefined;

/** Upstream's proxy subpath: the parts after the subresource, with the request's trailing slash. */
function proxyPath(h: HandlerScope): string {
  let p = h.info.parts.join('/');
  if (p && !p.startsWith('/')) p = `/${p}`;
  if (h.info.path.endsWith('/') && p !== '' && !p.endsWith('/')) p += '/';
  if (h.info.path.endsWith('/') && p === '') p = '/';
  return p;
}

export function connectHandler(def: ConnectDef, deps: ConnectDeps, stores: Stores) {
  return async (h: HandlerScope): Promise<void> => {
    const { ctx } = h;
    if (!def.methods.includes(ctx.method)) {
      throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
    }
    const c: ConnectContext = {
      namespace: h.info.namespace, name: h.info.name, path: proxyPath(h), method: ctx.method,
      query: h.query, stores, readStored: deps.readStored, kubelet: deps.kubelet,
    };
    if (def.options) {
      const sub = h.def.subresources?.find((s) => s.name === h.info.subresource);
      const attrs = {
        operation: 'CONNECT' as const, group: h.def.group, version: h.def.version, kind: sub?.kind ?? '',
        resource: h.def.plural, subresource: h.info.subresource, namespace: h.info.namespace, name: h.info.name,
        object: def.options(c) as unknown as KubeObject, user: h.user, dryRun: false,
      };
      await h.admission.admit(attrs);
      await h.admission.validate(attrs);
    }
    const target = await def.target(c);
    if (target.kind === 'stream') return stream(ctx, target);
    if (isUpgradeRequest(ctx.req)) return relayUpgrade(ctx, target.url, target.transport);
    if (target.upgradeRequired) throw errors.badRequest('Upgrade request required');
    if (target.rootRedirect && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.status = 301;
      ctx.set('Location', `${ctx.path}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      ctx.body = '';
      return;
    }
    return forward(ctx, target.url, target.transport);
  };
}

type StreamTarget = Extract<ConnectTarget, { kind: 'stream' }>;
type ProxyTarget = Extract<ConnectTarget, { kind: 'proxy' }>;

function awaitResponse(req: ReturnType<typeof backendRequest>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
}

/** pods/log: the kubelet's body, unbuffered (follow streams as the kubelet writes). */
async function stream(ctx: Koa.Context, t: StreamTarget): Promise<void> {
  if (!t.url || !t.transport) {
    ctx.status = 200;
    ctx.set('Content-Type', t.contentType);
    ctx.body = '';
    return;
  }
  const req = backendRequest(t.url, t.transport, 'GET', {});
  req.end();
  let res: IncomingMessage;
  try {
    res = await awaitResponse(req);
  } catch (err) {
    // Go's http.Client wraps the dial error with the method and URL.
    throw plainError(`Get ${JSON.stringify(t.url.href)}: ${goDialError(err, hostPort(t.url))}`);
  }
  const code = res.statusCode ?? 500;
  if (code < 200 || code > 206) throw await checkerError(res, code, t);
  ctx.status = 200;
  ctx.respond = false;
  ctx.res.writeHead(200, { 'Content-Type': t.contentType });
  pipeUntilClosed(res, ctx);
}

/** Upstream's GenericHttpResponseChecker: the kubelet's error text becomes a Status. */
async function checkerError(res: IncomingMessage, code: number, t: StreamTarget): Promise<StatusError> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= 50_000) break;
  }
  res.destroy();
  const text = Buffer.concat(chunks).subarray(0, 50_000).toString('utf8');
  if (code === 500) return errors.internal(text);
  if (code === 400) return errors.badRequest(text);
  return genericServerResponse(code, t.resource, t.name, text);
}

function pipeUntilClosed(res: IncomingMessage, ctx: Koa.Context): void {
  res.pipe(ctx.res);
  res.on('error', () => ctx.res.destroy());
  ctx.res.on('close', () => res.destroy());
}

const corsHeaders = /^access-control-/i;

/** A plain request to a proxy backend: method, path, query, body and end-to-end headers. */
async function forward(ctx: Koa.Context, url: URL, transport: ProxyTarget['transport']): Promise<void> {
  url.search = ctx.querystring ? `?${ctx.querystring}` : '';
  const headers = endToEndHeaders(ctx.req.headers);
  headers.host = url.host;
  const prior = ctx.req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${prior}, ${ctx.req.socket.remoteAddress}` : ctx.req.socket.remoteAddress;
  headers['x-forwarded-uri'] = ctx.path;
  if (ctx.req.headers.host) headers['x-forwarded-host'] = ctx.req.headers.host;
  headers['x-forwarded-proto'] = 'https';
  const req = backendRequest(url, transport, ctx.method, headers);
  ctx.req.pipe(req);
  let res: IncomingMessage;
  try {
    res = await awaitResponse(req);
  } catch (err) {
    throw unreachable(err, hostPort(url));
  }
  relayResponse(ctx, res);
}

function relayResponse(ctx: Koa.Context, res: IncomingMessage): void {
  const out = endToEndHeaders(res.headers);
  for (const k of Object.keys(out)) if (corsHeaders.test(k)) delete out[k];
  ctx.status = res.statusCode ?? 502;
  ctx.respond = false;
  ctx.res.writeHead(res.statusCode ?? 502, res.statusMessage, out);
  pipeUntilClosed(res, ctx);
}

/**
 * The upgrade goes to the backend as it came (with its Connection and Upgrade headers);
 * on 101 the backend's response head is written to the client and from then on the two
 * sockets are joined byte for byte. Any other answer is relayed as a response.
 */
async function relayUpgrade(ctx: Koa.Context, url: URL, transport: ProxyTarget['transport']): Promise<void> {
  const headers = endToEndHeaders(ctx.req.headers, true);
  delete headers['content-length'];
  headers.host = url.host;
  const req = backendRequest(url, transport, ctx.method, headers);
  const outcome = await new Promise<{ res: IncomingMessage; socket?: import('node:stream').Duplex; head?: Buffer } | { err: unknown }>((resolve) => {
    req.once('upgrade', (res, socket, head) => resolve({ res, socket, head }));
    req.once('response', (res) => resolve({ res }));
    req.once('error', (err) => resolve({ err }));
    req.end();
  });
  if ('err' in outcome) throw plainError(goDialError(outcome.err, hostPort(url)));
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
