// What Node's HTTP/2 compatibility layer keeps of a response's head once it has been sent:
// the response's header and trailer dictionaries, the stream's copy of the headers it sent,
// and the request's raw header list. A watch keeps its stream, request and response for
// its whole life (about 11,000 of them at 1,000 nodes, every major GC marking each), and
// the dictionaries are objects in dictionary mode, hundreds of bytes each. Once the head
// is out, nothing reads them but getters that would answer from a head already sent.
import { Http2ServerResponse, type Http2ServerRequest } from 'node:http2';

/** Shared by every shed response; frozen, so that a write to one would throw rather than leak. */
const noHeaders: Record<string, never> = Object.freeze(Object.create(null) as Record<string, never>);
const noRawHeaders: readonly string[] = Object.freeze([]);

interface Keys { resHeaders: symbol; resTrailers: symbol; sentHeaders: symbol; rawHeaders: symbol }
/** Node's private symbols, found by name on the first response; null when this Node has other internals. */
let keys: Keys | null | undefined;

function symbolNamed(o: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(o).find((s) => s.description === description);
}

function keysOf(req: Http2ServerRequest, res: Http2ServerResponse): Keys | null {
  const resHeaders = symbolNamed(res, 'headers');
  const resTrailers = symbolNamed(res, 'trailers');
  const sentHeaders = symbolNamed(res.stream, 'sent-headers');
  const rawHeaders = symbolNamed(req, 'rawHeaders');
  return resHeaders && resTrailers && sentHeaders && rawHeaders ? { resHeaders, resTrailers, sentHeaders, rawHeaders } : null;
}

/**
 * Drops what the compatibility layer keeps of an HTTP/2 response's head after it has been
 * sent (see top). The request's own headers stay (`req.headers`); its raw list reads empty
 * afterwards, and the response answers no header (it can set none any more either).
 * False when there was nothing to shed: not HTTP/2, the head not sent, or a Node whose
 * internals are not the ones this knows (then nothing is touched).
 */
export function shedSentHeaders(req: Http2ServerRequest, res: Http2ServerResponse): boolean {
  if (!(res instanceof Http2ServerResponse) || !res.headersSent || res.stream === undefined) return false;
  if (keys === undefined) keys = keysOf(req, res);
  if (keys === null) return false;
  const r = res as unknown as Record<symbol, unknown>;
  r[keys.resHeaders] = noHeaders;
  r[keys.resTrailers] = noHeaders;
  (res.stream as unknown as Record<symbol, unknown>)[keys.sentHeaders] = noHeaders;
  (req as unknown as Record<symbol, unknown>)[keys.rawHeaders] = noRawHeaders;
  return true;
}
