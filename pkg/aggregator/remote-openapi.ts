// Each replica's copy of the OpenAPI of the service-backed APIServices (upstream's
// OpenAPI v2 aggregation controller and v3 spec proxier), kept for the OpenAPI handler
// through the OpenAPIExtensions seam. Per available APIService: its /openapi/v2 cut to
// the APIService's group version (merged into ours by the handler), and the entry of its
// /openapi/v3 root for that group version (listed in ours; requests for the document are
// proxied to the service as the caller, as upstream's proxier does). Fetched on every
// APIService change and every minute; an APIService that is deleted, loses its service
// or is not Available is dropped; a failed fetch keeps what was fetched before.
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Informer } from '../client/informer.js';
import type { OpenAPIExtensions } from '../openapi/extensions.js';
import { canonicalJSON } from '../openapi/builder/canonical-json.js';
import { filterToGroupVersion, type JSONObject } from '../openapi/merge/swagger-merge.js';
import { apiServiceSpec, isAvailable, type APIServiceSpec } from './apiservice.js';
import { downloadV2, downloadV3Root } from './openapi-fetch.js';
import { proxyToService } from './proxy.js';
import { APIServiceRefresher } from './refresher.js';
import type { ServiceResolver } from './resolver.js';
import { serviceTransport, type ProxyClientCert } from './transport.js';

export interface RemoteOpenAPIDeps {
  apiServices: Informer;
  resolver: ServiceResolver;
  clientCert?: ProxyClientCert;
  log: Logger;
  /** Default 60 s (upstream's successfulUpdateDelay). */
  refreshMs?: number;
}

interface Published {
  spec: APIServiceSpec;
  /** The Swagger document cut to the group version, and the server's ETag for it. */
  v2?: JSONObject;
  v2ETag?: string;
  /** The v3 document key and the serverRelativeURL the server lists it under. */
  v3?: { key: string; url: string };
}

/** Upstream's merge order: higher group priority first, then higher version priority, then name. */
function byPriority([an, a]: [string, Published], [bn, b]: [string, Published]): number {
  return b.spec.groupPriorityMinimum - a.spec.groupPriorityMinimum
    || b.spec.versionPriority - a.spec.versionPriority
    || (an < bn ? -1 : an > bn ? 1 : 0);
}

export class RemoteOpenAPI implements OpenAPIExtensions {
  private published = new Map<string, Published>();
  private rev = 0;
  private readonly refresher: APIServiceRefresher;

  constructor(private readonly d: RemoteOpenAPIDeps) {
    this.refresher = new APIServiceRefresher(d.apiServices, (name) => this.fetch(name), d.refreshMs ?? 60_000);
  }

  start(): void { this.refresher.start(); }
  stop(): void { this.refresher.stop(); }
  settled(): Promise<void> { return this.refresher.settled(); }

  revision(): number { return this.rev; }

  v2Specs(): JSONObject[] {
    return [...this.published].sort(byPriority).flatMap(([, p]) => (p.v2 ? [p.v2] : []));
  }

  v3Paths(): ReadonlyMap<string, string> {
    const out = new Map<string, string>();
    for (const [, p] of [...this.published].sort(byPriority)) if (p.v3 && !out.has(p.v3.key)) out.set(p.v3.key, p.v3.url);
    return out;
  }

  async serveV3(ctx: Koa.Context, key: string): Promise<boolean> {
    const name = [...this.published].sort(byPriority).find(([, p]) => p.v3?.key === key)?.[0];
    const apiService = name === undefined ? undefined : this.d.apiServices.get('', name);
    if (!apiService || !apiServiceSpec(apiService).service) return false;
    await proxyToService(this.d, ctx, apiService, `/openapi/v3/${key}`);
    return true;
  }

  private set(name: string, next: Published | undefined): void {
    const before = this.published.get(name);
    if (next) this.published.set(name, next);
    else this.published.delete(name);
    const view = (p?: Published) => canonicalJSON(p ? { v2: p.v2 ?? null, v3: p.v3 ?? null, g: p.spec.groupPriorityMinimum, v: p.spec.versionPriority } : null);
    if (view(before) !== view(next)) this.rev++;
  }

  private async fetch(name: string): Promise<void> {
    const o = this.d.apiServices.get('', name);
    const spec = o && apiServiceSpec(o);
    // Upstream fetches through its proxy, which refuses an unavailable APIService.
    if (!o || !spec?.service || !isAvailable(o)) { this.set(name, undefined); return; }
    const known = this.published.get(name);
    const next: Published = { ...known, spec };
    let base: URL;
    try {
      base = this.d.resolver.resolve(spec.service.namespace, spec.service.name, spec.service.port);
    } catch (err) {
      this.d.log.warn({ apiservice: name, err: (err as Error).message }, 'cannot resolve the service of an aggregated API');
      return;
    }
    const transport = serviceTransport(spec, this.d.clientCert);
    try {
      const v2 = await downloadV2(base, transport, known?.v2ETag);
      if (v2.kind === 'spec') {
        next.v2 = filterToGroupVersion(v2.spec, spec.group, spec.version);
        next.v2ETag = v2.etag;
      } else if (v2.kind === 'none') {
        next.v2 = undefined;
        next.v2ETag = undefined;
      }
    } catch (err) {
      this.d.log.warn({ apiservice: name, err: (err as Error).message }, 'loading OpenAPI spec of an aggregated API failed');
    }
    try {
      const key = `apis/${spec.group}/${spec.version}`;
      const url = (await downloadV3Root(base, transport))?.get(key);
      next.v3 = url === undefined ? undefined : { key, url };
    } catch (err) {
      this.d.log.warn({ apiservice: name, err: (err as Error).message }, 'loading OpenAPI v3 root of an aggregated API failed');
    }
    // The APIService may have gone (or become unavailable) while fetching.
    const now = this.d.apiServices.get('', name);
    this.set(name, now && isAvailable(now) ? next : undefined);
  }
}
