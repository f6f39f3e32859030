// The access reviews answer from the replica's authorizer and rule resolver, which are
// built after the scheme (they read informers over the registry the scheme feeds). The
// scheme therefore holds a binding that the replica fills once they exist.
import type { Authorizer, RuleResolver } from '../../authorization/interfaces.js';
import { errors } from '../../runtime/errors.js';

export interface AccessReviewBackend {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
}

/** Also holds other late-bound review backends (the who-can locator). */
export class AccessReviewBinding<T = AccessReviewBackend> {
  private backend: T | undefined;

  bind(b: T): void {
    this.backend = b;
  }

  get(): T {
    if (!this.backend) throw errors.serviceUnavailable('authorization is not ready yet');
    return this.backend;
  }
}
