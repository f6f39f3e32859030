// The authenticating proxy (--requestheader-*): identity headers are believed only
// when the connection presents a client certificate that verifies against the
// request-header CA (and, if a list is given, has an allowed CN). Anyone else setting
// those headers is ignored by this method; the other methods judge the request.
import type { X509Certificate } from 'node:crypto';
import { headerNames, headerValues, type AuthRequest, type AuthResult, type Authenticator } from '../interfaces.js';
import type { UserInfo } from '../user.js';
import { judgePresented, subjectField } from '../x509/index.js';

export interface RequestHeaderOptions {
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
  /** The --requestheader-client-ca-file bundle. */
  roots: X509Certificate[];
  /** --requestheader-allowed-names; empty allows any CN. */
  allowedNames: string[];
}

export class RequestHeaderAuthenticator implements Authenticator {
  readonly name = 'requestheader';
  constructor(private readonly o: RequestHeaderOptions) {}

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const { chain, problem } = judgePresented(req, this.o.roots);
    if (chain.length === 0) return { decision: 'noOpinion' };
    if (problem) return { decision: 'error', message: problem };
    const cn = subjectField(chain[0]!, 'CN')[0] ?? '';
    if (this.o.allowedNames.length > 0 && !this.o.allowedNames.includes(cn)) {
      return { decision: 'error', message: `x509: subject with cn=${cn} is not in the allowed list` };
    }
    const user = userFromHeaders(req, this.o);
    return user ? { decision: 'authenticated', user } : { decision: 'noOpinion' };
  }
}

/** The identity the proxy asserted; undefined when no username header has a value. */
export function userFromHeaders(req: AuthRequest, o: Pick<RequestHeaderOptions, 'usernameHeaders' | 'groupHeaders' | 'extraHeaderPrefixes'>): UserInfo | undefined {
  let name = '';
  for (const h of o.usernameHeaders) {
    const v = headerValues(req, h.trim()).find((x) => x.length > 0);
    if (v) { name = v; break; }
  }
  if (!name) return undefined;
  const groups: string[] = [];
  for (const h of o.groupHeaders) {
    if (h.trim() === '') continue;
    groups.push(...headerValues(req, h.trim()).filter((v) => v.length > 0));
  }
  const extra: Record<string, string[]> = {};
  const present = headerNames(req);
  for (const prefix of o.extraHeaderPrefixes) {
    const p = prefix.toLowerCase();
    if (p === '') continue;
    for (const h of present) {
      if (!h.startsWith(p)) continue;
      const key = unescapeExtraKey(h.slice(p.length));
      (extra[key] ??= []).push(...headerValues(req, h));
    }
  }
  const user: UserInfo = { name, groups };
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}

/** Percent-decoded extra keys; a key that does not decode is kept as sent. */
export function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
