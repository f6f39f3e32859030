// The OpenAPI documents for one Scheme, built on first use and kept: the Swagger 2.0
// document (JSON and gnostic protobuf), one OpenAPI 3.0 document per v3 key, and the v3
// root that lists them with content hashes. With extension servers (the aggregator), the
// Swagger document is ours merged with theirs, ours first so our names win, and the v3
// root also lists their documents (ours win a key both publish).
import { createHash } from 'node:crypto';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import { canonicalJSON } from './builder/canonical-json.js';
import { schemeDefinitions } from './builder/definition-source.js';
import { buildPaths, docKeyOf } from './builder/operations.js';
import { buildV2, type DocInfo } from './builder/v2.js';
import { buildV3 } from './builder/v3.js';
import type { OpenAPIExtensions } from './extensions.js';
import { mergeSpecs, type JSONObject } from './merge/swagger-merge.js';
import { encodeSwaggerProto } from './proto/gnostic-v2.js';

export interface Served {
  data: Buffer;
  /** Unquoted: upper-case hex SHA-512 of the JSON form, as upstream computes it. */
  etag: string;
  lastModified: Date;
}

export function computeETag(data: Buffer | string): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value as T;
  };
}

export class OpenAPIDocuments {
  readonly v2JSON: () => Served;
  readonly v2Proto: () => Served;
  readonly v3Root: () => Served;
  private readonly v3: () => Map<string, Served>;

  constructor(scheme: ResourceScheme, info: DocInfo, extensions?: OpenAPIExtensions) {
    const lastModified = new Date();
    // One definitions source per document set: the Scheme's custom resources as they are now.
    const defs = lazy(() => schemeDefinitions(scheme));
    const paths = lazy(() => buildPaths(scheme, defs()));
    const v2 = lazy(() => (extensions?.v2Specs() ?? []).reduce<JSONObject>(mergeSpecs, buildV2(paths(), info, defs())));
    this.v2JSON = lazy(() => {
      const data = Buffer.from(canonicalJSON(v2()));
      return { data, etag: computeETag(data), lastModified };
    });
    this.v2Proto = lazy(() => ({
      data: Buffer.from(encodeSwaggerProto(JSON.parse(this.v2JSON().data.toString()) as Record<string, unknown>)),
      etag: this.v2JSON().etag,
      lastModified,
    }));
    this.v3 = lazy(() => {
      const out = new Map<string, Served>();
      for (const [key, doc] of buildV3(paths(), info, defs(), customResourceDocKeys(scheme))) {
        const data = Buffer.from(canonicalJSON(doc));
        out.set(key, { data, etag: computeETag(data), lastModified });
      }
      return out;
    });
    this.v3Root = lazy(() => {
      const rootPaths: Record<string, { serverRelativeURL: string }> = {};
      for (const [key, url] of extensions?.v3Paths() ?? []) rootPaths[key] = { serverRelativeURL: url };
      for (const [key, doc] of this.v3()) rootPaths[key] = { serverRelativeURL: v3URL(key, doc.etag) };
      const data = Buffer.from(canonicalJSON({ paths: rootPaths }));
      return { data, etag: computeETag(data), lastModified };
    });
  }

  v3Doc(key: string): Served | undefined {
    return this.v3().get(key);
  }
}

/** The v3 keys of group-versions that only custom resources serve. */
function customResourceDocKeys(scheme: ResourceScheme): Set<string> {
  const keys = new Set<string>();
  for (const group of scheme.groups()) {
    for (const version of scheme.versionsOf(group)) {
      if (scheme.resourcesOf(group, version).every((d) => d.customResource)) keys.add(docKeyOf(group, version));
    }
  }
  return keys;
}

export function v3URL(key: string, etag: string): string {
  return `/openapi/v3/${key}?hash=${encodeURIComponent(etag)}`;
}
