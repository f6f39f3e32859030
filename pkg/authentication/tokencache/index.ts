// Remembers a token method's answers for a while (upstream's cached token
// authenticator): keyed by a hash of the token and the audiences asked about, so no
// token is kept in memory. Errors (a remote that failed) are not remembered.
import { createHash } from 'node:crypto';
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';

interface Entry { result: AuthResult; expires: number }

const maxEntries = 10_000;

export class CachedTokenAuthenticator implements TokenAuthenticator {
  readonly name: string;
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly delegate: TokenAuthenticator,
    private readonly successTTLMs: number,
    private readonly failureTTLMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.name = delegate.name;
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<AuthResult> {
    const key = createHash('sha256').update(token).update('\0').update(JSON.stringify(audiences ?? null)).digest('base64');
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return structuredClone(hit.result);
    if (hit) this.entries.delete(key);
    const result = await this.delegate.authenticateToken(token, audiences);
    const ttl = result.decision === 'authenticated' ? this.successTTLMs : result.decision === 'noOpinion' ? this.failureTTLMs : 0;
    if (ttl > 0) {
      if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { result: structuredClone(result), expires: this.now() + ttl });
    }
    return result;
  }
}
