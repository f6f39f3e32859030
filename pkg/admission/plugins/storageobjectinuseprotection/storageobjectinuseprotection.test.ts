import { expect } from 'chai';
import { attrs } from '../../test-attributes.js';
import type { KubeObject } from '../../../runtime/object.js';
import { StorageObjectInUseProtection } from './index.js';

const p = new StorageObjectInUseProtection();

describe('StorageObjectInUseProtection', () => {
  it('handles creates only', () => {
    expect([p.handles('CREATE'), p.handles('UPDATE'), p.handles('DELETE')]).to.deep.equal([true, false, false]);
  });

  it('adds kubernetes.io/pvc-protection to a new claim, after finalizers it already has', async () => {
    const obj: KubeObject = { metadata: { name: 'c', finalizers: ['example.com/x'] } };
    await p.admit(attrs({ resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', object: obj }));
    expect(obj.metadata.finalizers).to.deep.equal(['example.com/x', 'kubernetes.io/pvc-protection']);
  });

  it('adds kubernetes.io/pv-protection to a new volume, once', async () => {
    const obj: KubeObject = { metadata: { name: 'v' } };
    const a = attrs({ namespace: '', resource: 'persistentvolumes', kind: 'PersistentVolume', object: obj });
    await p.admit(a);
    await p.admit(a);
    expect(obj.metadata.finalizers).to.deep.equal(['kubernetes.io/pv-protection']);
  });

  it('leaves other resources and subresources alone', async () => {
    const cm: KubeObject = { metadata: { name: 'c' } };
    await p.admit(attrs({ object: cm }));
    const st: KubeObject = { metadata: { name: 'c' } };
    await p.admit(attrs({ resource: 'persistentvolumeclaims', subresource: 'status', object: st }));
    expect([cm.metadata.finalizers, st.metadata.finalizers]).to.deep.equal([undefined, undefined]);
  });
});
