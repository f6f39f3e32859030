import { expect } from 'chai';
import { namespace, namespaces, podAttrs, rejection } from '../../testing.js';
import { PodNodeSelector, podNodeSelectorConfig, nodeSelectorAnnotation } from './index.js';

const pod = (nodeSelector?: Record<string, string>) => ({ containers: [{ name: 'c', image: 'x' }], ...(nodeSelector ? { nodeSelector } : {}) });
const selectorOf = (a: ReturnType<typeof podAttrs>) => (a.object!.spec as { nodeSelector?: Record<string, string> }).nodeSelector;

describe('PodNodeSelector', () => {
  it('merges the namespace annotation into the pod selector', async () => {
    const p = new PodNodeSelector(namespaces({ team: namespace('team', { [nodeSelectorAnnotation]: 'env=prod, tier = web' }) }));
    const a = podAttrs(pod({ disk: 'ssd' }));
    await p.admit(a);
    expect(selectorOf(a)).to.deep.equal({ env: 'prod', tier: 'web', disk: 'ssd' });
  });

  it('refuses a pod selector conflicting with the namespace (403, upstream message)', async () => {
    const p = new PodNodeSelector(namespaces({ team: namespace('team', { [nodeSelectorAnnotation]: 'env=prod' }) }));
    for (const phase of [p.admit.bind(p), p.validate.bind(p)]) {
      const err = await rejection(phase(podAttrs(pod({ env: 'dev' }))));
      expect(err.code).to.equal(403);
      expect(err.message).to.equal('pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector');
    }
  });

  it('uses clusterDefaultNodeSelector when the namespace has no annotation, and not when it has an empty one', async () => {
    const config = podNodeSelectorConfig({ podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'pool=general' } });
    const p = new PodNodeSelector(namespaces({ team: namespace('team'), free: namespace('free', { [nodeSelectorAnnotation]: '' }) }), config);
    const a = podAttrs(pod());
    await p.admit(a);
    expect(selectorOf(a)).to.deep.equal({ pool: 'general' });
    const b = podAttrs(pod(), { namespace: 'free' });
    await p.admit(b);
    expect(selectorOf(b)).to.deep.equal({});
  });

  it('refuses selectors outside the namespace whitelist from the configuration', async () => {
    const config = podNodeSelectorConfig({ podNodeSelectorPluginConfig: { team: 'env=prod,disk=ssd' } });
    const p = new PodNodeSelector(namespaces({ team: namespace('team', { [nodeSelectorAnnotation]: 'env=prod' }) }), config);
    await p.admit(podAttrs(pod({ disk: 'ssd' })));
    const err = await rejection(p.admit(podAttrs(pod({ disk: 'hdd' }))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist');
  });

  it('reads the configuration key case-insensitively and ignores what it cannot use', () => {
    expect(podNodeSelectorConfig({ PodNodeSelectorPluginConfig: { a: 'x=y' } })).to.deep.equal({ a: 'x=y' });
    expect(podNodeSelectorConfig(undefined)).to.deep.equal({});
    expect(podNodeSelectorConfig('junk')).to.deep.equal({});
  });

  it('answers a malformed annotation with a plain 500', async () => {
    const p = new PodNodeSelector(namespaces({ team: namespace('team', { [nodeSelectorAnnotation]: 'env' }) }));
    const err = await rejection(p.admit(podAttrs(pod())));
    expect(err.code).to.equal(500);
    expect(err.reason).to.equal('');
    expect(err.message).to.equal('invalid selector: [env]');
  });

  it('looks the namespace up in storage when the cache lacks it; a missing one is an internal error', async () => {
    const src = namespaces({}, { team: namespace('team', { [nodeSelectorAnnotation]: 'env=prod' }) });
    const a = podAttrs(pod());
    await new PodNodeSelector(src).admit(a);
    expect(src.liveLookups).to.include('team');
    expect(selectorOf(a)).to.deep.equal({ env: 'prod' });
    const err = await rejection(new PodNodeSelector(namespaces({})).admit(podAttrs(pod())));
    expect(err.code).to.equal(500);
    expect(err.message).to.equal('Internal error occurred: namespace team does not exist');
  });

  it('refuses with 403 while the namespace cache has not synced', async () => {
    const err = await rejection(new PodNodeSelector(namespaces({}, {}, false)).admit(podAttrs(pod())));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: not yet ready to handle request');
  });

  it('acts on pod creates only, not on updates, subresources or other resources', async () => {
    const p = new PodNodeSelector(namespaces({ team: namespace('team', { [nodeSelectorAnnotation]: 'env=prod' }) }));
    expect(p.handles('UPDATE')).to.equal(false);
    const sub = podAttrs(pod({ env: 'dev' }), { subresource: 'binding' });
    await p.admit(sub);
    await p.admit(podAttrs(pod({ env: 'dev' }), { resource: 'podtemplates' }));
  });
});
