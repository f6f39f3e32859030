import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { BootstrapTokenAuthenticator } from './index.js';
import { groupsOf, hasExpired, parseBootstrapToken } from './token.js';

function secret(data: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject {
  const enc = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return { metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' }, type: 'bootstrap.kubernetes.io/token', data: enc, ...extra };
}

const valid = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };

describe('authentication/bootstrap', () => {
  it('parses <6 chars>.<16 chars> of [a-z0-9] only', () => {
    expect(parseBootstrapToken('abcdef.0123456789abcdef')).to.deep.equal({ id: 'abcdef', secret: '0123456789abcdef' });
    for (const bad of ['ABCDEF.0123456789abcdef', 'abcde.0123456789abcdef', 'abcdef.0123456789abcde', 'abcdef0123456789abcdef']) {
      expect(parseBootstrapToken(bad), bad).to.equal(undefined);
    }
  });

  it('treats an unreadable expiration as expired', () => {
    expect(hasExpired(secret({ expiration: 'tomorrow' }))).to.equal(true);
    expect(hasExpired(secret({ expiration: '2000-01-01T00:00:00Z' }))).to.equal(true);
    expect(hasExpired(secret({ expiration: new Date(Date.now() + 60_000).toISOString() }))).to.equal(false);
    expect(hasExpired(secret({}))).to.equal(false);
  });

  it('groups: system:bootstrappers plus validated extra groups, sorted and unique', () => {
    expect(groupsOf(secret({ 'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:a,system:bootstrappers:a' })))
      .to.deep.equal({ groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:z'] });
    expect(groupsOf(secret({ 'auth-extra-groups': 'system:masters' }))).to.have.property('error').that.match(/bootstrap group "system:masters" is invalid/);
  });

  describe('BootstrapTokenAuthenticator', () => {
    const run = async (s: KubeObject | undefined, token = 'abcdef.0123456789abcdef') => {
      const reasons: string[] = [];
      const a = new BootstrapTokenAuthenticator(() => s, (why) => reasons.push(why));
      return { result: await a.authenticateToken(token), reasons };
    };

    it('authenticates system:bootstrap:<id>', async () => {
      const { result } = await run(secret({ ...valid, 'auth-extra-groups': 'system:bootstrappers:worker' }));
      expect(result).to.deep.equal({ decision: 'authenticated', user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:worker'] } });
    });

    const refusals: Array<[string, KubeObject | undefined, RegExp | undefined]> = [
      ['missing secret', undefined, undefined],
      ['wrong secret', secret({ ...valid, 'token-secret': 'ffffffffffffffff' }), /invalid value for key token-secret/],
      ['wrong id', secret({ ...valid, 'token-id': 'zzzzzz' }), /invalid value for key token-id/],
      ['wrong type', secret(valid, { type: 'Opaque' }), /has invalid type/],
      ['expired', secret({ ...valid, expiration: '2000-01-01T00:00:00Z' }), /has expired/],
      ['not for authentication', secret({ ...valid, 'usage-bootstrap-authentication': 'false' }), /not marked usage-bootstrap-authentication=true/],
      ['bad extra group', secret({ ...valid, 'auth-extra-groups': 'admins' }), /invalid value for key auth-extra-groups/],
      ['being deleted', secret(valid, { metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system', deletionTimestamp: '2020-01-01T00:00:00Z' } }), /deleted/],
    ];
    for (const [what, s, why] of refusals) {
      it(`has no opinion on a token whose secret is ${what}`, async () => {
        const { result, reasons } = await run(s);
        expect(result).to.deep.equal({ decision: 'noOpinion' });
        if (why) expect(reasons.join()).to.match(why);
      });
    }
  });
});
