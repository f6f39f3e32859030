// The issuer's signing keys (go-oidc's RemoteKeySet): kept from the last fetch of
// jwks_uri and fetched again when a token names a key we do not have or no key we
// have verifies it. Concurrent refreshes share one fetch.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify } from 'jose';
import { httpsRequest, type OutboundTLS } from '../httpclient.js';

interface Key { kid?: string; key: KeyObject }

export class RemoteKeySet {
  private keys: Key[] = [];
  private inflight: Promise<Key[]> | undefined;

  constructor(private readonly jwksURI: string, private readonly tls: OutboundTLS) {}

  /** Verifies a compact JWS and returns its payload; throws upstream's message when no key does. */
  async verify(token: string, kid: string | undefined, alg: string): Promise<Uint8Array> {
    const cached = await this.tryKeys(this.keys, token, kid, alg);
    if (cached) return cached;
    let fresh: Key[];
    try {
      fresh = await this.refresh();
    } catch (err) {
      throw new Error(`fetching keys ${(err as Error).message}`);
    }
    const payload = await this.tryKeys(fresh, token, kid, alg);
    if (payload) return payload;
    throw new Error('failed to verify id token signature');
  }

  private async tryKeys(keys: Key[], token: string, kid: string | undefined, alg: string): Promise<Uint8Array | undefined> {
    for (const k of keys) {
      if (kid && k.kid !== kid) continue;
      try {
        return (await compactVerify(token, k.key, { algorithms: [alg] })).payload;
      } catch {
        // another key may match
      }
    }
    return undefined;
  }

  refresh(): Promise<Key[]> {
    this.inflight ??= this.fetchKeys().finally(() => { this.inflight = undefined; });
    return this.inflight;
  }

  private async fetchKeys(): Promise<Key[]> {
    const res = await httpsRequest(this.jwksURI, this.tls);
    if (res.status !== 200) throw new Error(`oidc: get keys failed: ${res.status} ${res.statusText} ${res.body}`);
    let doc: unknown;
    try {
      doc = JSON.parse(res.body);
    } catch (err) {
      throw new Error(`oidc: failed to decode keys: ${(err as Error).message} ${res.body}`);
    }
    const list = (doc as { keys?: unknown }).keys;
    const keys: Key[] = [];
    for (const jwk of Array.isArray(list) ? list : []) {
      try {
        const j = jwk as Record<string, unknown>;
        if (j['use'] !== undefined && j['use'] !== 'sig') continue;
        keys.push({ kid: typeof j['kid'] === 'string' ? j['kid'] : undefined, key: createPublicKey({ key: j as never, format: 'jwk' }) });
      } catch {
        // keys we cannot use are skipped
      }
    }
    this.keys = keys;
    return keys;
  }
}
