// Signs service-account tokens with the --service-account-signing-key-file key (jose).
// The header names the key (kid) so verifiers with several keys can pick it.
import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { algorithmFor, keyID, type SigningAlgorithm } from './keys.js';

export class TokenGenerator {
  readonly algorithm: SigningAlgorithm;
  readonly kid: string;

  constructor(readonly issuer: string, private readonly key: KeyObject) {
    this.algorithm = algorithmFor(key);
    this.kid = keyID(key);
  }

  /** A compact JWS of the claims plus `iss`, keys in sorted order as upstream's encoder writes them. */
  async generate(claims: Record<string, unknown>): Promise<string> {
    const all: Record<string, unknown> = { ...claims, iss: this.issuer };
    const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]]));
    return new SignJWT(sorted).setProtectedHeader({ alg: this.algorithm, kid: this.kid }).sign(this.key);
  }
}
