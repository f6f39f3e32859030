import { expect } from 'chai';
import { attrs, rejection, staticLister } from '../../test-attributes.js';
import type { KubeObject } from '../../../runtime/object.js';
import { PersistentVolumeClaimResize } from './index.js';

const classes = staticLister([
  { metadata: { name: 'grow' }, allowVolumeExpansion: true },
  { metadata: { name: 'fixed' }, allowVolumeExpansion: false },
  { metadata: { name: 'unset' } },
]);
const pvc = (size: string, cls?: string, phase = 'Bound', annotations?: Record<string, string>): KubeObject => ({
  metadata: { name: 'data', annotations },
  spec: { resources: { requests: { storage: size } }, ...(cls !== undefined ? { storageClassName: cls } : {}) },
  status: { phase },
});
const update = (object: KubeObject, oldObject: KubeObject) => attrs({ operation: 'UPDATE', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', name: 'data', object, oldObject });
const plugin = new PersistentVolumeClaimResize(classes);
const refusal = 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

describe('PersistentVolumeClaimResize', () => {
  it('handles updates only', () => {
    expect([plugin.handles('UPDATE'), plugin.handles('CREATE')]).to.deep.equal([true, false]);
  });

  it('allows growing a bound claim whose class allows expansion', async () => {
    await plugin.validate(update(pvc('2Gi', 'grow'), pvc('1Gi', 'grow')));
    await plugin.validate(update(pvc('1536Mi', undefined, 'Bound', { 'volume.beta.kubernetes.io/storage-class': 'grow' }), pvc('1Gi', undefined, 'Bound', { 'volume.beta.kubernetes.io/storage-class': 'grow' })));
  });

  it('allows unchanged or shrinking sizes whatever the class', async () => {
    await plugin.validate(update(pvc('1Gi', 'fixed'), pvc('1Gi', 'fixed')));
    await plugin.validate(update(pvc('500Mi', 'fixed', 'Pending'), pvc('1Gi', 'fixed', 'Pending')));
  });

  it('refuses growing a claim that is not bound', async () => {
    const err = await rejection(plugin.validate(update(pvc('2Gi', 'grow', 'Bound'), pvc('1Gi', 'grow', 'Pending'))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded');
  });

  it('refuses growing when the class does not allow expansion, is unknown, empty, or changes', async () => {
    for (const [now, before] of [['fixed', 'fixed'], ['unset', 'unset'], ['missing', 'missing'], [undefined, undefined], ['grow', 'fixed']] as const) {
      const err = await rejection(plugin.validate(update(pvc('2Gi', now), pvc('1Gi', before))));
      expect(err.code).to.equal(403);
      expect(err.message).to.equal(refusal);
    }
  });

  it('ignores subresources', async () => {
    await plugin.validate({ ...update(pvc('2Gi', 'fixed'), pvc('1Gi', 'fixed')), subresource: 'status' });
  });
});
