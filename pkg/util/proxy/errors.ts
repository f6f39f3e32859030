// How failures to reach a backend look to clients. Upstream passes Go's dial and
// transport errors through unchanged (a 500 Status with no reason, or wrapped in a 503 by
// the proxy transport), so the Node.js errors are rendered in Go's words.
import { qualifiedResource, StatusError, type GroupResource, type StatusReason } from '../../runtime/errors.js';

/** A non-Status error as upstream's ErrorToAPIStatus renders it: 500, no reason. */
export function plainError(message: string): StatusError {
  return new StatusError(500, '', message);
}

/** The proxy transport's answer when the backend cannot be reached. */
export function unreachable(err: unknown, host: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', `error trying to reach service: ${goDialError(err, host)}`);
}

interface SysError { code?: string; message?: string; hostname?: string }

/** `dial tcp 127.0.0.1:1: connect: connection refused`, as Go's net package words it. */
export function goDialError(err: unknown, host: string): string {
  const e = (err ?? {}) as SysError;
  switch (e.code) {
    case 'ECONNREFUSED': return `dial tcp ${host}: connect: connection refused`;
    case 'ENETUNREACH': return `dial tcp ${host}: connect: network is unreachable`;
    case 'EHOSTUNREACH': return `dial tcp ${host}: connect: no route to host`;
    case 'ETIMEDOUT': case 'ECONNTIMEOUT': return `dial tcp ${host}: i/o timeout`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `dial tcp: lookup ${host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '')}: no such host`;
    case 'ECONNRESET': return `read tcp ${host}: read: connection reset by peer`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE': case 'SELF_SIGNED_CERT_IN_CHAIN': case 'DEPTH_ZERO_SELF_SIGNED_CERT': case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID': return `tls: failed to verify certificate: x509: certificate is valid for other names, not ${host.replace(/:\d+$/, '')}`;
    case 'CERT_HAS_EXPIRED': return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    default: return e.message ?? String(err);
  }
}

const genericMessages: Record<number, [StatusReason, string]> = {
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  403: ['Forbidden', 'the server does not allow access to the requested resource'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  406: ['NotAcceptable', 'the server was unable to respond with a content type that the client supports'],
  409: ['Conflict', 'the server reported a conflict'],
  415: ['UnsupportedMediaType', 'the server was unable to respond with a content type that the client supports'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};

/** Upstream's NewGenericServerResponse with no verb, as its HTTP response checker builds it. */
export function genericServerResponse(code: number, gr: GroupResource, name: string, serverMessage: string): StatusError {
  let [reason, message]: [StatusReason, string] = genericMessages[code]
    ?? ['', `the server responded with the status code ${code} but did not return more information`];
  if (!genericMessages[code] && code >= 500) {
    reason = 'InternalError';
    message = `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  }
  const resource = qualifiedResource(gr);
  message = name ? `${message} ( ${resource} ${name})` : `${message} ( ${resource})`;
  return new StatusError(code, reason, message, { group: gr.group, kind: gr.resource, name });
}
