// Tries authenticators in order: the first that authenticates decides. Errors are
// remembered so that a bad credential with no other method succeeding is a 401.
import type { AuthRequest, AuthResult, Authenticator } from '../interfaces.js';

export class UnionAuthenticator implements Authenticator {
  readonly name = 'union';
  constructor(private readonly members: Authenticator[], private readonly anonymous?: Authenticator) {}

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    let firstError: AuthResult | undefined;
    for (const a of this.members) {
      const r = await a.authenticate(req);
      if (r.decision === 'authenticated') return withAuthenticatedGroup(r);
      if (r.decision === 'error') firstError ??= r;
    }
    if (firstError) return firstError;
    if (this.anonymous) return this.anonymous.authenticate(req);
    return { decision: 'noOpinion' };
  }
}

function withAuthenticatedGroup(r: AuthResult & { decision: 'authenticated' }): AuthResult {
  const groups = r.user.groups.includes('system:authenticated') ? r.user.groups : [...r.user.groups, 'system:authenticated'];
  return { ...r, user: { ...r.user, groups } };
}
