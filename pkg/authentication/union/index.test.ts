import { expect } from 'chai';
import { AnonymousAuthenticator } from '../anonymous/index.js';
import { BearerTokenAuthenticator, bearerToken } from '../bearertoken/index.js';
import type { AuthResult, Authenticator, TokenAuthenticator } from '../interfaces.js';
import { UnionAuthenticator, withAuthenticatedGroup } from './index.js';

const fixed = (r: AuthResult): Authenticator => ({ name: 'fixed', authenticate: async () => r });
const token = (map: Record<string, AuthResult>): TokenAuthenticator => ({ name: 't', authenticateToken: async (t) => map[t] ?? { decision: 'noOpinion' } });

describe('authentication/union and bearertoken', () => {
  it('adds system:authenticated except to anonymous and users already in either group', () => {
    expect(withAuthenticatedGroup({ name: 'a', groups: ['g'] }).groups).to.deep.equal(['g', 'system:authenticated']);
    expect(withAuthenticatedGroup({ name: 'system:anonymous', groups: [] }).groups).to.deep.equal([]);
    expect(withAuthenticatedGroup({ name: 'b', groups: ['system:unauthenticated'] }).groups).to.deep.equal(['system:unauthenticated']);
  });

  it('an error from any method is a 401 rather than anonymous; errors aggregate', async () => {
    const u = new UnionAuthenticator([fixed({ decision: 'error', message: 'x' }), fixed({ decision: 'error', message: 'y' }), fixed({ decision: 'error', message: 'x' })], new AnonymousAuthenticator());
    expect(await u.authenticate({ headers: {} })).to.deep.equal({ decision: 'error', message: '[x, y]' });
  });

  it('nobody objecting and nobody claiming: anonymous when enabled, else no opinion', async () => {
    expect(await new UnionAuthenticator([fixed({ decision: 'noOpinion' })], new AnonymousAuthenticator()).authenticate({ headers: {} }))
      .to.deep.equal({ decision: 'authenticated', user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } });
    expect(await new UnionAuthenticator([fixed({ decision: 'noOpinion' })]).authenticate({ headers: {} })).to.deep.equal({ decision: 'noOpinion' });
  });

  it('splits the Authorization header as upstream', () => {
    expect(bearerToken({ headers: { authorization: 'Bearer abc' } })).to.equal('abc');
    expect(bearerToken({ headers: { authorization: 'bearer abc extra' } })).to.equal('abc');
    expect(bearerToken({ headers: { authorization: 'Bearer  abc' } })).to.equal(undefined);
    expect(bearerToken({ headers: { authorization: 'Basic abc' } })).to.equal(undefined);
  });

  it('a token nobody knows is "invalid bearer token"; known errors win over it', async () => {
    const b = new BearerTokenAuthenticator([token({}), token({ bad: { decision: 'error', message: 'expired' } })]);
    expect(await b.authenticate({ headers: { authorization: 'Bearer nope' } })).to.deep.equal({ decision: 'error', message: 'invalid bearer token' });
    expect(await b.authenticate({ headers: { authorization: 'Bearer bad' } })).to.deep.equal({ decision: 'error', message: 'expired' });
    expect(await b.authenticate({ headers: {} })).to.deep.equal({ decision: 'noOpinion' });
  });
});
