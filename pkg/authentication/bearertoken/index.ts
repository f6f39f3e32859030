// Extracts `Authorization: Bearer <token>` and asks token authenticators in turn.
import type { AuthRequest, AuthResult, Authenticator, TokenAuthenticator } from '../interfaces.js';

export function bearerToken(req: AuthRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m ? m[1].trim() : undefined;
}

export class BearerTokenAuthenticator implements Authenticator {
  readonly name = 'bearertoken';
  constructor(private readonly tokens: TokenAuthenticator[]) {}

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const token = bearerToken(req);
    if (token === undefined) return { decision: 'noOpinion' };
    const messages: string[] = [];
    for (const t of this.tokens) {
      const r = await t.authenticateToken(token);
      if (r.decision === 'authenticated') return r;
      if (r.decision === 'error') messages.push(r.message);
    }
    // A token nobody accepts is an invalid credential: 401, not anonymous.
    return { decision: 'error', message: messages[0] ?? 'invalid bearer token' };
  }
}
