import { expect } from 'chai';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { boundClaims } from './claims.js';
import { issuerProblem, openIDMetadata, publicJWKS } from './discovery.js';
import { TokenGenerator } from './generator.js';
import { algorithmFor, keyID, parsePrivateKey, parsePublicKeys } from './keys.js';
import { makeUsername, splitUsername } from './names.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });

describe('serviceaccount', () => {
  it('splits only valid service-account user names', () => {
    expect(splitUsername(makeUsername('ns', 'robot'))).to.deep.equal({ namespace: 'ns', name: 'robot' });
    for (const bad of ['system:serviceaccount:ns', 'system:serviceaccount:ns:a:b', 'system:serviceaccount:NS:x', 'jane']) expect(splitUsername(bad), bad).to.equal(undefined);
  });

  it('reads public keys from public, private and certificate PEM blocks; refuses files without keys', () => {
    const pem = `${rsa.publicKey.export({ type: 'spki', format: 'pem' })}${ec.privateKey.export({ type: 'sec1', format: 'pem' })}`;
    const keys = parsePublicKeys(pem);
    expect(keys.map(algorithmFor)).to.deep.equal(['RS256', 'ES384']);
    expect(() => parsePublicKeys('nothing here')).to.throw('data does not contain any valid RSA or ECDSA public keys');
    expect(algorithmFor(parsePrivateKey(rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string))).to.equal('RS256');
  });

  it('key IDs are the base64url SHA-256 of the DER public key, the same from either half', () => {
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
    expect(keyID(rsa.publicKey)).to.equal(createHash('sha256').update(der).digest('base64url'));
    expect(keyID(rsa.privateKey)).to.equal(keyID(rsa.publicKey));
  });

  it('bound tokens carry upstream claims, sorted, with kid and alg in the header', async () => {
    const sa = { metadata: { name: 'robot', namespace: 'ns', uid: 'u1' } };
    const secret = { metadata: { name: 's', namespace: 'ns', uid: 'u2' } };
    const t = await new TokenGenerator('https://iss', ec.privateKey).generate({ ...boundClaims({ serviceAccount: sa, secret, expirationSeconds: 3607, audiences: ['a'], now: 1000 }) });
    expect(decodeProtectedHeader(t)).to.deep.equal({ alg: 'ES384', kid: keyID(ec.publicKey) });
    const claims = decodeJwt(t);
    expect(Object.keys(claims)).to.deep.equal(['aud', 'exp', 'iat', 'iss', 'kubernetes.io', 'nbf', 'sub']);
    expect(claims).to.deep.equal({
      aud: ['a'], exp: 4607, iat: 1000, iss: 'https://iss', nbf: 1000, sub: 'system:serviceaccount:ns:robot',
      'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'robot', uid: 'u1' }, secret: { name: 's', uid: 'u2' } },
    });
  });

  it('publishes OIDC metadata and a JWKS in upstream form', () => {
    expect(openIDMetadata('https://iss', 'https://host/openid/v1/jwks', [ec.publicKey, rsa.publicKey])).to.deep.equal({
      issuer: 'https://iss', jwks_uri: 'https://host/openid/v1/jwks', response_types_supported: ['id_token'],
      subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['ES384', 'RS256'],
    });
    const jwks = publicJWKS([rsa.publicKey, ec.publicKey]);
    expect(Object.keys(jwks.keys[0]!)).to.deep.equal(['use', 'kty', 'kid', 'alg', 'n', 'e']);
    expect(Object.keys(jwks.keys[1]!)).to.deep.equal(['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    expect(jwks.keys[1]).to.include({ crv: 'P-384', alg: 'ES384', kid: keyID(ec.publicKey) });
    expect(issuerProblem('http://iss')).to.equal('issuer URL must use https scheme, got: http://iss');
    expect(issuerProblem('https://iss?x=1')).to.equal('issuer URL may not include a query, got: https://iss?x=1');
    expect(issuerProblem('https://iss/path')).to.equal(undefined);
  });
});
