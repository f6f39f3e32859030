import { expect } from 'chai';
import { attrs, staticLister } from '../../test-attributes.js';
import type { KubeObject } from '../../../runtime/object.js';
import { DefaultStorageClass } from './index.js';

const sc = (name: string, annotations: Record<string, string> = {}, created = '2024-01-01T00:00:00Z'): KubeObject => ({ metadata: { name, annotations, creationTimestamp: created } });
const ga = { 'storageclass.kubernetes.io/is-default-class': 'true' };
const beta = { 'storageclass.beta.kubernetes.io/is-default-class': 'true' };
const pvc = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({ metadata: { name: 'data', annotations }, spec });
const create = (object: KubeObject) => attrs({ kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', name: 'data', object });

describe('DefaultStorageClass', () => {
  it('handles creates only', () => {
    const p = new DefaultStorageClass(staticLister([]));
    expect([p.handles('CREATE'), p.handles('UPDATE')]).to.deep.equal([true, false]);
  });

  it('sets the default class (GA or beta annotation) on a claim without one', async () => {
    const a = pvc();
    await new DefaultStorageClass(staticLister([sc('slow'), sc('fast', ga)])).admit(create(a));
    expect(a.spec).to.deep.equal({ storageClassName: 'fast' });
    const b = pvc();
    await new DefaultStorageClass(staticLister([sc('slow'), sc('old', beta)])).admit(create(b));
    expect(b.spec).to.deep.equal({ storageClassName: 'old' });
  });

  it('leaves claims that ask for a class alone: a name, an explicit "", or the beta annotation', async () => {
    const p = new DefaultStorageClass(staticLister([sc('fast', ga)]));
    for (const [spec, ann] of [[{ storageClassName: 'mine' }, undefined], [{ storageClassName: '' }, undefined], [{}, { 'volume.beta.kubernetes.io/storage-class': 'x' }]] as const) {
      const claim = pvc({ ...spec }, ann);
      await p.admit(create(claim));
      expect(claim.spec).to.deep.equal(spec);
    }
  });

  it('picks the newest of several defaults', async () => {
    const a = pvc();
    await new DefaultStorageClass(staticLister([sc('a', ga, '2024-05-01T00:00:00Z'), sc('b', beta, '2024-01-01T00:00:00Z')])).admit(create(a));
    expect(a.spec).to.deep.equal({ storageClassName: 'a' });
  });

  it('does nothing without a default, and for subresources', async () => {
    const a = pvc();
    await new DefaultStorageClass(staticLister([sc('slow')])).admit(create(a));
    expect(a.spec).to.deep.equal({});
    const b = pvc();
    await new DefaultStorageClass(staticLister([sc('fast', ga)])).admit({ ...create(b), subresource: 'status' });
    expect(b.spec).to.deep.equal({});
  });
});
