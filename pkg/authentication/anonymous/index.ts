import type { AuthResult, Authenticator } from '../interfaces.js';
import { anonymousUser } from '../user.js';

/** Last in the union: a request no method claimed becomes system:anonymous. */
export class AnonymousAuthenticator implements Authenticator {
  readonly name = 'anonymous';
  async authenticate(): Promise<AuthResult> {
    return { decision: 'authenticated', user: structuredClone(anonymousUser) };
  }
}
