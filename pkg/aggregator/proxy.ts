// The aggregator's proxy (upstream: kube-aggregator's proxyHandler). After
// authentication and authorization, a request for /apis/<group>/<version>[/...] whose
// APIService <version>.<group> names a service goes to that service: TLS per the
// APIService, the proxy client certificate, the caller's identity in X-Remote-*
// headers. Local APIServices (and group versions with none) are left to this server.
// Failures are answered as upstream's http.Error does: plain text, no Status.
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { UserInfo } from '../authentication/user.js';
import { forwardedHeaders, forwardRequest, relayUpgrade, upgradeHeaders } from '../util/proxy/forward.js';
import { goDialError } from '../util/proxy/errors.js';
import { isUpgradeRequest } from '../util/proxy/hijack.js';
import type { KubeObject } from '../runtime/object.js';
import { apiServiceSpec, isAvailable } from './apiservice.js';
import { withAuthProxyHeaders } from './auth-headers.js';
import type { APIServiceLookup } from './apiservices.js';
import type { ServiceResolver } from './resolver.js';
import { serviceTransport, type ProxyClientCert } from './transport.js';

export interface ProxyDeps {
  apiServices: APIServiceLookup;
  resolver: ServiceResolver;
  clientCert?: ProxyClientCert;
  log: Logger;
}

const groupVersionPath = /^\/apis\/([^/]+)\/([^/]+)(?:\/|$)/;

/** Go's http.Error: text/plain, nosniff, the message and a newline. */
export function plainTextError(ctx: Koa.Context, code: number, message: string): void {
  ctx.status = code;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `${message}\n`;
}

/** Go's url.Values.Encode: keys sorted, values in order. */
function encodedQuery(querystring: string): string {
  const q = new URLSearchParams(querystring);
  q.sort();
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Not an async function: every resource request asks it first, and nearly all pass at once. */
export function proxyHandler(deps: ProxyDeps): (ctx: Koa.Context) => boolean | Promise<boolean> {
  return (ctx) => {
    const m = groupVersionPath.exec(ctx.path);
    if (!m) return false;
    const apiService = deps.apiServices.get(m[1]!, m[2]!);
    if (!apiService || !apiServiceSpec(apiService).service) return false;
    return proxyToService(deps, ctx, apiService, ctx.path).then(() => true);
  };
}

/**
 * Relays the request to `path` on the service of the service-backed `apiService`, as the
 * caller; also how the OpenAPI v3 documents of extension servers are served.
 */
export async function proxyToService(deps: Omit<ProxyDeps, 'apiServices'>, ctx: Koa.Context, apiService: KubeObject, path: string): Promise<void> {
  const spec = apiServiceSpec(apiService);
  if (!spec.service) throw new Error(`APIService ${apiService.metadata.name ?? ''} is local`);
  if (!isAvailable(apiService)) {
    plainTextError(ctx, 503, 'service unavailable');
    return;
  }
  const user = ctx.state.user as UserInfo | undefined;
  if (!user) {
    plainTextError(ctx, 500, 'missing user');
    return;
  }
  let location: URL;
  try {
    location = deps.resolver.resolve(spec.service.namespace, spec.service.name, spec.service.port);
  } catch (err) {
    deps.log.error({ service: `${spec.service.namespace}/${spec.service.name}`, err: (err as Error).message }, 'error resolving service');
    plainTextError(ctx, 503, 'service unavailable');
    return;
  }
  location.pathname = path;
  location.search = encodedQuery(ctx.querystring);
  const transport = serviceTransport(spec, deps.clientCert);
  const unreachable = (err: unknown, host: string) => {
    const message = goDialError(err, host);
    deps.log.error({ err: message }, 'Error while proxying request');
    plainTextError(ctx, 503, message);
  };
  if (isUpgradeRequest(ctx.req)) {
    await relayUpgrade(ctx, location, transport, withAuthProxyHeaders(upgradeHeaders(ctx, location), user), unreachable);
  } else {
    await forwardRequest(ctx, location, transport, withAuthProxyHeaders(forwardedHeaders(ctx, location), user), unreachable);
  }
}
