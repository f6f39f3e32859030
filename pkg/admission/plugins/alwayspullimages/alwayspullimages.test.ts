import { expect } from 'chai';
import { podAttrs, rejection } from '../../testing.js';
import { AlwaysPullImages } from './index.js';

const spec = () => ({
  initContainers: [{ name: 'i', image: 'init', imagePullPolicy: 'IfNotPresent' }],
  containers: [{ name: 'c', image: 'app', imagePullPolicy: 'Never' }, { name: 'd', image: 'side' }],
  ephemeralContainers: [{ name: 'e', image: 'debug', imagePullPolicy: 'IfNotPresent' }],
});

describe('AlwaysPullImages', () => {
  const p = new AlwaysPullImages();

  it('handles creates and updates only', () => {
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].map((op) => p.handles(op as 'CREATE'))).to.deep.equal([true, true, false, false]);
  });

  it('sets Always on init, regular and ephemeral containers of a new pod', async () => {
    const a = podAttrs(spec());
    await p.admit(a);
    const s = a.object!.spec as ReturnType<typeof spec>;
    expect([...s.initContainers, ...s.containers, ...s.ephemeralContainers].map((c) => (c as { imagePullPolicy?: string }).imagePullPolicy))
      .to.deep.equal(['Always', 'Always', 'Always', 'Always']);
    await p.validate(a);
  });

  it('sets Always on an update that brings a new image', async () => {
    const old = podAttrs(spec()).object;
    const s = spec();
    s.containers[0].image = 'app:v2';
    const a = podAttrs(s, { operation: 'UPDATE', oldObject: old });
    await p.admit(a);
    expect((a.object!.spec as ReturnType<typeof spec>).containers[0].imagePullPolicy).to.equal('Always');
  });

  it('leaves an update without new images alone, in both phases', async () => {
    const a = podAttrs(spec(), { operation: 'UPDATE', oldObject: podAttrs(spec()).object });
    await p.admit(a);
    expect((a.object!.spec as ReturnType<typeof spec>).containers[0].imagePullPolicy).to.equal('Never');
    await p.validate(a);
  });

  it('ignores subresources and other resources', async () => {
    const sub = podAttrs(spec(), { subresource: 'ephemeralcontainers' });
    await p.admit(sub);
    await p.validate(sub);
    expect((sub.object!.spec as ReturnType<typeof spec>).containers[0].imagePullPolicy).to.equal('Never');
    const other = podAttrs(spec(), { resource: 'podtemplates', kind: 'PodTemplate' });
    await p.validate(other);
  });

  it('validation refuses containers not pulling Always, as an aggregate (500, no reason)', async () => {
    const one = await rejection(p.validate(podAttrs({ containers: [{ name: 'c', image: 'app', imagePullPolicy: 'IfNotPresent' }] })));
    expect(one.code).to.equal(500);
    expect(one.reason).to.equal('');
    expect(one.message).to.equal('pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"');
    const many = await rejection(p.validate(podAttrs(spec())));
    expect(many.message).to.equal('[pods "p" is forbidden: spec.initContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always", '
      + 'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always", '
      + 'pods "p" is forbidden: spec.containers[1].imagePullPolicy: Unsupported value: "": supported values: "Always", '
      + 'pods "p" is forbidden: spec.ephemeralContainers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"]');
  });
});
