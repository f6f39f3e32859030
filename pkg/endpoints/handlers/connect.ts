// Connect subresources (pods/log, exec, attach, portforward, */proxy): find the backend
// through the subresource's declaration, then stream its answer, forward the request, or
// relay an upgrade (upstream: LocationStreamer and UpgradeAwareHandler).
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { KubeletClient } from '../../kubelet/client.js';
import type { KubeObject } from '../../runtime/object.js';
import { errors, StatusError } from '../../runtime/errors.js';
import { subresourceOf, type ConnectContext, type ConnectDef, type ConnectTarget } from '../../registry/rest/resource.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { backendRequest, hostPort } from '../../util/proxy/backend.js';
import { awaitResponse, forwardedHeaders, forwardRequest, pipeUntilClosed, relayUpgrade as relayUpgradeTo, upgradeHeaders } from '../../util/proxy/forward.js';
import { genericServerResponse } from '../../runtime/generic-server-response.js';
import { goDialError, plainError, unreachable } from '../../util/proxy/errors.js';
import { isUpgradeRequest } from '../../util/proxy/hijack.js';
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
      const sub = subresourceOf(h.def, h.info.subresource);
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
  return genericServerResponse({ code, resource: t.resource, name: t.name, serverMessage: text });
}

/** A plain request to a proxy backend; an unreachable one is the proxy transport's 503. */
function forward(ctx: Koa.Context, url: URL, transport: ProxyTarget['transport']): Promise<void> {
  url.search = ctx.querystring ? `?${ctx.querystring}` : '';
  return forwardRequest(ctx, url, transport, forwardedHeaders(ctx, url), (err, host) => { throw unreachable(err, host); });
}

function relayUpgrade(ctx: Koa.Context, url: URL, transport: ProxyTarget['transport']): Promise<void> {
  return relayUpgradeTo(ctx, url, transport, upgradeHeaders(ctx, url));
}
