// `Authorization: Bearer <token>`: the token authenticators are asked in order (upstream's
// token union); the first that authenticates decides. A token nobody accepts is an
// invalid credential (401), never anonymous.
import { aggregateMessage } from '../aggregate.js';
import type { AuthRequest, AuthResult, Authenticator, TokenAuthenticator } from '../interfaces.js';

export const invalidBearerToken = 'invalid bearer token';

/** The token of an Authorization header, as upstream splits it ("Bearer <token> [...]"). */
export function bearerToken(req: AuthRequest): string | undefined {
  const raw = req.headers.authorization;
  const h = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!h) return undefined;
  const parts = h.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token === '' ? undefined : token;
}

/** Several token methods as one: first success wins, failures are aggregated. */
export class TokenUnion implements TokenAuthenticator {
  readonly name = 'tokenunion';
  constructor(private readonly members: TokenAuthenticator[]) {}

  async authenticateToken(token: string, audiences?: string[]): Promise<AuthResult> {
    const messages: string[] = [];
    for (const t of this.members) {
      const r = await t.authenticateToken(token, audiences);
      if (r.decision === 'authenticated') return r;
      if (r.decision === 'error') messages.push(r.message);
    }
    const message = aggregateMessage(messages);
    return message === undefined ? { decision: 'noOpinion' } : { decision: 'error', message };
  }
}

export class BearerTokenAuthenticator implements Authenticator {
  readonly name = 'bearertoken';
  private readonly tokens: TokenAuthenticator;
  constructor(tokens: TokenAuthenticator[] | TokenAuthenticator) {
    this.tokens = Array.isArray(tokens) ? new TokenUnion(tokens) : tokens;
  }

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const token = bearerToken(req);
    if (token === undefined) return { decision: 'noOpinion' };
    const r = await this.tokens.authenticateToken(token, req.audiences);
    if (r.decision === 'noOpinion') return { decision: 'error', message: invalidBearerToken };
    return r;
  }
}
