// Builds the union of authorizers from --authorization-mode (SPEC 5.14).
import { alwaysAllow, alwaysDeny, privilegedGroups } from '../authorization/always/index.js';
import type { Authorizer } from '../authorization/interfaces.js';
import { UnionAuthorizer } from '../authorization/union/index.js';
import type { ServerDeps } from './deps.js';

export async function buildAuthorizer(d: ServerDeps): Promise<Authorizer> {
  const modes: Authorizer[] = [privilegedGroups];
  for (const m of d.o.authorizationModes) {
    if (m === 'AlwaysAllow') modes.push(alwaysAllow);
    else if (m === 'AlwaysDeny') modes.push(alwaysDeny);
  }
  return new UnionAuthorizer(modes);
}
