// A small OpenID Connect provider for tests: discovery and a JWKS served over TLS on
// 127.0.0.1 by a CA of its own, signing ID tokens with jose keys. Tests choose which
// keys are published, so a key the server has not seen yet can be tried.
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SignJWT, type JWTPayload } from 'jose';
import { generateCA, issueCertificate } from '../../pkg/util/cert/index.js';

export type IssuerAlgorithm = 'RS256' | 'ES256';

export interface IssuerKey {
  kid: string;
  alg: IssuerAlgorithm;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface OIDCIssuer {
  /** The issuer URL (https://127.0.0.1:<port><path>). */
  url: string;
  /** PEM of the CA that signed the issuer's certificate, and its file (for --oidc-ca-file). */
  caCert: string;
  caFile: string;
  /** Every key made so far; published ones are in the JWKS. */
  keys: IssuerKey[];
  /** How many times the JWKS was fetched. */
  jwksFetches(): number;
  /** A new key; published unless told otherwise. */
  addKey(alg?: IssuerAlgorithm, publish?: boolean): IssuerKey;
  publish(kid: string): void;
  /** Signs claims (iss defaults to the issuer, iat/exp to now/+1h) with a key (default: the first). */
  sign(claims: JWTPayload, opts?: { key?: IssuerKey; kid?: string | null; alg?: string }): Promise<string>;
  stop(): Promise<void>;
}

export interface OIDCIssuerOptions {
  /** Directory for the CA file. */
  dir: string;
  /** Path below the host (e.g. "/realms/test"); default none. */
  path?: string;
  /** Discovery reports this issuer instead of the real URL (to test the mismatch check). */
  advertisedIssuer?: string;
}

export async function startOIDCIssuer(o: OIDCIssuerOptions): Promise<OIDCIssuer> {
  await mkdir(o.dir, { recursive: true });
  const ca = await generateCA('test-oidc-ca');
  const serving = await issueCertificate(ca, { cn: '127.0.0.1', usage: 'server', ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] });
  const caFile = join(o.dir, 'oidc-ca.crt');
  await writeFile(caFile, ca.cert);
  const keys: IssuerKey[] = [];
  const published = new Set<string>();
  let fetches = 0;
  let url = '';
  const path = o.path ?? '';

  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const p = (req.url ?? '').split('?')[0];
    if (p === `${path}/.well-known/openid-configuration`) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({
        issuer: o.advertisedIssuer ?? url, jwks_uri: `${url}/keys`, authorization_endpoint: `${url}/auth`,
        response_types_supported: ['id_token'], subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      }));
      return;
    }
    if (p === `${path}/keys`) {
      fetches++;
      const jwks = keys.filter((k) => published.has(k.kid)).map((k) => ({
        ...(k.publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: k.kid, alg: k.alg, use: 'sig',
      }));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ keys: jwks }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

  const addKey = (alg: IssuerAlgorithm = 'RS256', publish = true): IssuerKey => {
    const pair = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const k: IssuerKey = { kid: randomUUID(), alg, privateKey: pair.privateKey, publicKey: pair.publicKey };
    keys.push(k);
    if (publish) published.add(k.kid);
    return k;
  };
  addKey('RS256');

  return {
    url, caCert: ca.cert, caFile, keys,
    jwksFetches: () => fetches,
    addKey,
    publish: (kid) => { published.add(kid); },
    async sign(claims, opts = {}) {
      const key = opts.key ?? keys[0]!;
      const now = Math.floor(Date.now() / 1000);
      const header: { alg: string; kid?: string } = { alg: opts.alg ?? key.alg };
      if (opts.kid !== null) header.kid = opts.kid ?? key.kid;
      return new SignJWT({ iss: url, iat: now, exp: now + 3600, ...claims }).setProtectedHeader(header).sign(key.privateKey);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
