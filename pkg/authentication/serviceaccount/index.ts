// Service-account JWTs: a token is ours when its issuer is one we sign as; then the
// signature must verify with one of the --service-account-key-file keys, its audiences
// must meet the ones asked for, and its validator (bound or legacy) must accept it.
import type { KeyObject } from 'node:crypto';
import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import { aggregateMessage } from '../aggregate.js';
import { intersectAudiences } from '../audiences.js';
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';
import type { UserInfo } from '../user.js';
import { goQuoteSlice } from '../../runtime/gofmt.js';
import { algorithmFor } from '../../serviceaccount/keys.js';
import { makeGroupNames, makeUsername, podNameExtraKey, podUIDExtraKey } from '../../serviceaccount/names.js';
import type { ServiceAccountInfo, Validator } from './validators.js';

export { BoundTokenValidator, LegacyTokenValidator, type Validator, type ServiceAccountInfo } from './validators.js';
export { CachedGetter, type ServiceAccountGetter } from './getter.js';

export interface JWTAuthenticatorOptions {
  name: string;
  issuers: string[];
  keys: KeyObject[];
  /** --api-audiences: what a token without audiences is good for, and what requests want. */
  implicitAudiences: string[];
  validator: Validator;
}

// What go-jose says when no key verifies the signature.
const badSignature = 'square/go-jose: error in cryptographic primitive';

export class JWTAuthenticator implements TokenAuthenticator {
  readonly name: string;
  private readonly issuers: Set<string>;

  constructor(private readonly o: JWTAuthenticatorOptions) {
    this.name = o.name;
    this.issuers = new Set(o.issuers);
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<AuthResult> {
    const claims = this.unverifiedClaims(token);
    if (!claims) return { decision: 'noOpinion' };
    const problem = await this.verifySignature(token);
    if (problem) return { decision: 'error', message: problem };

    const tokenAuds = audienceList(claims.aud);
    const implicit = this.o.implicitAudiences;
    const effective = tokenAuds.length > 0 ? tokenAuds : implicit;
    const requested = audiences ?? implicit;
    const auds = intersectAudiences(effective, requested);
    if (auds.length === 0 && implicit.length > 0) {
      return { decision: 'error', message: `token audiences ${goQuoteSlice(effective)} is invalid for the target audiences ${goQuoteSlice(requested)}` };
    }

    let info: ServiceAccountInfo;
    try {
      info = await this.o.validator.validate(token, claims);
    } catch (err) {
      return { decision: 'error', message: (err as Error).message };
    }
    return { decision: 'authenticated', user: userOf(info), audiences: auds };
  }

  /** The claims of a compact JWS from one of our issuers, unverified; undefined otherwise. */
  private unverifiedClaims(token: string): JWTPayload | undefined {
    if (token.split('.').length !== 3) return undefined;
    try {
      decodeProtectedHeader(token);
      const claims = decodeJwt(token);
      return typeof claims.iss === 'string' && this.issuers.has(claims.iss) ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  private async verifySignature(token: string): Promise<string | undefined> {
    const errs: string[] = [];
    for (const key of this.o.keys) {
      try {
        await compactVerify(token, key, { algorithms: [algorithmFor(key)] });
        return undefined;
      } catch {
        errs.push(badSignature);
      }
    }
    return aggregateMessage(errs) ?? badSignature;
  }
}

export function userOf(info: ServiceAccountInfo): UserInfo {
  const user: UserInfo = { name: makeUsername(info.namespace, info.name), uid: info.uid, groups: makeGroupNames(info.namespace) };
  if (info.podName) user.extra = { [podNameExtraKey]: [info.podName], [podUIDExtraKey]: [info.podUID ?? ''] };
  return user;
}

function audienceList(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

