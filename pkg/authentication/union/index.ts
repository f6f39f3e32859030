// Upstream's request authenticator: the methods in order, the first that authenticates
// decides and its user joins system:authenticated; otherwise the methods' errors
// (aggregated) are a 401, and only a request nobody objected to may become anonymous.
import { aggregateMessage } from '../aggregate.js';
import type { AuthRequest, AuthResult, Authenticator } from '../interfaces.js';
import { allAuthenticated, allUnauthenticated, anonymousUserName, type UserInfo } from '../user.js';

export class UnionAuthenticator implements Authenticator {
  readonly name = 'union';
  constructor(private readonly members: Authenticator[], private readonly anonymous?: Authenticator) {}

  // A then() per member asked rather than an async loop: most requests are decided by
  // the first method that applies (a client certificate), without an async frame.
  authenticate(req: AuthRequest): Promise<AuthResult> {
    return this.askFrom(0, req, undefined);
  }

  private askFrom(from: number, req: AuthRequest, messages: string[] | undefined): Promise<AuthResult> {
    if (from >= this.members.length) return this.undecided(req, messages ?? []);
    let answer: Promise<AuthResult>;
    try {
      answer = this.members[from]!.authenticate(req);
    } catch (err) {
      return Promise.reject(err);
    }
    return answer.then((r) => {
      if (r.decision === 'authenticated') return withGroupAdded(r);
      if (r.decision === 'error') (messages ??= []).push(r.message);
      return this.askFrom(from + 1, req, messages);
    });
  }

  private undecided(req: AuthRequest, messages: string[]): Promise<AuthResult> {
    const message = aggregateMessage(messages);
    if (message !== undefined) return Promise.resolve({ decision: 'error', message });
    if (this.anonymous) return this.anonymous.authenticate(req);
    return Promise.resolve({ decision: 'noOpinion' });
  }
}

/**
 * An answer (one without audiences: a certificate's) given again for every request on a
 * connection, or by the same certificate, comes back as the same object, so its answer
 * with the group added is kept with it rather than made again per request.
 */
const withGroup = new WeakMap<AuthResult, AuthResult>();

function withGroupAdded(r: Extract<AuthResult, { decision: 'authenticated' }>): AuthResult {
  if (!Object.isFrozen(r)) return { ...r, user: withAuthenticatedGroup(r.user) };
  let out = withGroup.get(r);
  if (!out) withGroup.set(r, out = Object.freeze({ ...r, user: Object.freeze(withAuthenticatedGroup(r.user)) }));
  return out;
}

/** Upstream's AuthenticatedGroupAdder: anonymous and users already in either group are left alone. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === anonymousUserName) return user;
  if (user.groups.some((g) => g === allAuthenticated || g === allUnauthenticated)) return user;
  return { ...user, groups: [...user.groups, allAuthenticated] };
}
