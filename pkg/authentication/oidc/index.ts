// OpenID Connect ID tokens (--oidc-*): one trusted issuer whose discovery document and
// keys are fetched over HTTPS (in the background until they answer); a token from that
// issuer must be signed by one of its keys with an allowed algorithm, name the client
// id among its audiences, be unexpired, and carry the required claims. User and group
// names come from the configured claims with the configured prefixes.
import { decodeProtectedHeader } from 'jose';
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';
import type { UserInfo } from '../user.js';
import { httpsRequest, type OutboundTLS } from '../httpclient.js';
import { RemoteKeySet } from './keyset.js';
import { goQuoteSlice } from '../../runtime/gofmt.js';

export const allowedSigningAlgs = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

export interface OIDCOptions {
  issuerURL: string;
  clientID: string;
  /** PEM CA bundle for the issuer's certificate; default: system roots. */
  ca?: string;
  usernameClaim: string;
  /** Already resolved: undefined/"" means no prefix. */
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  requiredClaims: Array<[string, string]>;
  signingAlgs: string[];
  /** How long to wait between failed discovery attempts (grows to 10 s). */
  initialRetryMs?: number;
  onError?: (message: string) => void;
}

/** Upstream's defaulting: claims other than email get `<issuer>#`; "-" disables prefixing. */
export function resolveUsernamePrefix(issuerURL: string, claim: string, prefix: string | undefined): string {
  if (!prefix && claim !== 'email') return `${issuerURL}#`;
  return prefix === '-' ? '' : (prefix ?? '');
}

export function validateOIDCOptions(o: { issuerURL: string; clientID: string; usernameClaim: string; signingAlgs: string[] }): void {
  let u: URL;
  try {
    u = new URL(o.issuerURL);
  } catch {
    throw new Error(`'oidc-issuer-url' (${JSON.stringify(o.issuerURL)}) is not a valid URL`);
  }
  if (u.protocol !== 'https:') {
    throw new Error(`'oidc-issuer-url' (${JSON.stringify(o.issuerURL)}) has invalid scheme (${JSON.stringify(u.protocol.replace(/:$/, ''))}), require 'https'`);
  }
  if (!o.clientID) throw new Error('oidc-client-id must be specified when oidc-issuer-url is set');
  if (!o.usernameClaim) throw new Error('no username claim provided');
  for (const alg of o.signingAlgs) if (!allowedSigningAlgs.includes(alg)) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
}

export class OIDCAuthenticator implements TokenAuthenticator {
  readonly name = 'oidc';
  private keySet: RemoteKeySet | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly tls: OutboundTLS;

  constructor(private readonly o: OIDCOptions) {
    this.tls = { ca: o.ca };
  }

  /** Starts fetching the discovery document; tokens are refused until it succeeds. */
  start(): void {
    void this.initialize(this.o.initialRetryMs ?? 1000);
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  /** Resolves once discovery succeeded (for tests and readiness). */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.keySet) {
      if (Date.now() > deadline) throw new Error('oidc: authenticator not initialized');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async initialize(delayMs: number): Promise<void> {
    if (this.stopped) return;
    try {
      const jwksURI = await this.discover();
      const ks = new RemoteKeySet(jwksURI, this.tls);
      await ks.refresh().catch((err: Error) => this.o.onError?.(`oidc: initial key fetch failed: ${err.message}`));
      this.keySet = ks;
    } catch (err) {
      this.o.onError?.((err as Error).message);
      this.retryTimer = setTimeout(() => void this.initialize(Math.min(delayMs * 2, 10_000)), delayMs);
      this.retryTimer.unref();
    }
  }

  private async discover(): Promise<string> {
    const wellKnown = `${this.o.issuerURL.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const res = await httpsRequest(wellKnown, this.tls);
    if (res.status !== 200) throw new Error(`oidc: ${res.status} ${res.statusText}: ${res.body}`);
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      doc = JSON.parse(res.body) as typeof doc;
    } catch (err) {
      throw new Error(`oidc: failed to decode provider discovery object: ${(err as Error).message}`);
    }
    if (doc.issuer !== this.o.issuerURL) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.o.issuerURL)} got ${JSON.stringify(doc.issuer)}`);
    }
    if (typeof doc.jwks_uri !== 'string') throw new Error('oidc: provider discovery object has no jwks_uri');
    return doc.jwks_uri;
  }

  async authenticateToken(token: string): Promise<AuthResult> {
    const claims = payloadOf(token);
    if (!claims || claims['iss'] !== this.o.issuerURL) return { decision: 'noOpinion' };
    if (!this.keySet) return fail('oidc: authenticator not initialized');
    const verifyProblem = await this.verify(token, claims);
    if (verifyProblem) return fail(`oidc: verify token: ${verifyProblem}`);
    return this.userFrom(claims);
  }

  /** go-oidc's IDTokenVerifier.Verify, in its order. */
  private async verify(token: string, claims: Record<string, unknown>): Promise<string | undefined> {
    const aud = typeof claims['aud'] === 'string' ? [claims['aud']] : Array.isArray(claims['aud']) ? claims['aud'].map(String) : [];
    if (!aud.includes(this.o.clientID)) return `oidc: expected audience ${JSON.stringify(this.o.clientID)} got ${goQuoteSlice(aud)}`;
    const now = Date.now();
    const exp = typeof claims['exp'] === 'number' ? claims['exp'] * 1000 : 0;
    if (exp < now) return `oidc: token is expired (Token Expiry: ${goTime(exp)})`;
    if (typeof claims['nbf'] === 'number' && now + 60_000 < claims['nbf'] * 1000) {
      return `oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(claims['nbf'] * 1000)}`;
    }
    let header: { alg?: string; kid?: string };
    try {
      header = decodeProtectedHeader(token);
    } catch (err) {
      return `oidc: malformed jwt: ${(err as Error).message}`;
    }
    const alg = header.alg ?? '';
    if (!this.o.signingAlgs.includes(alg)) {
      return `oidc: id token signed with unsupported algorithm, expected ${goQuoteSlice(this.o.signingAlgs)} got ${JSON.stringify(alg)}`;
    }
    try {
      await this.keySet!.verify(token, header.kid, alg);
    } catch (err) {
      return `failed to verify signature: ${(err as Error).message}`;
    }
    return undefined;
  }

  private userFrom(c: Record<string, unknown>): AuthResult {
    const claim = this.o.usernameClaim;
    if (!(claim in c)) return fail(`oidc: parse username claims ${JSON.stringify(claim)}: claim not present`);
    if (typeof c[claim] !== 'string') return fail(`oidc: parse username claims ${JSON.stringify(claim)}: json: cannot unmarshal ${goType(c[claim])} into Go value of type string`);
    let username = c[claim] as string;
    if (claim === 'email' && 'email_verified' in c) {
      if (typeof c['email_verified'] !== 'boolean') return fail(`oidc: parse 'email_verified' claim: json: cannot unmarshal ${goType(c['email_verified'])} into Go value of type bool`);
      if (!c['email_verified']) return fail('oidc: email not verified');
    }
    if (this.o.usernamePrefix) username = this.o.usernamePrefix + username;
    const user: UserInfo = { name: username, groups: [] };
    const gc = this.o.groupsClaim;
    if (gc && gc in c) {
      const v = c[gc];
      if (typeof v === 'string') user.groups = [v];
      else if (Array.isArray(v) && v.every((g) => typeof g === 'string')) user.groups = [...(v as string[])];
      else return fail(`oidc: parse groups claim ${JSON.stringify(gc)}: json: cannot unmarshal ${goType(v)} into Go value of type string`);
    }
    if (this.o.groupsPrefix) user.groups = user.groups.map((g) => this.o.groupsPrefix + g);
    for (const [k, want] of this.o.requiredClaims) {
      if (!(k in c)) return fail(`oidc: required claim ${k} not present in ID token`);
      if (typeof c[k] !== 'string') return fail(`oidc: parse claim ${k}: json: cannot unmarshal ${goType(c[k])} into Go value of type string`);
      if (c[k] !== want) return fail(`oidc: required claim ${k} value does not match. Got = ${String(c[k])}, want = ${want}`);
    }
    return { decision: 'authenticated', user };
  }
}

function fail(message: string): AuthResult {
  return { decision: 'error', message };
}

function payloadOf(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}


/** Go's JSON type names in unmarshal errors. */
function goType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Go's default time format in UTC: 2006-01-02 15:04:05 +0000 UTC. */
function goTime(ms: number): string {
  if (ms === 0) return '0001-01-01 00:00:00 +0000 UTC';
  return `${new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} +0000 UTC`;
}
