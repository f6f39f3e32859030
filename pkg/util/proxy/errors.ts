// How failures to reach a backend look to clients. Upstream passes Go's dial and
// transport errors through unchanged (a 500 Status with no reason, or wrapped in a 503 by
// the proxy transport), so the Node.js errors are rendered in Go's words.
import { StatusError } from '../../runtime/errors.js';

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
