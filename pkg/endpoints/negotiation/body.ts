// Reading and decoding request bodies: size limit, then JSON or YAML by Content-Type.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDocument } from 'yaml';
import { errors } from '../../runtime/errors.js';
import { decodeObject } from '../../runtime/serializer/protobuf/envelope.js';
import { protobufMediaType } from './media.js';
import { yamlDocumentValue } from './yaml-value.js';
import { closeWriteAndWait, lingerOnClose } from '../../util/net/lingering-close.js';
import { closeConnectionAfter, isHTTP2, stopUploadAfterAnswer } from '../../util/net/connection.js';
import { checkJsonSyntax, GoJsonError, maxNestingDepth } from '../../apis/meta/patch/go-json.js';

/** Upstream's limit for request bodies (3 MiB). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * Past the limit the 413 goes out at once, as upstream answers once it has read limit+1
 * bytes, with Connection: close; the rest of the body is read into nothing meanwhile, so a
 * client still writing reads the answer instead of a reset, and beyond this many bytes the
 * connection is cut. (Waiting for the whole body first let a client announcing 100 MB hold
 * the answer back, and cut the connection before the answer was written.)
 */
const maxDiscardBytes = 32 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = maxRequestBodyBytes, res?: ServerResponse): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const refuse = (seen: number): never => {
    // HTTP/2 resets the one stream once the answer is out; HTTP/1.1 has to drop the connection.
    if (!res || !stopUploadAfterAnswer(req, res)) {
      if (res) closeConnectionAfter(req, res);
      lingerOnClose(req.socket);
    }
    void discard(req, seen);
    throw errors.requestEntityTooLarge(`Request entity too large: limit is ${limit}`);
  };
  if (Number.isFinite(declared) && declared > limit) refuse(0);
  // Listeners, not `for await`: every write reads a body, and the async iterator's
  // machinery (its generator, end-of-stream watcher and promises per chunk) cost more
  // than the read itself. Its outcomes are kept: an ended stream reads empty, a stream
  // that closes before its end fails as premature, and a body past the limit is refused
  // and the request destroyed.
  if (req.readableEnded) return Buffer.alloc(0);
  if (req.errored) throw req.errored;
  if (req.destroyed) throw prematureClose();
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      done();
      try {
        refuse(size);
      } catch (err) {
        endRequest(req);
        reject(err);
      }
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    const onClose = (): void => {
      done();
      reject(prematureClose());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Ends a request whose body is refused, as leaving a `for await` over it does (Node's
 * stream destroyer): an HTTP/1.1 request lets go of its socket first, so the connection
 * stays up for the 413 and the discard; an HTTP/2 one resets its stream only.
 */
function endRequest(req: IncomingMessage): void {
  if (!isHTTP2(req)) (req as { socket: unknown }).socket = null;
  req.destroy();
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** Reads the rest of the body into nothing; `alreadySeen` bytes were read before. */
async function discard(req: IncomingMessage, alreadySeen: number): Promise<void> {
  let seen = alreadySeen;
  try {
    for await (const chunk of req) {
      seen += (chunk as Buffer).length;
      if (seen > maxDiscardBytes) {
        if (isHTTP2(req)) req.destroy();
        else closeWriteAndWait(req.socket);
        return;
      }
    }
  } catch {
    // The client went away: nothing left to discard.
  }
}

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isYamlMediaType(t: string): boolean {
  return t === 'application/yaml' || t === 'application/apply-patch+yaml' || t.endsWith('+yaml');
}

/** Media types of create, update and DeleteOptions bodies (patches have their own). */
export const objectBodyMediaTypes = ['application/json', 'application/yaml', protobufMediaType];

/**
 * Parses a JSON, YAML or protobuf body into its JSON form; malformed bodies are 400
 * BadRequest as upstream. Protobuf fields the message lacks are dropped, as upstream's
 * decoder does (fieldValidation applies to JSON and YAML only). `utf8`: the body as text,
 * when the caller has decoded it already.
 */
export function decodeBody(raw: Buffer, mediaType: string, utf8?: string): unknown {
  if (mediaType === protobufMediaType) {
    try {
      return decodeObject(raw);
    } catch (err) {
      throw errors.badRequest((err as Error).message);
    }
  }
  const text = utf8 ?? raw.toString('utf8');
  if (isYamlMediaType(mediaType)) {
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0) throw errors.badRequest(`error converting YAML to JSON: ${doc.errors[0].message}`);
    return yamlDocumentValue(doc, 'error converting YAML to JSON: ');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw errors.badRequest(`error decoding body: ${(err as Error).message}`);
  }
  // Go's decoder stops at 10,000 levels of nesting; JSON.parse does not, and deeper values
  // overflowed the stack of the code that walks them (a 500). Only a body this long can
  // be that deep, so smaller ones skip the scan.
  if (raw.length > 2 * maxNestingDepth) {
    try {
      checkJsonSyntax(raw);
    } catch (err) {
      if (err instanceof GoJsonError) throw errors.badRequest(`error decoding body: ${err.message}`);
      throw err;
    }
  }
  return value;
}
