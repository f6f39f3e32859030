// The authentication seam: each method looks at a request and answers with a user, no
// opinion, or an error (a presented credential that is wrong: 401, never anonymous).
import type { PeerCertificate } from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from './user.js';

export interface AuthRequest {
  headers: IncomingHttpHeaders;
  /**
   * Header names and values as received, alternating (Node's rawHeaders): repeated
   * headers stay separate here, while `headers` joins them with ", ".
   */
  rawHeaders?: string[];
  /**
   * The client's certificate as presented in the TLS handshake (unverified): the leaf,
   * or the whole chain along `issuerCertificate` where no `peerChain` is given.
   */
  peerCertificate?: PeerCertificate;
  /**
   * Every certificate the client presented, leaf first along `issuerCertificate`, read on
   * demand: reading them copies and decodes each again, which a leaf issued by a CA of
   * the bundle itself does not need.
   */
  peerChain?: () => PeerCertificate | undefined;
  /**
   * Audiences a presented token must be good for. Undefined: the server's API
   * audiences (TokenReview passes the ones its caller asked about).
   */
  audiences?: string[];
}

export type AuthResult =
  | { decision: 'authenticated'; user: UserInfo; audiences?: string[] }
  | { decision: 'noOpinion' }
  | { decision: 'error'; message: string };

export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthRequest): Promise<AuthResult>;
}

export interface TokenAuthenticator {
  readonly name: string;
  /** `audiences`: what the token must be usable for; undefined means no restriction. */
  authenticateToken(token: string, audiences?: string[]): Promise<AuthResult>;
}

/** All values of one header, repeated headers kept apart (names compared case-insensitively). */
export function headerValues(req: AuthRequest, name: string): string[] {
  const lower = name.toLowerCase();
  if (req.rawHeaders) {
    const out: string[] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() === lower) out.push(req.rawHeaders[i + 1]!);
    }
    return out;
  }
  const v = req.headers[lower];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Names of the headers present, lower-cased, each once. */
export function headerNames(req: AuthRequest): string[] {
  if (!req.rawHeaders) return Object.keys(req.headers);
  const names = new Set<string>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) names.add(req.rawHeaders[i]!.toLowerCase());
  return [...names];
}
