import { expect } from 'chai';
import type { Attributes, Authorizer } from '../../../authorization/interfaces.js';
import type { KubeObject } from '../../../runtime/object.js';
import { StatusError } from '../../../runtime/errors.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import { ClusterTrustBundleAttest } from './ctbattest.js';

describe('admission ClusterTrustBundleAttest', () => {
  const asked: Attributes[] = [];
  // Allows `attest` on example.com/allowed by name and on wildcard.example/* by domain.
  const authz: Authorizer = {
    name: 'test',
    authorize: async (a) => {
      asked.push(a);
      const ok = a.verb === 'attest' && a.resource === 'signers' && a.apiGroup === 'certificates.k8s.io'
        && ['example.com/allowed', 'wildcard.example/*'].includes(a.name);
      return { decision: ok ? 'allow' : 'noOpinion', reason: '' };
    },
  };
  const attrs = (signerName: string | undefined, name: string, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionAttributes => ({
    operation, group: 'certificates.k8s.io', version: 'v1alpha1', kind: 'ClusterTrustBundle', resource: 'clustertrustbundles',
    subresource: '', namespace: '', name: operation === 'CREATE' ? '' : name, dryRun: false,
    user: { name: 'bob', groups: ['system:authenticated'] },
    object: { metadata: { name }, spec: { trustBundle: 'x', ...(signerName === undefined ? {} : { signerName }) } } as KubeObject,
  });
  const rejection = async (p: ClusterTrustBundleAttest, a: AdmissionAttributes): Promise<StatusError | undefined> =>
    p.validate(a).then(() => undefined, (e: unknown) => e as StatusError);

  it('needs attest on the signer, by name or by domain wildcard', async () => {
    const p = new ClusterTrustBundleAttest(authz, true);
    expect(p.handles('CREATE') && p.handles('UPDATE') && !p.handles('DELETE')).to.equal(true);
    expect(await rejection(p, attrs('example.com/allowed', 'example.com:allowed:a'))).to.equal(undefined);
    expect(await rejection(p, attrs('wildcard.example/any', 'wildcard.example:any:a', 'UPDATE'))).to.equal(undefined);
    expect(asked.at(-1)).to.include({ name: 'wildcard.example/*', verb: 'attest', apiVersion: '*', isResourceRequest: true });
    const err = await rejection(p, attrs('example.com/other', 'example.com:other:a'));
    expect(err).to.be.instanceOf(StatusError);
    expect(err!.code).to.equal(403);
    expect(err!.message).to.equal(
      'clustertrustbundles.certificates.k8s.io "example.com:other:a" is forbidden: user not permitted to attest for signerName "example.com/other"');
  });

  it('asks nothing for a bundle without signer, another resource, or with the gate off', async () => {
    asked.length = 0;
    expect(await rejection(new ClusterTrustBundleAttest(authz, true), attrs(undefined, 'plain'))).to.equal(undefined);
    expect(await rejection(new ClusterTrustBundleAttest(authz, true), { ...attrs('example.com/other', 'x'), resource: 'certificatesigningrequests' }))
      .to.equal(undefined);
    expect(await rejection(new ClusterTrustBundleAttest(authz, false), attrs('example.com/other', 'example.com:other:a'))).to.equal(undefined);
    expect(asked).to.deep.equal([]);
  });
});
