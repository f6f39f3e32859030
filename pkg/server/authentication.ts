// Builds the union of authenticators from the flags (SPEC 5).
import { readFileSync } from 'node:fs';
import { AnonymousAuthenticator } from '../authentication/anonymous/index.js';
import { BearerTokenAuthenticator } from '../authentication/bearertoken/index.js';
import type { Authenticator, TokenAuthenticator } from '../authentication/interfaces.js';
import { TokenFileAuthenticator } from '../authentication/tokenfile/index.js';
import { UnionAuthenticator } from '../authentication/union/index.js';
import { parseCABundle, X509Authenticator } from '../authentication/x509/index.js';
import type { ServerDeps } from './deps.js';

export async function buildAuthenticator(d: ServerDeps): Promise<Authenticator> {
  const { o } = d;
  const members: Authenticator[] = [];
  if (d.clientCAFile) members.push(new X509Authenticator(parseCABundle(readFileSync(d.clientCAFile, 'utf8'))));
  const tokens: TokenAuthenticator[] = [];
  if (o.tokenAuthFile) tokens.push(TokenFileAuthenticator.fromFile(o.tokenAuthFile));
  if (tokens.length > 0) members.push(new BearerTokenAuthenticator(tokens));
  // Upstream turns anonymous on by default unless the only mode is AlwaysAllow.
  const onlyAlwaysAllow = o.authorizationModes.length === 1 && o.authorizationModes[0] === 'AlwaysAllow';
  const anonymous = o.anonymousAuth ?? !onlyAlwaysAllow;
  return new UnionAuthenticator(members, anonymous || onlyAlwaysAllow ? new AnonymousAuthenticator() : undefined);
}
