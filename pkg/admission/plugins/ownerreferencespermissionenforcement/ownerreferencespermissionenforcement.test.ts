import { expect } from 'chai';
import type { Attributes, Authorizer } from '../../../authorization/interfaces.js';
import { attrs, rejection } from '../../test-attributes.js';
import type { KubeObject, OwnerReference } from '../../../runtime/object.js';
import { OwnerReferencesPermissionEnforcement } from './index.js';

/** Allows what `allowed` lists as "verb resource[/subresource]"; records every question. */
function authz(allowed: string[]): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    name: 'test', asked,
    authorize: async (a) => {
      asked.push(a);
      const key = `${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''}`;
      return allowed.includes(key) ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: 'no rule' };
    },
  };
}
const kinds = (g: string, v: string, k: string): string | undefined =>
  ({ 'apps/v1/ReplicaSet': 'replicasets', '/v1/ConfigMap': 'configmaps' } as Record<string, string>)[`${g}/${v}/${k}`];
const ref = (over: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', ...over });
const pod = (refs?: OwnerReference[]): KubeObject => ({ metadata: { name: 'p', ownerReferences: refs } });
const podAttrs = (operation: 'CREATE' | 'UPDATE', object: KubeObject, oldObject?: KubeObject) =>
  attrs({ operation, kind: 'Pod', resource: 'pods', name: 'p', object, oldObject });

describe('OwnerReferencesPermissionEnforcement', () => {
  it('validates creates and updates', () => {
    const p = new OwnerReferencesPermissionEnforcement(authz([]), kinds);
    expect([p.handles('CREATE'), p.handles('UPDATE'), p.handles('DELETE')]).to.deep.equal([true, true, false]);
  });

  it('asks nothing when ownerReferences do not change', async () => {
    const z = authz([]);
    const p = new OwnerReferencesPermissionEnforcement(z, kinds);
    await p.validate(podAttrs('UPDATE', pod([ref({ blockOwnerDeletion: true })]), pod([ref({ blockOwnerDeletion: true })])));
    await p.validate(podAttrs('CREATE', pod()));
    expect(z.asked).to.deep.equal([]);
  });

  it('changing ownerReferences of an existing object needs delete on it', async () => {
    const z = authz([]);
    const err = await rejection(new OwnerReferencesPermissionEnforcement(z, kinds).validate(podAttrs('UPDATE', pod([ref()]), pod())));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: cannot set an ownerRef on a resource you can\'t delete: no rule, <nil>');
    expect(z.asked[0]).to.include({ verb: 'delete', resource: 'pods', name: 'p', namespace: 'team', apiGroup: '', apiVersion: 'v1', isResourceRequest: true });
    await new OwnerReferencesPermissionEnforcement(authz(['delete pods']), kinds).validate(podAttrs('UPDATE', pod([ref()]), pod()));
  });

  it('a create may set non-blocking ownerReferences without delete', async () => {
    const z = authz([]);
    await new OwnerReferencesPermissionEnforcement(z, kinds).validate(podAttrs('CREATE', pod([ref()])));
    expect(z.asked).to.deep.equal([]);
  });

  it('a new blocking reference needs update on the owner\'s finalizers', async () => {
    const z = authz([]);
    const err = await rejection(new OwnerReferencesPermissionEnforcement(z, kinds).validate(podAttrs('CREATE', pod([ref({ blockOwnerDeletion: true })]))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: no rule, <nil>');
    expect(z.asked[0]).to.include({ verb: 'update', apiGroup: 'apps', apiVersion: 'v1', resource: 'replicasets', subresource: 'finalizers', name: 'rs', namespace: 'team' });
    await new OwnerReferencesPermissionEnforcement(authz(['update replicasets/finalizers']), kinds).validate(podAttrs('CREATE', pod([ref({ blockOwnerDeletion: true })])));
  });

  it('turning blockOwnerDeletion on counts as new; one already blocking does not', async () => {
    const z = authz(['delete pods']);
    const p = new OwnerReferencesPermissionEnforcement(z, kinds);
    const err = await rejection(p.validate(podAttrs('UPDATE', pod([ref({ blockOwnerDeletion: true })]), pod([ref({ blockOwnerDeletion: false })]))));
    expect(err.message).to.match(/can't set finalizers on/);
    await p.validate(podAttrs('UPDATE', pod([ref({ blockOwnerDeletion: true }), ref({ uid: 'u2', name: 'cm', kind: 'ConfigMap', apiVersion: 'v1' })]), pod([ref({ blockOwnerDeletion: true })])));
  });

  it('an owner kind with no REST mapping is refused', async () => {
    const err = await rejection(new OwnerReferencesPermissionEnforcement(authz([]), kinds)
      .validate(podAttrs('CREATE', pod([ref({ apiVersion: 'example.com/v1', kind: 'Widget', blockOwnerDeletion: true })]))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"');
  });

  it('exempts pods/status', async () => {
    await new OwnerReferencesPermissionEnforcement(authz([]), kinds).validate({ ...podAttrs('UPDATE', pod([ref()]), pod()), subresource: 'status' });
  });
});
