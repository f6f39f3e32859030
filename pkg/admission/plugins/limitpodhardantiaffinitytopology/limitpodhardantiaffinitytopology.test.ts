import { expect } from 'chai';
import { podAttrs, rejection } from '../../testing.js';
import { LimitPodHardAntiAffinityTopology } from './index.js';

const anti = (required: unknown[], preferred: unknown[] = []) => ({
  containers: [{ name: 'c', image: 'x' }],
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required, preferredDuringSchedulingIgnoredDuringExecution: preferred } },
});

describe('LimitPodHardAntiAffinityTopology', () => {
  const p = new LimitPodHardAntiAffinityTopology();

  it('refuses a required term with another topology key (403, upstream message)', async () => {
    const err = await rejection(p.validate(podAttrs(anti([
      { topologyKey: 'kubernetes.io/hostname', labelSelector: {} },
      { topologyKey: 'topology.kubernetes.io/zone', labelSelector: {} },
    ]))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed');
  });

  it('allows hostname-only required terms and any preferred term', async () => {
    await p.validate(podAttrs(anti([{ topologyKey: 'kubernetes.io/hostname' }],
      [{ weight: 1, podAffinityTerm: { topologyKey: 'topology.kubernetes.io/zone' } }])));
    await p.validate(podAttrs({ containers: [] }));
  });

  it('checks updates too, but not subresources', async () => {
    expect(p.handles('UPDATE')).to.equal(true);
    await p.validate(podAttrs(anti([{ topologyKey: 'zone' }]), { subresource: 'status' }));
  });
});
