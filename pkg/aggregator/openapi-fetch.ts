// Reads an extension server's OpenAPI as upstream's aggregator downloaders do: asked as
// system:aggregator (no groups) with Accept application/json; /openapi/v2 revalidated
// with the ETag the server gave last time (If-None-Match), a 404 meaning the server
// publishes no document; the /openapi/v3 root for the documents it lists.
import type { TransportConfig } from '../util/proxy/transport.js';
import type { JSONObject } from '../openapi/merge/swagger-merge.js';
import { fetchAs } from './fetch.js';

export const openAPIUser = { name: 'system:aggregator', groups: [] };
/** Upstream's specDownloadTimeout. */
const downloadTimeoutMs = 60_000;

export type V2Download =
  | { kind: 'spec'; spec: JSONObject; etag?: string }
  | { kind: 'notModified' }
  | { kind: 'none' };

const isObject = (v: unknown): v is JSONObject => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseObject(body: string, what: string): JSONObject {
  const v: unknown = JSON.parse(body);
  if (!isObject(v)) throw new Error(`${what} is not a JSON object`);
  return v;
}

export async function downloadV2(base: URL, transport: TransportConfig, etag?: string): Promise<V2Download> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (etag) headers['if-none-match'] = etag;
  const res = await fetchAs(new URL('/openapi/v2', base), transport, openAPIUser, headers, downloadTimeoutMs);
  if (res.status === 304 && etag) return { kind: 'notModified' };
  if (res.status === 404) return { kind: 'none' };
  if (res.status !== 200) throw new Error(`failed to retrieve openAPI spec, http error: ResponseCode: ${res.status}, Body: ${res.body}`);
  const tag = res.headers.etag;
  return { kind: 'spec', spec: parseObject(res.body, 'OpenAPI v2 spec'), etag: typeof tag === 'string' && tag ? tag : undefined };
}

/** The v3 root's entries (key to serverRelativeURL); undefined when the server has no /openapi/v3. */
export async function downloadV3Root(base: URL, transport: TransportConfig): Promise<Map<string, string> | undefined> {
  const res = await fetchAs(new URL('/openapi/v3', base), transport, openAPIUser, { accept: 'application/json' }, downloadTimeoutMs);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`failed to retrieve openAPI v3 root, http error: ResponseCode: ${res.status}, Body: ${res.body}`);
  const root = parseObject(res.body, 'OpenAPI v3 root');
  const out = new Map<string, string>();
  for (const [key, entry] of Object.entries(isObject(root.paths) ? root.paths : {})) {
    if (isObject(entry) && typeof entry.serverRelativeURL === 'string') out.set(key, entry.serverRelativeURL);
  }
  return out;
}
