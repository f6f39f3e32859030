import { expect } from 'chai';
import { finalizersForDeletion, markAsDeleting, shouldDeleteDuringUpdate } from './deletion.js';

describe('generic deletion rules', () => {
  it('puts the finalizer the propagation policy asks for in place of the other', () => {
    expect(finalizersForDeletion(undefined, {})).to.equal(undefined);
    expect(finalizersForDeletion(['x'], { propagationPolicy: 'Background' })).to.equal(undefined);
    expect(finalizersForDeletion(['x'], { propagationPolicy: 'Orphan' })).to.deep.equal(['x', 'orphan']);
    expect(finalizersForDeletion(['orphan'], { propagationPolicy: 'Foreground' })).to.deep.equal(['foregroundDeletion']);
    expect(finalizersForDeletion(['foregroundDeletion'], { orphanDependents: true })).to.deep.equal(['orphan']);
    expect(finalizersForDeletion(['orphan', 'x'], { orphanDependents: false })).to.deep.equal(['x']);
    expect(finalizersForDeletion(['orphan'], {})).to.equal(undefined);
    expect(finalizersForDeletion(['foregroundDeletion'], { propagationPolicy: 'Background' })).to.deep.equal([]);
  });

  it('marks for deletion once, bumping generation only where it is tracked', () => {
    const obj = { metadata: { generation: 2 } };
    markAsDeleting(obj, '2024-01-01T00:00:00Z');
    markAsDeleting(obj, '2024-02-01T00:00:00Z');
    expect(obj.metadata).to.deep.equal({ generation: 3, deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 });
    const untracked: { metadata: Record<string, unknown> } = { metadata: {} };
    markAsDeleting(untracked, '2024-01-01T00:00:00Z');
    expect(untracked.metadata.generation).to.equal(undefined);
  });

  it('an update deletes a terminating object left without finalizers', () => {
    const old = { metadata: { deletionTimestamp: 't', deletionGracePeriodSeconds: 0, finalizers: ['a'] } };
    expect(shouldDeleteDuringUpdate({ metadata: {} }, old)).to.equal(true);
    expect(shouldDeleteDuringUpdate({ metadata: { finalizers: ['a'] } }, old)).to.equal(false);
    expect(shouldDeleteDuringUpdate({ metadata: {} }, { metadata: {} })).to.equal(false);
    expect(shouldDeleteDuringUpdate({ metadata: {} }, { metadata: { deletionTimestamp: 't', deletionGracePeriodSeconds: 30 } })).to.equal(false);
  });
});
