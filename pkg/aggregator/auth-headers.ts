// The identity the aggregator asserts to an extension server (client-go's
// SetAuthProxyHeaders): X-Remote-User, one X-Remote-Group per group and one
// X-Remote-Extra-<key> per extra value, the key percent-escaped where it is not a legal
// header-name byte. Whatever the client sent under those names, or as credentials and
// impersonation, is not passed on.
import type { OutgoingHttpHeaders } from 'node:http';
import type { UserInfo } from '../authentication/user.js';

// RFC 7230 token characters, the bytes a header name may hold.
const tokenChar = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** Upstream's headerKeyEscape: '%' and every non-token byte become %XX (upper-case hex). */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && tokenChar.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const dropped = [/^x-remote-user$/i, /^x-remote-group$/i, /^x-remote-extra-/i, /^authorization$/i, /^impersonate-/i];

/** `headers` without client-supplied identity, plus the authenticated user's. */
export function withAuthProxyHeaders(headers: OutgoingHttpHeaders, user: UserInfo): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (!dropped.some((re) => re.test(k))) out[k] = v;
  out['X-Remote-User'] = user.name;
  if (user.groups.length > 0) out['X-Remote-Group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) out[`X-Remote-Extra-${escapeExtraKey(key)}`] = [...values];
  }
  return out;
}
