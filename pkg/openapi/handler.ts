// Serves /openapi/v2 and /openapi/v3[/<key>] for the resources registered in a Scheme.
// Behaviour follows upstream's kube-openapi handlers: Accept negotiation (406 when
// nothing matches), ETag (upper-case SHA-512 of the JSON) with 304 on If-None-Match,
// `?hash=` on v3 documents answered with immutable caching headers when it matches and a
// 301 to the current hash when it does not. Documents are rebuilt only when the set of
// registered resources, or what the extension servers publish, changes.
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { DocInfo } from './builder/v2.js';
import { OpenAPIDocuments, v3URL, type Served } from './documents.js';
import type { OpenAPIExtensions } from './extensions.js';
import { negotiate } from './negotiate.js';

export interface OpenAPIHandlerOptions {
  /** `info` of every document; upstream reports title "Kubernetes". */
  info?: Partial<DocInfo>;
  /** Extension servers' documents (the aggregator), merged into ours. */
  extensions?: OpenAPIExtensions;
}

export type OpenAPIHandler = (ctx: Context) => Promise<boolean>;

const JSON_TYPE = 'application/json';
const V2_PROTO = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The spelling clients (kubectl, client-go) send; answered as V2_PROTO, as upstream does. */
const V2_PROTO_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const V2_OFFERS = [JSON_TYPE, V2_PROTO_DEPRECATED, V2_PROTO] as const;
const V3_OFFERS = [JSON_TYPE] as const;

/** Bodies smaller than this go out uncompressed. */
const GZIP_MIN = 1024;

/**
 * Serial numbers of custom resource declarations: a CRD change replaces its declaration
 * in the Scheme with a new object, so a new serial is a new schema to publish.
 */
const serials = new WeakMap<object, number>();
let nextSerial = 0;

function serialOf(def: object): number {
  let n = serials.get(def);
  if (n === undefined) {
    n = ++nextSerial;
    serials.set(def, n);
  }
  return n;
}

function fingerprint(scheme: ResourceScheme): string {
  return scheme.resources().map((r) => [
    r.group, r.version, r.plural, r.kind, r.namespaced, r.verbs.join(','), r.returnDeletedObject ?? '',
    (r.subresources ?? []).map((s) => `${s.name}:${s.group ?? ''}:${s.version ?? ''}:${s.kind}:${s.verbs.join(',')}`).join(';'),
    r.customResource ? `cr${serialOf(r.customResource)}` : '',
  ].join('/')).join('|');
}

const gzipCache = new WeakMap<Buffer, Buffer>();

function gzipped(data: Buffer): Buffer {
  let gz = gzipCache.get(data);
  if (!gz) {
    gz = gzipSync(data);
    gzipCache.set(data, gz);
  }
  return gz;
}

/** If-None-Match (any listed tag, weak or strong) or, without it, If-Modified-Since. */
function notModified(ctx: Context, doc: Served): boolean {
  const inm = ctx.get('If-None-Match');
  if (inm) {
    const quoted = `"${doc.etag}"`;
    return inm.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === '*' || t === quoted);
  }
  const ims = Date.parse(ctx.get('If-Modified-Since'));
  return !Number.isNaN(ims) && Math.floor(doc.lastModified.getTime() / 1000) * 1000 <= ims;
}

function send(ctx: Context, doc: Served, contentType: string): void {
  ctx.set('ETag', `"${doc.etag}"`);
  ctx.set('Last-Modified', doc.lastModified.toUTCString());
  if (notModified(ctx, doc)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.status = 200;
  ctx.set('Content-Type', contentType);
  if (doc.data.length >= GZIP_MIN && /\bgzip\b/i.test(ctx.get('Accept-Encoding'))) {
    ctx.append('Vary', 'Accept-Encoding');
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzipped(doc.data);
    return;
  }
  ctx.body = doc.data;
}

function notAcceptable(ctx: Context): void {
  ctx.status = 406;
  ctx.body = '';
}

export function createOpenAPIHandler(scheme: ResourceScheme, options: OpenAPIHandlerOptions = {}): OpenAPIHandler {
  const info: DocInfo = { title: 'Kubernetes', version: 'unversioned', ...options.info };
  let built: { key: string; docs: OpenAPIDocuments } | undefined;
  const documents = (): OpenAPIDocuments => {
    const key = `${fingerprint(scheme)}#${options.extensions?.revision() ?? 0}`;
    if (!built || built.key !== key) built = { key, docs: new OpenAPIDocuments(scheme, info, options.extensions) };
    return built.docs;
  };

  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    const path = ctx.path;
    if (path === '/openapi/v2') {
      ctx.append('Vary', 'Accept');
      const offer = negotiate(ctx.get('Accept'), V2_OFFERS);
      if (!offer) {
        notAcceptable(ctx);
      } else if (offer === JSON_TYPE) {
        send(ctx, documents().v2JSON(), JSON_TYPE);
      } else {
        send(ctx, documents().v2Proto(), V2_PROTO);
      }
      return true;
    }
    if (path === '/openapi/v3' || path === '/openapi/v3/') {
      send(ctx, documents().v3Root(), JSON_TYPE);
      return true;
    }
    if (!path.startsWith('/openapi/v3/')) return false;
    const key = path.slice('/openapi/v3/'.length).replace(/\/$/, '');
    const doc = documents().v3Doc(key);
    if (!doc) return options.extensions?.serveV3(ctx, key) ?? false;
    ctx.append('Vary', 'Accept');
    if (!negotiate(ctx.get('Accept'), V3_OFFERS)) {
      notAcceptable(ctx);
      return true;
    }
    const hash = typeof ctx.query.hash === 'string' ? ctx.query.hash : '';
    if (hash) {
      if (hash !== doc.etag) {
        // Koa keeps a redirect status set beforehand instead of its default 302.
        ctx.status = 301;
        ctx.redirect(v3URL(key, doc.etag));
        return true;
      }
      ctx.set('Cache-Control', 'public, immutable');
      ctx.set('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
    }
    send(ctx, doc, JSON_TYPE);
    return true;
  };
}
