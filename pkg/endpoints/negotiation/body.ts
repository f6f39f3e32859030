// Reading and decoding request bodies: size limit, then JSON or YAML by Content-Type.
import type { IncomingMessage } from 'node:http';
import { parseDocument } from 'yaml';
import { errors } from '../../runtime/errors.js';

/** Upstream's limit for request bodies (3 MiB). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw errors.requestEntityTooLarge(`limit is ${limit}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw errors.requestEntityTooLarge(`limit is ${limit}`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isYamlMediaType(t: string): boolean {
  return t === 'application/yaml' || t === 'application/apply-patch+yaml' || t.endsWith('+yaml');
}

/** Parses a JSON or YAML body; syntax errors are 400 BadRequest as upstream. */
export function decodeBody(raw: Buffer, mediaType: string): unknown {
  const text = raw.toString('utf8');
  if (isYamlMediaType(mediaType)) {
    // The yaml package's alias-count guard stops "billion laughs" bodies.
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0) throw errors.badRequest(`error converting YAML to JSON: ${doc.errors[0].message}`);
    return doc.toJS({ maxAliasCount: 100 });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw errors.badRequest(`error decoding body: ${(err as Error).message}`);
  }
}
