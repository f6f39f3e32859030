import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { KubeObject } from '../../runtime/object.js';
import { computeDetachedSignature, detachedSignatureIsValid, signingTokens } from './index.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('controller/bootstrap', () => {
  it('detached HS256 JWS keyed by the token secret, kid the token id', async () => {
    const sig = await computeDetachedSignature('payload', 'abcdef', '0123456789abcdef');
    const [h, empty, s] = sig.split('.');
    expect(empty).to.equal('');
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).to.deep.equal({ alg: 'HS256', kid: 'abcdef' });
    const mac = createHmac('sha256', '0123456789abcdef').update(`${h}.${Buffer.from('payload').toString('base64url')}`).digest('base64url');
    expect(s).to.equal(mac);
    expect(await detachedSignatureIsValid(sig, 'payload', '0123456789abcdef')).to.equal(true);
    expect(await detachedSignatureIsValid(sig, 'other', '0123456789abcdef')).to.equal(false);
  });

  it('only unexpired tokens marked for signing sign', () => {
    const tok = (id: string, extra: Record<string, string>): KubeObject => ({
      metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' }, type: 'bootstrap.kubernetes.io/token',
      data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': '0123456789abcdef', ...extra }).map(([k, v]) => [k, b64(v)])),
    });
    const tokens = signingTokens([
      tok('aaaaaa', { 'usage-bootstrap-signing': 'true' }),
      tok('bbbbbb', { 'usage-bootstrap-signing': 'false' }),
      tok('cccccc', { 'usage-bootstrap-signing': 'true', expiration: '2000-01-01T00:00:00Z' }),
    ]);
    expect([...tokens.keys()]).to.deep.equal(['aaaaaa']);
  });
});
