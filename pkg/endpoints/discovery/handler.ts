// Serves discovery: /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>.
// /api and /apis answer the aggregated document (with ETag) when the Accept header asks
// for it, the legacy one otherwise. Unknown groups and versions are left unhandled so the
// app's not-found handling answers them.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import { aggregatedDiscovery, aggregatedLegacyDiscovery } from './aggregated.js';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './documents.js';
import { aggregatedContentType, negotiateDiscovery } from './negotiation.js';
import { connectionSocket } from '../../util/net/connection.js';
import { goJson } from '../../runtime/serializer/json/go-escapes.js';

export interface DiscoveryOptions {
  /**
   * `<host>:<port>` clients should use, reported in /api's serverAddressByClientCIDRs
   * (upstream: the advertise address and secure port). Defaults to the local address and
   * port the request arrived on.
   */
  serverAddress?: (ctx: Context) => string;
}

export type DiscoveryHandler = (ctx: Context) => Promise<boolean>;

function localServerAddress(ctx: Context): string {
  const socket = connectionSocket(ctx.req);
  let host = socket.localAddress ?? '127.0.0.1';
  if (host.startsWith('::ffff:')) host = host.slice('::ffff:'.length);
  if (host.includes(':')) host = `[${host}]`;
  return `${host}:${socket.localPort ?? 0}`;
}

export function sendJSON(ctx: Context, body: unknown): void {
  ctx.status = 200;
  // Upstream's JSON encoder (Go's escapes) terminates every document with a newline.
  ctx.body = `${goJson(body)}\n`;
  ctx.set('Content-Type', 'application/json');
}

export function sendAggregated(ctx: Context, body: unknown): void {
  // The ETag is of the bytes written, as upstream's is of its json.Marshal (Go's escapes too).
  const json = goJson(body);
  const etag = `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`;
  ctx.set('ETag', etag);
  ctx.set('Vary', 'Accept');
  ctx.set('Cache-Control', 'public');
  if (ctx.get('If-None-Match') === etag) {
    ctx.body = null;
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = `${json}\n`;
  ctx.set('Content-Type', aggregatedContentType);
}

export function createDiscoveryHandler(scheme: ResourceScheme, options: DiscoveryOptions = {}): DiscoveryHandler {
  const serverAddress = options.serverAddress ?? localServerAddress;
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    const path = ctx.path.length > 1 && ctx.path.endsWith('/') ? ctx.path.slice(0, -1) : ctx.path;
    const segs = path.split('/').slice(1);
    if (segs[0] === 'api') {
      if (segs.length === 1) {
        if (negotiateDiscovery(ctx.get('Accept')) === 'aggregated') sendAggregated(ctx, aggregatedLegacyDiscovery(scheme));
        else sendJSON(ctx, apiVersions(scheme, serverAddress(ctx)));
        return true;
      }
      if (segs.length === 2) return sendIfFound(ctx, apiResourceList(scheme, '', segs[1]));
      return false;
    }
    if (segs[0] === 'apis') {
      if (segs.length === 1) {
        if (negotiateDiscovery(ctx.get('Accept')) === 'aggregated') sendAggregated(ctx, aggregatedDiscovery(scheme));
        else sendJSON(ctx, apiGroupList(scheme));
        return true;
      }
      // The core group is only reachable under /api.
      if (segs[1] === '') return false;
      if (segs.length === 2) return sendIfFound(ctx, apiGroupDocument(scheme, segs[1]));
      if (segs.length === 3) return sendIfFound(ctx, apiResourceList(scheme, segs[1], segs[2]));
    }
    return false;
  };
}

function sendIfFound(ctx: Context, doc: object | undefined): boolean {
  if (!doc) return false;
  sendJSON(ctx, doc);
  return true;
}
