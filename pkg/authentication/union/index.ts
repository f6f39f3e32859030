// Upstream's request authenticator: the methods in order, the first that authenticates
// decides and its user joins system:authenticated; otherwise the methods' errors
// (aggregated) are a 401, and only a request nobody objected to may become anonymous.
import { aggregateMessage } from '../aggregate.js';
import type { AuthRequest, AuthResult, Authenticator } from '../interfaces.js';
import { allAuthenticated, allUnauthenticated, anonymousUserName, type UserInfo } from '../user.js';

export class UnionAuthenticator implements Authenticator {
  readonly name = 'union';
  constructor(private readonly members: Authenticator[], private readonly anonymous?: Authenticator) {}

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const messages: string[] = [];
    for (const a of this.members) {
      const r = await a.authenticate(req);
      if (r.decision === 'authenticated') return { ...r, user: withAuthenticatedGroup(r.user) };
      if (r.decision === 'error') messages.push(r.message);
    }
    const message = aggregateMessage(messages);
    if (message !== undefined) return { decision: 'error', message };
    if (this.anonymous) return this.anonymous.authenticate(req);
    return { decision: 'noOpinion' };
  }
}

/** Upstream's AuthenticatedGroupAdder: anonymous and users already in either group are left alone. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === anonymousUserName) return user;
  if (user.groups.some((g) => g === allAuthenticated || g === allUnauthenticated)) return user;
  return { ...user, groups: [...user.groups, allAuthenticated] };
}
