// The authentication seam: each method looks at a request and answers with a user, no
// opinion, or an error (a presented credential that is wrong: 401, never anonymous).
import type { PeerCertificate } from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from './user.js';

export interface AuthRequest {
  headers: IncomingHttpHeaders;
  /** The client's certificate chain as presented in the TLS handshake (unverified). */
  peerCertificate?: PeerCertificate;
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
  authenticateToken(token: string): Promise<AuthResult>;
}
