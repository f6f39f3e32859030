import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { KubeObject } from '../../runtime/object.js';
import { boundClaims, legacyClaims, legacyIssuer } from '../../serviceaccount/claims.js';
import { TokenGenerator } from '../../serviceaccount/generator.js';
import { BoundTokenValidator, JWTAuthenticator, LegacyTokenValidator, type ServiceAccountGetter } from './index.js';

const issuer = 'https://issuer.example';
const aud = [issuer];
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

function store(objs: KubeObject[]): (ns: string, name: string) => Promise<KubeObject> {
  return async (ns, name) => {
    const o = objs.find((x) => x.metadata.namespace === ns && x.metadata.name === name);
    if (!o) throw new Error(`not found ${name}`);
    return o;
  };
}

describe('authentication/serviceaccount JWTs', () => {
  const sa: KubeObject = { metadata: { name: 'robot', namespace: 'ns', uid: 'sa-uid' } };
  const sec: KubeObject = { metadata: { name: 'bound', namespace: 'ns', uid: 'sec-uid' } };
  let objects: KubeObject[];
  const getter: ServiceAccountGetter = {
    serviceAccount: (ns, n) => store(objects)(ns, n).catch(() => { throw new Error(`serviceaccounts "${n}" not found`); }),
    secret: (ns, n) => store(objects)(ns, n),
    pod: (ns, n) => store(objects)(ns, n),
  };
  const bound = new JWTAuthenticator({ name: 'sa', issuers: [issuer], keys: [rsa.publicKey, ec.publicKey], implicitAudiences: aud, validator: new BoundTokenValidator(getter) });
  const now = () => Math.floor(Date.now() / 1000);
  const token = (key = rsa.privateKey, over: Partial<Parameters<typeof boundClaims>[0]> = {}) =>
    new TokenGenerator(issuer, key).generate({ ...boundClaims({ serviceAccount: sa, expirationSeconds: 3600, audiences: aud, now: now(), ...over }) });

  beforeEach(() => { objects = [sa, sec]; });

  it('authenticates a bound token signed with any of the keys (RS256 and ES256)', async () => {
    for (const key of [rsa.privateKey, ec.privateKey]) {
      expect(await bound.authenticateToken(await token(key))).to.deep.equal({
        decision: 'authenticated', audiences: aud,
        user: { name: 'system:serviceaccount:ns:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] },
      });
    }
  });

  it('refuses a foreign signature, expiry, audiences, and a token from the future', async () => {
    expect(await bound.authenticateToken(await token(other.privateKey))).to.deep.equal({ decision: 'error', message: 'square/go-jose: error in cryptographic primitive' });
    expect(await bound.authenticateToken(await token(rsa.privateKey, { now: now() - 7200 }))).to.deep.equal({ decision: 'error', message: 'service account token has expired' });
    expect(await bound.authenticateToken(await token(rsa.privateKey, { now: now() + 600 }))).to.deep.equal({ decision: 'error', message: 'service account token is not valid yet' });
    expect(await bound.authenticateToken(await token(rsa.privateKey, { audiences: ['other'] }))).to.deep.equal({
      decision: 'error', message: 'token audiences ["other"] is invalid for the target audiences ["https://issuer.example"]',
    });
    expect(await bound.authenticateToken(await token(rsa.privateKey, { audiences: ['other'] }), ['other'])).to.have.property('decision', 'authenticated');
  });

  it('ignores tokens of other issuers and non-JWTs', async () => {
    const foreign = await new TokenGenerator('https://elsewhere', rsa.privateKey).generate({ sub: 'x' });
    expect(await bound.authenticateToken(foreign)).to.deep.equal({ decision: 'noOpinion' });
    expect(await bound.authenticateToken('abc.def')).to.deep.equal({ decision: 'noOpinion' });
  });

  it('revokes when the account or bound Secret is gone or replaced', async () => {
    const withSecret = await token(rsa.privateKey, { secret: sec });
    expect(await bound.authenticateToken(withSecret)).to.have.property('decision', 'authenticated');
    objects = [sa];
    expect(await bound.authenticateToken(withSecret)).to.deep.equal({ decision: 'error', message: 'service account token has been invalidated' });
    objects = [sa, { metadata: { ...sec.metadata, uid: 'new' } }];
    expect(await bound.authenticateToken(withSecret)).to.deep.equal({ decision: 'error', message: 'secret UID (new) does not match service account secret ref claim (sec-uid)' });
    objects = [{ metadata: { ...sa.metadata, uid: 'sa-2' } }];
    expect(await bound.authenticateToken(await token())).to.deep.equal({ decision: 'error', message: 'service account UID (sa-2) does not match claim (sa-uid)' });
    objects = [];
    expect(await bound.authenticateToken(await token())).to.deep.equal({ decision: 'error', message: 'serviceaccounts "robot" not found' });
  });

  it('pod-bound tokens carry the pod in extra', async () => {
    const pod: KubeObject = { metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid' } };
    objects = [sa, pod];
    const r = await bound.authenticateToken(await token(rsa.privateKey, { pod }));
    expect(r).to.have.nested.property('user.extra').that.deep.equals({ 'authentication.kubernetes.io/pod-name': ['p'], 'authentication.kubernetes.io/pod-uid': ['pod-uid'] });
  });

  describe('legacy Secret tokens', () => {
    const secret: KubeObject = { metadata: { name: 'robot-token', namespace: 'ns', uid: 's' } };
    const legacy = (lookup: boolean) => new JWTAuthenticator({ name: 'legacy', issuers: [legacyIssuer], keys: [rsa.publicKey], implicitAudiences: aud, validator: new LegacyTokenValidator(lookup, getter) });
    const legacyToken = () => new TokenGenerator(legacyIssuer, rsa.privateKey).generate(legacyClaims(sa, secret));

    it('is valid while its Secret holds it; revoked when the Secret goes (lookup on)', async () => {
      const t = await legacyToken();
      objects = [sa, { ...secret, data: { token: Buffer.from(t).toString('base64') } }];
      expect(await legacy(true).authenticateToken(t)).to.deep.include({ decision: 'authenticated', audiences: aud });
      objects = [sa, { ...secret, data: { token: Buffer.from('other').toString('base64') } }];
      expect(await legacy(true).authenticateToken(t)).to.deep.equal({ decision: 'error', message: "token does not match server's copy" });
      objects = [sa];
      expect(await legacy(true).authenticateToken(t)).to.deep.equal({ decision: 'error', message: 'token has been invalidated' });
      expect(await legacy(false).authenticateToken(t)).to.have.property('decision', 'authenticated');
    });
  });
});
