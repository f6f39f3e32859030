import { expect } from 'chai';
import { namespace, namespaces, podAttrs, rejection } from '../../testing.js';
import { PodTolerationRestriction, defaultTolerationsAnnotation as D, tolerationsWhitelistAnnotation as W, podTolerationRestrictionConfig } from './index.js';

const memoryPressure = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };
const gpu = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' };
const bestEffort = (tolerations?: unknown[]) => ({ containers: [{ name: 'c', image: 'x' }], ...(tolerations ? { tolerations } : {}) });
const burstable = (tolerations?: unknown[]) => ({ containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }], ...(tolerations ? { tolerations } : {}) });
const tolerationsOf = (a: ReturnType<typeof podAttrs>) => (a.object!.spec as { tolerations?: unknown[] }).tolerations;

describe('PodTolerationRestriction', () => {
  it('adds the namespace default tolerations to new pods, keeping the pod\'s own first', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [D]: JSON.stringify([gpu]) }) }));
    const a = podAttrs(bestEffort([dedicated]));
    await p.admit(a);
    expect(tolerationsOf(a)).to.deep.equal([dedicated, gpu]);
  });

  it('drops defaults a pod toleration already covers', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [D]: JSON.stringify([gpu, dedicated]) }) }));
    const a = podAttrs(bestEffort([{ operator: 'Exists' }]));
    await p.admit(a);
    expect(tolerationsOf(a)).to.deep.equal([{ operator: 'Exists' }]);
  });

  it('adds the memory-pressure toleration to pods that are not BestEffort, also on update', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team') }));
    const a = podAttrs(burstable(), { operation: 'UPDATE', oldObject: podAttrs(burstable()).object });
    await p.admit(a);
    expect(tolerationsOf(a)).to.deep.equal([memoryPressure]);
    const b = podAttrs(bestEffort());
    await p.admit(b);
    expect(tolerationsOf(b)).to.equal(undefined);
  });

  it('does not add namespace defaults on update', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [D]: JSON.stringify([gpu]) }) }));
    const a = podAttrs(bestEffort(), { operation: 'UPDATE' });
    await p.admit(a);
    expect(tolerationsOf(a)).to.equal(undefined);
  });

  it('falls back to the cluster default unless the namespace annotation is present, even empty', async () => {
    const config = podTolerationRestrictionConfig({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', default: [gpu] });
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team'), empty: namespace('empty', { [D]: '' }) }), config);
    const a = podAttrs(bestEffort());
    await p.admit(a);
    expect(tolerationsOf(a)).to.deep.equal([gpu]);
    const b = podAttrs(bestEffort(), { namespace: 'empty' });
    await p.admit(b);
    expect(tolerationsOf(b)).to.equal(undefined);
  });

  it('refuses tolerations outside the namespace whitelist (500 plain error, upstream message)', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [W]: JSON.stringify([gpu]) }) }));
    await p.validate(podAttrs(bestEffort([gpu])));
    const err = await rejection(p.validate(podAttrs(bestEffort([dedicated]))));
    expect(err.code).to.equal(500);
    expect(err.reason).to.equal('');
    expect(err.message).to.equal('pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  });

  it('checks merged defaults against the whitelist too', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [D]: JSON.stringify([dedicated]), [W]: JSON.stringify([gpu]) }) }));
    const err = await rejection(p.admit(podAttrs(bestEffort())));
    expect(err.message).to.equal('pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  });

  it('uses the cluster whitelist when the namespace has none, naming the cluster scope', async () => {
    const config = podTolerationRestrictionConfig({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', whitelist: [gpu] });
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team'), open: namespace('open', { [W]: '' }) }), config);
    const err = await rejection(p.validate(podAttrs(bestEffort([dedicated]))));
    expect(err.message).to.equal('pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist');
    await p.validate(podAttrs(bestEffort([dedicated]), { namespace: 'open' }));
  });

  it('whitelist entries cover narrower tolerations (Exists covers Equal, shorter tolerationSeconds)', async () => {
    const wl = [{ key: 'dedicated', operator: 'Exists' }, { key: 'evict', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }];
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [W]: JSON.stringify(wl) }) }));
    await p.validate(podAttrs(bestEffort([dedicated, { key: 'evict', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }])));
    await rejection(p.validate(podAttrs(bestEffort([{ key: 'evict', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 90 }]))));
    await rejection(p.validate(podAttrs(bestEffort([{ key: 'evict', operator: 'Exists', effect: 'NoExecute' }]))));
  });

  it('answers a malformed annotation with a plain 500 and a missing namespace with 404', async () => {
    const bad = await rejection(new PodTolerationRestriction(namespaces({ team: namespace('team', { [D]: '{' }) })).admit(podAttrs(bestEffort())));
    expect(bad.code).to.equal(500);
    const missing = await rejection(new PodTolerationRestriction(namespaces({})).admit(podAttrs(bestEffort())));
    expect(missing.code).to.equal(404);
    expect(missing.message).to.equal('namespaces "team" not found');
  });

  it('ignores subresources and other resources', async () => {
    const p = new PodTolerationRestriction(namespaces({ team: namespace('team', { [W]: JSON.stringify([gpu]) }) }));
    await p.validate(podAttrs(bestEffort([dedicated]), { subresource: 'ephemeralcontainers' }));
    await p.validate(podAttrs(bestEffort([dedicated]), { resource: 'podtemplates' }));
  });

  describe('configuration', () => {
    it('is empty without a document and accepts v1alpha1 and v1', () => {
      expect(podTolerationRestrictionConfig(undefined)).to.deep.equal({ default: [], whitelist: [] });
      expect(podTolerationRestrictionConfig({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1', kind: 'Configuration', whitelist: [gpu] }))
        .to.deep.equal({ default: [], whitelist: [gpu] });
    });

    it('refuses another kind and invalid tolerations', () => {
      expect(() => podTolerationRestrictionConfig({ apiVersion: 'v1', kind: 'Pod' })).to.throw('no kind "Pod" is registered for version "v1"');
      expect(() => podTolerationRestrictionConfig({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', default: [{ key: 'a', operator: 'Maybe' }] }))
        .to.throw('default[0].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"');
    });
  });
});
