// The OIDC authenticator against a local issuer over TLS, for the settings one server
// cannot show at once: the email claim (no prefix, email_verified), the "-" prefix,
// string groups, waiting for discovery, and a discovery document naming another issuer.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OIDCAuthenticator, resolveUsernamePrefix, type OIDCOptions } from '../../pkg/authentication/oidc/index.js';
import { startOIDCIssuer, type OIDCIssuer } from '../harness/oidc-issuer.js';
import { until } from '../harness/poll.js';

describe('OIDC authenticator against a local issuer', function () {
  this.timeout(30_000);
  let dir: string;
  let issuer: OIDCIssuer;
  const started: OIDCAuthenticator[] = [];

  const authenticator = async (o: Partial<OIDCOptions> = {}, ready = true): Promise<OIDCAuthenticator> => {
    const usernameClaim = o.usernameClaim ?? 'sub';
    const a = new OIDCAuthenticator({
      issuerURL: issuer.url, clientID: 'kubernetes', ca: issuer.caCert, usernameClaim, requiredClaims: [], signingAlgs: ['RS256'], initialRetryMs: 50,
      ...o, usernamePrefix: resolveUsernamePrefix(o.issuerURL ?? issuer.url, usernameClaim, o.usernamePrefix),
    });
    started.push(a);
    a.start();
    if (ready) await a.ready();
    return a;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authn-oidc-'));
    issuer = await startOIDCIssuer({ dir });
  });
  after(async () => {
    for (const a of started) a.stop();
    await issuer?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('user name prefixes as SPEC 5.7: <issuer># for claims other than email, none for email, "-" for none', () => {
    expect(resolveUsernamePrefix('https://i', 'sub', undefined)).to.equal('https://i#');
    expect(resolveUsernamePrefix('https://i', 'email', undefined)).to.equal('');
    expect(resolveUsernamePrefix('https://i', 'sub', '-')).to.equal('');
    expect(resolveUsernamePrefix('https://i', 'email', 'oidc:')).to.equal('oidc:');
  });

  it('the email claim: unprefixed, refused when email_verified is false', async () => {
    const a = await authenticator({ usernameClaim: 'email' });
    const ok = await a.authenticateToken(await issuer.sign({ sub: 's', aud: 'kubernetes', email: 'jane@example.com', email_verified: true }));
    expect(ok).to.deep.equal({ decision: 'authenticated', user: { name: 'jane@example.com', groups: [] } });
    expect(await a.authenticateToken(await issuer.sign({ sub: 's', aud: 'kubernetes', email: 'jane@example.com', email_verified: false })))
      .to.deep.equal({ decision: 'error', message: 'oidc: email not verified' });
    expect(await a.authenticateToken(await issuer.sign({ sub: 's', aud: 'kubernetes' })))
      .to.deep.equal({ decision: 'error', message: 'oidc: parse username claims "email": claim not present' });
  });

  it('"-" disables prefixing; a string groups claim is one group; other group types are refused', async () => {
    const a = await authenticator({ usernamePrefix: '-', groupsClaim: 'role' });
    expect(await a.authenticateToken(await issuer.sign({ sub: 'u1', aud: 'kubernetes', role: 'admin' })))
      .to.deep.equal({ decision: 'authenticated', user: { name: 'u1', groups: ['admin'] } });
    expect(await a.authenticateToken(await issuer.sign({ sub: 'u1', aud: 'kubernetes', role: 7 })))
      .to.deep.equal({ decision: 'error', message: 'oidc: parse groups claim "role": json: cannot unmarshal number into Go value of type string' });
  });

  it('a token not yet valid (nbf beyond the minute of leeway) is refused', async () => {
    const a = await authenticator();
    const nbf = Math.floor(Date.now() / 1000) + 600;
    const r = await a.authenticateToken(await issuer.sign({ sub: 'u', aud: 'kubernetes', nbf }));
    expect(r).to.have.property('message').that.match(/^oidc: verify token: oidc: current time .* before the nbf \(not before\) time: /);
  });

  it('until discovery succeeds tokens of the issuer are refused as not initialized', async () => {
    const a = await authenticator({ issuerURL: `${issuer.url}/missing` }, false);
    const token = await issuer.sign({ iss: `${issuer.url}/missing`, sub: 'u', aud: 'kubernetes' });
    expect(await a.authenticateToken(token)).to.deep.equal({ decision: 'error', message: 'oidc: authenticator not initialized' });
  });

  it('a discovery document naming another issuer is never trusted', async () => {
    const liar = await startOIDCIssuer({ dir: join(dir, 'liar'), advertisedIssuer: 'https://someone-else.example' });
    try {
      const errors: string[] = [];
      const a = new OIDCAuthenticator({
        issuerURL: liar.url, clientID: 'kubernetes', ca: liar.caCert, usernameClaim: 'sub', requiredClaims: [], signingAlgs: ['RS256'],
        initialRetryMs: 50, onError: (m) => errors.push(m),
      });
      started.push(a);
      a.start();
      // Discovery runs in the background: its first error arrives when it arrives (at CI's load, after any fixed pause).
      await until('a discovery error', () => errors.length > 0);
      expect(errors[0]).to.equal(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(liar.url)} got "https://someone-else.example"`);
      expect(await a.authenticateToken(await liar.sign({ sub: 'u', aud: 'kubernetes' }))).to.deep.equal({ decision: 'error', message: 'oidc: authenticator not initialized' });
    } finally {
      await liar.stop();
    }
  });

  it('the issuer\'s certificate must verify against --oidc-ca-file', async () => {
    const errors: string[] = [];
    const a = new OIDCAuthenticator({
      issuerURL: issuer.url, clientID: 'kubernetes', usernameClaim: 'sub', requiredClaims: [], signingAlgs: ['RS256'],
      initialRetryMs: 50, onError: (m) => errors.push(m),
    });
    started.push(a);
    a.start();
    await until('a discovery error', () => errors.length > 0);
    expect(errors[0]).to.match(/self.signed|unable to verify|certificate/i);
  });
});
