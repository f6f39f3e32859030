import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { conditionsFor, updateConditions, type NamespaceCondition } from './conditions.js';

describe('namespace deletion conditions', () => {
  it('describes remaining content and finalizers as upstream, sorted', () => {
    const found = conditionsFor({
      remainingByResource: new Map([['roles.rbac.authorization.k8s.io', 1], ['configmaps.', 2]]),
      remainingByFinalizer: new Map([['b/x', 1], ['a/y', 2]]),
      deleteErrors: ['boom'],
    });
    expect(found.map((c) => [c.type, c.status, c.reason, c.message])).to.deep.equal([
      ['NamespaceDeletionContentFailure', 'True', 'ContentDeletionFailed', 'Failed to delete all resource types, 1 remaining: boom'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 2 resource instances, roles.rbac.authorization.k8s.io has 1 resource instances'],
      ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: a/y in 2 resource instances, b/x in 1 resource instances'],
    ]);
  });

  it('keeps all five types, and moves the transition time only when the status changes', () => {
    const ns: KubeObject = { metadata: { name: 'n' }, status: { phase: 'Terminating' } };
    expect(updateConditions(ns, conditionsFor({ remainingByResource: new Map([['configmaps.', 1]]), remainingByFinalizer: new Map(), deleteErrors: [] }))).to.equal(true);
    const conditions = (ns.status as { conditions: NamespaceCondition[] }).conditions;
    expect(conditions.map((c) => `${c.type}=${c.status}`)).to.deep.equal([
      'NamespaceDeletionDiscoveryFailure=False', 'NamespaceDeletionGroupVersionParsingFailure=False',
      'NamespaceDeletionContentFailure=False', 'NamespaceContentRemaining=True', 'NamespaceFinalizersRemaining=False']);
    conditions[3].lastTransitionTime = 'earlier';
    conditions[0].lastTransitionTime = 'earlier';
    expect(updateConditions(ns, conditionsFor({ remainingByResource: new Map(), remainingByFinalizer: new Map(), deleteErrors: [] }))).to.equal(true);
    expect(conditions[3]).to.include({ status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' });
    expect(conditions[3].lastTransitionTime).to.not.equal('earlier');
    expect(conditions[0].lastTransitionTime).to.equal('earlier');
    expect(updateConditions(ns, [])).to.equal(false);
  });
});
