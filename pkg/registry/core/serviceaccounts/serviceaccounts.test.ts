import { expect } from 'chai';
import type { KubeObject } from '../../../runtime/object.js';
import { serviceaccounts } from './index.js';

describe('serviceaccounts', () => {
  it('declares upstream discovery data with the token subresource', () => {
    expect(serviceaccounts).to.include({ kind: 'ServiceAccount', plural: 'serviceaccounts', singular: 'serviceaccount', namespaced: true });
    expect(serviceaccounts.shortNames).to.deep.equal(['sa']);
    expect(serviceaccounts.subresources).to.deep.equal([
      { name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] }]);
  });

  it('keeps only the name of secret references', () => {
    const obj: KubeObject = { metadata: { name: 'sa', namespace: 'ns' }, secrets: [{ name: 's1', namespace: 'other', uid: 'x' }, { kind: 'Secret' }] };
    serviceaccounts.strategy.prepareForCreate(obj, {});
    expect(obj.secrets).to.deep.equal([{ name: 's1' }, {}]);
  });

  it('names are DNS subdomains', () => {
    const errs = serviceaccounts.strategy.validate({ metadata: { name: 'Robot', namespace: 'ns' } }, {});
    expect(errs.map((e) => e.field)).to.deep.equal(['metadata.name']);
  });

  it('prints NAME SECRETS AGE', () => {
    expect(serviceaccounts.table!.columns.map((c) => c.name)).to.deep.equal(['Name', 'Secrets', 'Age']);
    expect(serviceaccounts.table!.cells({ metadata: { name: 'sa' }, secrets: [{ name: 'a' }] })).to.deep.equal(['sa', 1, '<unknown>']);
  });
});
