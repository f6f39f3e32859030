// What each fuzzed request must get back: an answer (no hang past the client's timeout, no
// dropped connection), no 5xx but upstream's own (named below), and for every error a Status whose code is the HTTP status
// and whose reason is the one upstream pairs with that code.
import { METHODS } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { decodeObject, hasProtobufMagic } from '../../pkg/runtime/serializer/protobuf/envelope.js';
import { parseGoDuration } from '../../pkg/runtime/serializer/protobuf/gotime.js';
import type { RawOutcome, RawRequest } from './send.js';

/** Upstream's StatusReason for each error code (k8s.io/apimachinery/pkg/api/errors). */
export const reasonsByCode: Record<number, string[]> = {
  400: ['BadRequest'],
  401: ['Unauthorized'],
  403: ['Forbidden'],
  404: ['NotFound'],
  405: ['MethodNotAllowed'],
  406: ['NotAcceptable'],
  409: ['AlreadyExists', 'Conflict'],
  410: ['Expired', 'Gone'],
  413: ['RequestEntityTooLarge'],
  415: ['UnsupportedMediaType'],
  422: ['Invalid'],
  429: ['TooManyRequests'],
  504: ['Timeout'],
};

export type Problem =
  | 'hang' | 'connection-error' | '5xx' | 'not-a-status' | 'wrong-reason' | 'wrong-code-in-status';

export interface Verdict {
  ok: boolean;
  problem?: Problem;
  detail?: string;
}

function decodeStatus(body: Buffer, contentType: string): Record<string, unknown> | undefined {
  try {
    if (contentType.includes('protobuf') && hasProtobufMagic(body)) return decodeObject(body);
    if (contentType.includes('yaml')) return parseYaml(body.toString('utf8')) as Record<string, unknown>;
    return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The request asked (through `timeout=`) for less time than its work may need. */
function askedShortTimeout(path: string): boolean {
  const q = path.indexOf('?');
  if (q < 0) return false;
  let asked: string | null = null;
  try {
    asked = new URLSearchParams(path.slice(q + 1)).get('timeout');
  } catch {
    return false;
  }
  const nanos = asked ? parseGoDuration(asked) : undefined;
  return nanos !== undefined && nanos > 0 && nanos < 5e9;
}

/**
 * Upstream's own 500s: the impersonation filter answers a request that impersonates groups,
 * a UID or extras but no user with responsewriters.InternalError (a text body; Go trims
 * header values, so a blank Impersonate-User is no user).
 */
function upstreamInternalError(req: RawRequest, out: { status: number; body: Buffer }): boolean {
  const header = (name: string): string[] => Object.keys(req.headers).filter((h) => h.toLowerCase().startsWith(name)).map((h) => req.headers[h]!.trim());
  const impersonatesUser = header('impersonate-user').some((v) => v !== '');
  const impersonatesOther = header('impersonate-group').length + header('impersonate-uid').length + header('impersonate-extra-').length > 0;
  if (out.status !== 500 || impersonatesUser || !impersonatesOther) return false;
  return req.method === 'HEAD' || /^Internal Server Error: ".*": requested \[.*\] without impersonating a user/s.test(out.body.toString('utf8'));
}

/**
 * Node's HTTP parser refuses what Go's takes (a method outside its list, raw bytes above
 * 0x7f in the request line) before any handler runs: a bare 400 and a closed connection,
 * which a HEAD client reads as a broken answer. A known difference, not a server fault.
 */
function refusedByHttpParser(req: RawRequest): boolean {
  return !METHODS.includes(req.method) || /[^\u0021-\u007e]/.test(req.path);
}

/** Upstream's cacher answers a read of a revision it has not seen with a 504 after 3 s. */
function tooLargeResourceVersion(st: Record<string, unknown>): boolean {
  const causes = (st['details'] as { causes?: Array<{ reason?: string }> } | undefined)?.causes ?? [];
  return st['reason'] === 'Timeout' && causes.some((c) => c.reason === 'ResourceVersionTooLarge');
}

/**
 * The revision a list's continue token names (0 when there is none or it does not decode).
 * A token ahead of etcd is a read at a revision not yet reached: our store waits for it and
 * then answers 504 Timeout with cause ResourceVersionTooLarge, as for `resourceVersion=`.
 * Upstream's etcd3 store hands the same read to etcd at once and passes etcd's "mvcc:
 * required revision is a future revision" through uninterpreted (interpretListError only
 * maps ErrCompacted), a 500: a 5xx there too, so ours is kept and accepted.
 */
export function continueRevision(path: string): number {
  const q = path.indexOf('?');
  if (q < 0) return 0;
  try {
    const token = new URLSearchParams(path.slice(q + 1)).get('continue');
    if (!token) return 0;
    const rv = (JSON.parse(Buffer.from(token, /[+/]/.test(token) ? 'base64' : 'base64url').toString('utf8')) as { rv?: unknown }).rv;
    return typeof rv === 'number' && Number.isSafeInteger(rv) ? rv : 0;
  } catch {
    return 0;
  }
}

/** kube-openapi answers an Accept it cannot serve with a bare 406 and no body. */
function openAPINotAcceptable(req: RawRequest, status: number, body: Buffer): boolean {
  return status === 406 && body.length === 0 && req.path.startsWith('/openapi/');
}

/** Upstream's max-in-flight and APF filters answer 429 with http.Error: text and Retry-After. */
function inflightLimit(status: number, out: { headers: Record<string, unknown>; body: Buffer }): boolean {
  return status === 429 && out.headers['retry-after'] !== undefined && out.body.toString('utf8').startsWith('Too many requests');
}

/** The health endpoints answer an unknown check with a text 404 (pkg/server/healthz). */
function healthCheckNotFound(req: RawRequest, status: number): boolean {
  return status === 404 && /^\/(healthz|livez|readyz)\//.test(req.path);
}

/**
 * A health endpoint whose check failed answers as upstream's pkg/server/healthz does: a
 * text 500 listing every check ("[-]etcd failed: reason withheld" ... "readyz check
 * failed"), or for one check's own path "internal server error: <why>". A 500 of any other
 * shape from these paths is still a finding.
 */
export function healthCheckFailed(req: RawRequest, status: number, body: Buffer): boolean {
  if (status !== 500 || !/^\/(healthz|livez|readyz)(\/|\?|$)/.test(req.path)) return false;
  const text = body.toString('utf8');
  return /^(\[[+-]\][^\n]*\n)+(healthz|livez|readyz) check failed\n$/.test(text) || /^internal server error: [^\n]+\n$/.test(text);
}

/**
 * Answers given before any handler could have run, so by a request that cannot have
 * written: Node's parser refusing the request line, and upstream's impersonation-filter 500.
 */
export function refusedBeforeHandler(req: RawRequest, out: RawOutcome): boolean {
  if (out.kind === 'timeout') return false;
  if (out.kind === 'error') return out.code === 'CLIENT_REFUSED' || (['HPE_CLOSED_CONNECTION', 'ECONNRESET', 'EPIPE'].includes(out.code) && refusedByHttpParser(req));
  return upstreamInternalError(req, out) || (out.status === 400 && out.body.toString('utf8') === '400 Bad Request' && refusedByHttpParser(req))
    || healthCheckFailed(req, out.status, out.body);
}

export function judge(req: RawRequest, out: RawOutcome): Verdict {
  if (out.kind === 'timeout') return { ok: false, problem: 'hang', detail: `no answer in ${out.ms} ms` };
  if (out.kind === 'error') {
    // Node refusing to build the request is not the server's doing.
    if (out.code === 'CLIENT_REFUSED') return { ok: true };
    // The parser's 400 closes the connection: a HEAD client misreads it, and one still
    // sending its body sees a reset.
    if (['HPE_CLOSED_CONNECTION', 'ECONNRESET', 'EPIPE'].includes(out.code) && refusedByHttpParser(req)) return { ok: true };
    return { ok: false, problem: 'connection-error', detail: `${out.code}: ${out.message}` };
  }
  const { status } = out;
  // A client that asks for a 1 µs deadline gets upstream's 504 Timeout: that one is asked for.
  if (upstreamInternalError(req, out) || healthCheckFailed(req, status, out.body)) return { ok: true };
  if (status === 400 && out.body.toString('utf8') === '400 Bad Request' && refusedByHttpParser(req)) return { ok: true };
  if (status === 504) {
    // A HEAD answer has no body to show the cause; the request's resourceVersion (or its
    // continue token's revision) does.
    if (req.method === 'HEAD' && (/[?&]resourceVersion=\d+(&|$)/.test(req.path) || continueRevision(req.path) > 0)) return { ok: true };
    const st = decodeStatus(out.body, String(out.headers['content-type'] ?? ''));
    if (st && tooLargeResourceVersion(st)) return { ok: true };
  }
  if (status >= 500 && !(status === 504 && askedShortTimeout(req.path))) {
    return { ok: false, problem: '5xx', detail: `${status} ${out.body.toString('utf8').slice(0, 300)}` };
  }
  if (status < 400 || req.method === 'HEAD' || healthCheckNotFound(req, status) || openAPINotAcceptable(req, status, out.body) || inflightLimit(status, out)) return { ok: true };
  const st = decodeStatus(out.body, String(out.headers['content-type'] ?? ''));
  if (!st || st['kind'] !== 'Status') {
    return { ok: false, problem: 'not-a-status', detail: `${status} ${out.headers['content-type']}: ${out.body.toString('utf8').slice(0, 200)}` };
  }
  if (Number(st['code']) !== status) return { ok: false, problem: 'wrong-code-in-status', detail: `HTTP ${status}, Status.code ${st['code']}` };
  const want = reasonsByCode[status];
  if (want && !want.includes(String(st['reason'] ?? ''))) {
    return { ok: false, problem: 'wrong-reason', detail: `${status} reason ${JSON.stringify(st['reason'])} (upstream: ${want.join('|')}): ${String(st['message']).slice(0, 200)}` };
  }
  return { ok: true };
}
