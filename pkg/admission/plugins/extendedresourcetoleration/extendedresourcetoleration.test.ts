import { expect } from 'chai';
import { podAttrs } from '../../testing.js';
import { ExtendedResourceToleration, isExtendedResourceName } from './index.js';

const requests = (r: Record<string, string>) => ({ name: 'c', image: 'x', resources: { requests: r } });

describe('ExtendedResourceToleration', () => {
  const p = new ExtendedResourceToleration();

  it('knows extended resource names', () => {
    expect(isExtendedResourceName('example.com/gpu')).to.equal(true);
    expect(isExtendedResourceName('cpu')).to.equal(false);
    expect(isExtendedResourceName('kubernetes.io/foo')).to.equal(false);
    expect(isExtendedResourceName('requests.example.com/gpu')).to.equal(false);
    expect(isExtendedResourceName('example.com/bad name')).to.equal(false);
  });

  it('adds one sorted NoSchedule Exists toleration per extended resource of containers and init containers', async () => {
    const a = podAttrs({
      containers: [requests({ cpu: '1', 'example.com/gpu': '1' }), requests({ 'example.com/gpu': '2' })],
      initContainers: [requests({ 'acme.io/fpga': '1', memory: '1Gi' })],
    });
    await p.admit(a);
    expect((a.object!.spec as { tolerations: unknown }).tolerations).to.deep.equal([
      { key: 'acme.io/fpga', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('keeps an identical toleration once and keeps unrelated ones', async () => {
    const mine = { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' };
    const other = { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' };
    const a = podAttrs({ containers: [requests({ 'example.com/gpu': '1' })], tolerations: [other, mine] });
    await p.admit(a);
    expect((a.object!.spec as { tolerations: unknown }).tolerations).to.deep.equal([other, mine]);
  });

  it('changes nothing for pods without extended resources, other resources and subresources', async () => {
    const plain = podAttrs({ containers: [requests({ cpu: '1' })] });
    await p.admit(plain);
    expect((plain.object!.spec as { tolerations?: unknown }).tolerations).to.equal(undefined);
    const sub = podAttrs({ containers: [requests({ 'example.com/gpu': '1' })] }, { subresource: 'status' });
    await p.admit(sub);
    expect((sub.object!.spec as { tolerations?: unknown }).tolerations).to.equal(undefined);
    expect(p.handles('DELETE')).to.equal(false);
  });
});
